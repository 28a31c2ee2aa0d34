import FeedCore
import Foundation
import TestSupport
import Testing

/// One feedweb as another's upstream: B subscribes to A's `/events` and must hold the same
/// document as A through every kind of change A sees, with A's ids (relay mode passes
/// them through), so a client resumes on any relay.
@Suite(.serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct StreamRelayTests {
    /// Waits until A has the upstream's document and B has it too, with the same items.
    static func converged(_ upstream: LiveFeedUpstream, a: UInt16, b: UInt16, _ step: String) async throws {
        try await FeedwebProbe.waitForState(upstream.document, port: a)
        do {
            try await FeedwebProbe.waitForState(upstream.document, port: b, within: 5)
        } catch {
            let bState = try? await FeedwebProbe.state(port: b)
            Issue.record("B did not converge after \(step): \(bState.map { $0.document.serializedString() } ?? "-")")
            throw error
        }
        #expect(try await FeedwebProbe.items(port: b) == FeedwebProbe.items(port: a), "\(step): same items, same keys")
    }

    @Test func relayConvergesThroughPatchesSnapshotsAndReconnects() async throws {
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        let a = try await FeedwebProcess(arguments: ["--upstream", upstream.url])
        defer { a.kill() }
        let b = try await FeedwebProcess(arguments: ["--upstream", "http://127.0.0.1:\(a.port)/events"])
        defer { b.kill() }
        try await FeedwebProbe.waitUntilReady(port: a.port)
        try await FeedwebProbe.waitUntilReady(port: b.port)
        try await Self.converged(upstream, a: a.port, b: b.port, "the first document")

        // Patches of every kind.
        for n in 0..<7 {
            try await upstream.scriptedChange(n)
            try await Self.converged(upstream, a: a.port, b: b.port, "change \(n)")
        }

        // A fresh snapshot on the same stream: a different set of stories.
        try await upstream.sendSnapshot(NewswireFeed.document(stories: [12, 11, 10, 4, 3], version: 40))
        try await Self.converged(upstream, a: a.port, b: b.port, "a fresh snapshot from A's upstream")

        // A's upstream drops the stream; on reconnect A gets yet another document.
        upstream.restartStreams(with: NewswireFeed.document(stories: [14, 13, 12, 11], version: 50))
        try await Self.converged(upstream, a: a.port, b: b.port, "A reconnecting to its upstream")

        // A burst of patches without waiting in between.
        for n in 20..<30 { try await upstream.scriptedChange(n) }
        try await Self.converged(upstream, a: a.port, b: b.port, "a burst of 10 patches")
        let aState = try await FeedwebProbe.state(port: a.port)
        let bState = try await FeedwebProbe.state(port: b.port)
        #expect(aState.document == bState.document)
        #expect(aState.id == bState.id, "B passes A's ids through")
        await upstream.shutdown()
    }

    /// The scale-out shape of docs/deploy.md: upstream → A → B → C, each a separate process
    /// subscribed to the previous one's `/events`. C must hold what upstream holds, through
    /// patches, a fresh snapshot and the middle link restarting.
    @Test func chainOfThreeConverges() async throws {
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        let a = try await FeedwebProcess(arguments: ["--upstream", upstream.url])
        defer { a.kill() }
        var b = try await FeedwebProcess(arguments: ["--upstream", "http://127.0.0.1:\(a.port)/events"])
        defer { b.kill() }
        let c = try await FeedwebProcess(arguments: [
            "--upstream", "http://127.0.0.1:\(b.port)/events", "--max-backoff", "1",
        ])
        defer { c.kill() }
        func converged(_ step: String) async throws {
            try await Self.converged(upstream, a: a.port, b: b.port, step)
            try await Self.converged(upstream, a: b.port, b: c.port, step + " (C behind B)")
        }
        for feedweb in [a, b, c] { try await FeedwebProbe.waitUntilReady(port: feedweb.port) }
        try await converged("the first document")
        for n in 0..<7 {
            try await upstream.scriptedChange(n)
        }
        try await converged("seven changes of every kind")
        try await upstream.sendSnapshot(NewswireFeed.document(stories: [22, 21, 20, 5], version: 60))
        try await converged("a fresh snapshot at the top of the chain")

        // The middle link restarts on the same port: C reconnects to a new epoch and gets a
        // fresh document in-band, then follows again.
        let bPort = b.port
        #expect(await b.stop()?.status == 0)
        b = try await FeedwebProcess(arguments: [
            "--upstream", "http://127.0.0.1:\(a.port)/events", "--listen", "127.0.0.1:\(bPort)",
        ])
        try await FeedwebProbe.waitUntilReady(port: b.port)
        try await upstream.scriptedChange(0)
        try await converged("B restarted, then another change")
        var ids: [String] = []
        for link in [a, b, c] { ids.append(try await FeedwebProbe.state(port: link.port).id) }
        #expect(Set(ids).count == 1, "every link hands out the root's ids: \(ids)")

        // A client of C resumes on B (as nginx might send it) with patches only.
        let head = try #require(EventID(parsing: ids[0]))
        let older = try #require(EventID(parsing: try await FeedwebProbe.state(port: c.port).id))
        try await upstream.scriptedChange(1)
        try await upstream.scriptedChange(2)
        try await converged("two more changes")
        let resumed = try await SSETestClient(port: b.port, headers: ["Last-Event-ID": older.description])
        let events = try await resumed.events(untilQuietFor: 1)
        #expect(!events.contains { $0.type == "data" }, "resumed with patches, not a snapshot")
        #expect(
            events.filter { $0.type == "patch" }.compactMap { EventID(parsing: $0.id)?.seq } == [
                head.seq + 1, head.seq + 2,
            ])
        await upstream.shutdown()
    }
}
