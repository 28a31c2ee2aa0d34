import FeedCore
import Foundation
import Logging
import TestSupport
import Testing

@Suite("State file", .onThreadsOfItsOwn)
struct StateFileTests {
    private let scratch: ScratchDirectory
    private var directory: String { scratch.path }

    init() throws {
        scratch = try ScratchDirectory("statefile")
    }

    private func document() throws -> JSONValue {
        try JSONValue(parsing: #"{"num_results":2,"results":[{"uri":"a","title":"Ä \"quoted\""},{"uri":"b"}]}"#)
    }

    @Test("saved and loaded: seq, time, source and document round-trip")
    func roundTrip() throws {
        let file = StateFile(path: directory + "/state.json")
        let savedAt = Date(timeIntervalSince1970: 1_700_000_000)
        try file.save(
            seq: 42, savedAt: savedAt, source: "poll https://example.com/x",
            encodedDocument: try document().serializedBytes())
        let contents = try #require(try file.load())
        #expect(
            contents
                == StateFile.Contents(
                    seq: 42, savedAt: savedAt, source: "poll https://example.com/x", document: try document()))
        let raw = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: file.path))))
        #expect(raw["format"] == .int(1))
        #expect(raw["saved_at"] == .string("2023-11-14T22:13:20Z"))
    }

    @Test("written atomically: no temporary file is left, the file is private, a second save replaces the first")
    func atomicReplace() throws {
        let file = StateFile(path: directory + "/state.json")
        try file.save(seq: 1, source: "s", encodedDocument: Array("[1]".utf8))
        try file.save(seq: 2, source: "s", encodedDocument: Array("[2]".utf8))
        #expect(try file.load()?.seq == 2)
        #expect(try file.load()?.document == .array([.int(2)]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a missing file is no state, not an error")
    func missing() throws {
        #expect(try StateFile(path: directory + "/nothing.json").load() == nil)
    }

    @Test(
        "corrupt, truncated, foreign and empty files are errors",
        arguments: [
            "", "{not json", #"{"format":1,"seq":3,"document":{"a":[1,2"#, #"{"format":2,"seq":3,"document":{}}"#,
            #"{"format":1,"document":{}}"#, #"{"format":1,"seq":-1,"document":{}}"#, #"{"format":1,"seq":1}"#, "[1,2]",
        ])
    func broken(text: String) throws {
        let path = directory + "/state.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StateFile.Failure.self) { try StateFile(path: path).load() }
    }

    @Test("every prefix of a valid file is rejected, never half-restored")
    func everyTruncation() throws {
        let bytes = StateFile.encode(
            seq: 7, savedAt: Date(), source: "s", encodedDocument: try document().serializedBytes())
        // The last byte is the newline; without it the file is still whole.
        for length in 0..<(bytes.count - 1) {
            #expect(throws: StateFile.Failure.self) { try StateFile.decode(Array(bytes[..<length])) }
        }
        #expect(try StateFile.decode(bytes).seq == 7)
    }

    @Test("a directory in place of the file is an error")
    func directoryInPlace() throws {
        try FileManager.default.createDirectory(atPath: directory + "/dir", withIntermediateDirectories: true)
        #expect(throws: StateFile.Failure.self) { try StateFile(path: directory + "/dir").load() }
    }

    @Test("writing into a missing directory fails without crashing")
    func unwritable() throws {
        let file = StateFile(path: directory + "/missing/state.json")
        #expect(throws: StateFile.Failure.self) { try file.save(seq: 1, source: "s", encodedDocument: Array("1".utf8)) }
    }
}

@Suite("State file writer")
struct StateFileWriterTests {
    private let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    private let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("writer")
    }

    private func makeFile() throws -> StateFile {
        StateFile(path: scratch.file("state.json"))
    }

    @Test("changes coalesce: at most one write per interval, and a flush writes the last state")
    func coalesces() async throws {
        let file = try makeFile()
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        let writer = StateFileWriter(
            file: file, store: store, source: "s", savedSeq: nil, logger: logger, minimumInterval: .milliseconds(300))
        store.observe { _ in writer.changed() }
        let task = Task { await writer.run() }
        let clock = ContinuousClock()
        let start = clock.now
        var n = 0
        while clock.now - start < .milliseconds(900) {
            n += 1
            store.replaceDocument(.object(["items": .array([.int(Int64(n))])]))
            try await Task.sleep(for: .milliseconds(10))
        }
        let elapsed = clock.now - start
        task.cancel()
        await task.value
        // However slowly this machine runs the loop, writes stay one per interval at most.
        let most = Int(elapsed / .milliseconds(300)) + 2
        #expect(writer.writes >= 1, "changes were written while they came")
        #expect(writer.writes <= most, "\(writer.writes) writes for \(n) changes in \(elapsed)")
        #expect(writer.flush())
        let contents = try #require(try file.load())
        #expect(contents.seq == UInt64(n))
        #expect(contents.document == .object(["items": .array([.int(Int64(n))])]))
        let writes = writer.writes
        #expect(writer.flush())
        #expect(writer.writes == writes, "nothing changed, nothing written")
    }

    @Test("a change is written soon, without waiting for a flush")
    func writesSoon() async throws {
        let file = try makeFile()
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        let writer = StateFileWriter(file: file, store: store, source: "s", savedSeq: nil, logger: logger)
        store.observe { _ in writer.changed() }
        let task = Task { await writer.run() }
        defer { task.cancel() }
        store.replaceDocument(.array([.int(1)]))
        try await Eventually.check("change 1 in the file") { try file.load()?.seq == 1 }
        store.replaceDocument(.array([.int(2)]))
        try await Eventually.check("change 2 in the file, after the interval") { try file.load()?.seq == 2 }
        #expect(try file.load()?.document == .array([.int(2)]))
    }

    @Test("a restored sequence is not written again until something changes")
    func restoredNotRewritten() throws {
        let file = try makeFile()
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        store.restore(document: .array([]), seq: 5)
        let writer = StateFileWriter(file: file, store: store, source: "s", savedSeq: 5, logger: logger)
        #expect(writer.flush())
        #expect(writer.writes == 0)
        store.replaceDocument(.array([.int(1)]))
        #expect(writer.flush())
        #expect(writer.writes == 1)
        #expect(try file.load()?.seq == 6)
    }

    @Test("a failing write is reported by flush and retried later")
    func failingWrite() throws {
        // A directory that does not exist yet: the first write fails.
        let directory = scratch.file("later")
        let file = StateFile(path: directory + "/state.json")
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        store.replaceDocument(.array([]))
        let writer = StateFileWriter(file: file, store: store, source: "s", savedSeq: nil, logger: logger)
        #expect(!writer.flush())
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(writer.flush())
        #expect(try file.load()?.seq == 1)
    }
}
