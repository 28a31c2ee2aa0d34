import FeedCore
import Foundation
import FuzzSupport

/// The state-file reader on any file: ``StateFile/load()`` throws a ``StateFile/Failure``
/// or returns contents, never traps; contents it returns, written again, read back the same
/// (the time it was saved to the second).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard FileManager.default.createFile(atPath: stateFile.path, contents: Data(bytes)) else {
        invariant(false, "cannot write \(stateFile.path)")
        return 0
    }
    guard let contents = try? stateFile.load() else { return 0 }
    let savedAt = contents.savedAt ?? Date(timeIntervalSince1970: 0)
    let written = StateFile.encode(
        seq: contents.seq, savedAt: savedAt, source: contents.source ?? "",
        encodedDocument: contents.document.serializedBytes())
    let again: StateFile.Contents
    do {
        again = try StateFile.decode(written)
    } catch {
        invariant(false, "a state file written from read contents does not read: \(error)")
        return 0
    }
    invariant(again.seq == contents.seq, "seq changed through a write")
    invariant(again.document == contents.document, "the document changed through a write")
    invariant(again.source == (contents.source ?? ""), "the source changed through a write")
    if let read = contents.savedAt {
        // Written to the second, as feedweb writes it: a fraction read from a file is dropped.
        let kept = again.savedAt.map { abs($0.timeIntervalSince(read)) < 1 } ?? false
        invariant(kept, "saved_at \(read) changed through a write to \(String(describing: again.savedAt))")
    }
    return 0
}

/// The file each input is written to, one per fuzzer process.
let stateFile = StateFile(path: NSTemporaryDirectory() + "feedweb-fuzz-state-\(getpid()).json")
