import FeedCore
import Foundation
import TestSupport
import Testing

/// Restarts through the real binary: after a clean shutdown (SIGTERM) with
/// `--state-file`, the ids go on — clients that resume with their last id get the next
/// patch and no fresh document; after a crash (SIGKILL) the ids start over in a new epoch,
/// so every resuming client gets a fresh `data`.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct RestartResumeTests {
    private let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("restart")
    }

    /// Streams on `/events` of `port` that resume after `lastID`, each checked to answer 200.
    private static func resume(_ count: Int, port: UInt16, after lastID: String) async throws -> [SSETestClient] {
        var clients: [SSETestClient] = []
        for _ in 0..<count {
            let client = try await SSETestClient(port: port, headers: ["Last-Event-ID": lastID])
            #expect(client.status == 200)
            clients.append(client)
        }
        return clients
    }

    /// The first `data` or `patch` event of `client` (skipping comments' neighbours such as
    /// `retry`-only blocks, which the parser does not dispatch).
    private static func firstChange(of client: SSETestClient) async throws -> SSEEvent {
        while true {
            let event = try await client.next(before: Date().addingTimeInterval(5))
            if event.type == "data" || event.type == "patch" { return event }
        }
    }

    @Test(
        "a clean restart keeps epoch and sequence: resuming clients get the next patch, no fresh data; after SIGKILL, fresh data"
    )
    func cleanRestartResumes() async throws {
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [3, 2, 1]))
        defer { Task { await upstream.shutdown() } }
        let statePath = scratch.file("state.json")
        let first = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--state-file", statePath])
        defer { first.kill() }
        let port = first.port
        try await FeedwebProbe.waitForState(upstream.document, port: port, within: 20)
        try await upstream.change([Patch.add("/results/0", NewswireFeed.story(4))])
        try await FeedwebProbe.waitForState(upstream.document, port: port)

        // Clients that have read everything so far. `/api/state` can show the change a
        // moment before the streams' own state has it, so a client that connects then gets
        // the document before it and the change as a patch: each reads up to the newest id.
        var clients: [SSETestClient] = []
        for _ in 0..<20 { clients.append(try await SSETestClient(port: port)) }
        var ids: [String] = []
        for client in clients {
            var event = try await client.expectNext("data")
            while (EventID(parsing: event.id)?.seq ?? 0) < 2 { event = try await Self.firstChange(of: client) }
            ids.append(event.id)
        }
        let lastID = try #require(ids.first)
        #expect(Set(ids).count == 1, "every client is at the same change: \(Set(ids))")
        let before = try #require(EventID(parsing: lastID), "an id of feedweb's own: \(lastID)")
        #expect(before.seq >= 2)

        #expect(await first.stop(signal: SIGTERM)?.status == 0)
        for client in clients { #expect(await client.waitForEnd(within: 3), "the stream ended cleanly") }
        let saved = try StateFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: statePath))))
        #expect(saved.clean && saved.epoch == before.epoch && saved.seq == before.seq, "\(saved)")

        // The same port again, the same state file: the ids go on.
        let arguments = ["--listen", "127.0.0.1:\(port)", "--upstream", upstream.url, "--state-file", statePath]
        let second = try await FeedwebProcess(arguments: arguments, listen: false)
        defer { second.kill() }
        try await Eventually.check("the log to say the ids go on") { second.log.contains("ids go on from \(before)") }
        let inUse = try StateFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: statePath))))
        #expect(!inUse.clean, "marked in use again before serving")
        try await FeedwebProbe.waitForState(upstream.document, port: port, within: 20)
        let resumed = try await Self.resume(20, port: port, after: lastID)
        try await upstream.change([Patch.add("/results/0", NewswireFeed.story(5))])
        var afterRestart = ""
        for client in resumed {
            let event = try await Self.firstChange(of: client)
            #expect(event.type == "patch", "no fresh document: \(event.type)")
            #expect(event.id == EventID(epoch: before.epoch, seq: before.seq + 1).description, "\(event.id)")
            afterRestart = event.id
        }
        for client in resumed { client.close() }

        // A crash: the file no longer says clean, so the ids start over.
        #expect(await second.stop(signal: SIGKILL) != nil)
        let third = try await FeedwebProcess(arguments: arguments, listen: false)
        defer { third.kill() }
        try await FeedwebProbe.waitForState(upstream.document, port: port, within: 20)
        for client in try await Self.resume(20, port: port, after: afterRestart) {
            let event = try await Self.firstChange(of: client)
            #expect(event.type == "data", "a fresh document after a crash: \(event.type)")
            let id = try #require(EventID(parsing: event.id))
            #expect(id.epoch != before.epoch, "a new epoch")
            client.close()
        }
        #expect(await third.stop()?.status == 0)
    }
}
