import FeedCore
import FuzzSupport

/// JSON Patch application, a document and a patch from one input (split at the first NUL,
/// which JSON text cannot hold): applying is atomic (a failed patch leaves the document as
/// it was) and deterministic; ``JSONByteCount/delta(of:before:)`` predicts each applied
/// operation's change in length; a patch survives serialization; and ``JSONDiff`` of the
/// two documents, either way round, applies to give the other.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPatch(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let (documentText, patchText) = input.restSplit(at: 0)
    guard let original = try? JSONValue(parsing: documentText),
        let patch = try? JSONPatch(parsing: patchText)
    else { return 0 }

    invariant((try? JSONPatch(parsing: patch.serializedBytes())) == patch, "a patch changed through serialization")

    var document = original
    do {
        try patch.apply(to: &document)
    } catch {
        invariant(document == original, "a failed patch changed the document")
        return 0
    }
    invariant((try? patch.applied(to: original)) == document, "applying the same patch twice gave two results")

    var step = original
    for operation in patch.operations {
        let before = JSONByteCount.of(step)
        let delta = JSONByteCount.delta(of: operation, before: step)
        do {
            try JSONPatch(operations: [operation]).apply(to: &step)
        } catch {
            invariant(false, "an operation of a patch that applied whole failed alone: \(error)")
        }
        invariant(delta.map { before + $0 } == JSONByteCount.of(step), "JSONByteCount.delta was wrong for \(operation)")
    }
    invariant(step == document, "the operations one by one gave another document")

    let forward = JSONDiff.diff(from: original, to: document)
    invariant(
        (try? forward.applied(to: original)) == document, "diff(original, patched) does not apply to give patched")
    let backward = JSONDiff.diff(from: document, to: original)
    invariant(
        (try? backward.applied(to: document)) == original, "diff(patched, original) does not apply to give original")
    return 0
}
