import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// ``ClusterNode``'s leader and follower logic against the in-process ``FakeClusterLog``
/// (PostgreSQL's guarantees, plus killed, stopped and lost sessions) and a ``FakeFeed``
/// upstream: one leader at a time, the same ids and bytes on every node, takeovers that
/// resume upstream after the log's last change, a fence that holds, new epochs only when
/// the log was lost. Timings are short (a 1 s lease); every wait is bounded.
@Suite("Cluster node against a fake log", .serialized, .timeLimit(.minutes(3)))
struct ClusterNodeTests {
    /// A node with its own store, running until ``stop()``.
    final class Node: Sendable {
        let name: String
        let store: FeedStore
        let node: ClusterNode
        private let task: Task<Void, Never>

        init(_ name: String, log: FakeClusterLog, feed: FakeFeed, history: Int = 100, checkpointInterval: Int? = nil) {
            self.name = name
            let store = FeedStore(configuration: .init(profile: .generic, historyCount: history))
            self.store = store
            var configuration = ClusterNode.Configuration(node: name, history: history)
            configuration.leaseTimeout = .seconds(1)
            configuration.heartbeatInterval = .milliseconds(100)
            configuration.campaignInterval = .milliseconds(50)
            configuration.pollInterval = .milliseconds(200)
            configuration.retryInterval = .milliseconds(20)
            configuration.maxBackoff = .milliseconds(200)
            configuration.checkpointInterval = checkpointInterval
            var logger = Logger(label: "cluster-test-\(name)")
            logger.logLevel = .critical
            let node = ClusterNode(
                configuration: configuration, store: store, log: log, source: "fake", logger: logger
            ) { upstreamStore in
                feed.upstream(node: name, store: upstreamStore)
            }
            self.node = node
            task = Task { await node.run() }
        }

        var isLeader: Bool { node.clusterStatus.role == .leader }
        var id: EventID? { store.snapshot?.id }

        /// Stops the node as SIGTERM would (its sessions closed).
        func stop() async {
            task.cancel()
            await task.value
        }
    }

    /// The one leader among `nodes`, once there is exactly one and its upstream
    /// connection is open.
    static func leader(of nodes: [Node], feed: FakeFeed, within seconds: Double = 10) async throws -> Node {
        try await Eventually.value("one leader, subscribed upstream", within: seconds) { () -> Node? in
            let leaders = nodes.filter(\.isLeader)
            guard leaders.count == 1, feed.openConnections == 1, feed.connections.last?.node == leaders[0].name
            else { return nil }
            return leaders[0]
        }
    }

    /// Waits until every node publishes the newest item of `feed` at the same id, then
    /// checks they hold the same bytes.
    static func converged(_ nodes: [Node], feed: FakeFeed, within seconds: Double = 10) async throws {
        let newest = JSONValue.int(Int64(feed.itemCount))
        try await Eventually.check("every node at item \(feed.itemCount) with the same id", within: seconds) {
            let ids = Set(nodes.map(\.id))
            let newestItems = nodes.map { $0.store.snapshot?.document["items"]?.arrayValue?.first?["n"] }
            return ids.count == 1 && newestItems.allSatisfy { $0 == newest }
        }
        let documents = Set(nodes.map { $0.store.snapshot?.encodedDocument ?? [] })
        #expect(documents.count == 1, "the same bytes on every node")
    }

    /// Every item of `feed` is in `node`'s document exactly once, newest first.
    static func holdsEveryItemOnce(_ node: Node, feed: FakeFeed) {
        let numbers = node.store.snapshot?.document["items"]?.arrayValue?.compactMap { $0["n"]?.int64Value } ?? []
        let expected = (1...Int64(max(1, feed.itemCount))).reversed().prefix(feed.keep)
        #expect(numbers == Array(expected), "\(node.name): no item lost, none twice")
    }

    @Test("one leader subscribes upstream; every node publishes the same ids and bytes, patch for patch")
    func sameIDsAndBytes() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        let nodes = [Node("a", log: log, feed: feed), Node("b", log: log, feed: feed), Node("c", log: log, feed: feed)]
        _ = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<30 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        for node in nodes { Self.holdsEveryItemOnce(node, feed: feed) }
        #expect(feed.mostOpenConnections == 1, "exactly one upstream connection")
        // The histories: each change's bytes, the same everywhere.
        let head = try #require(nodes[0].id)
        var histories: [[[UInt8]]] = []
        for node in nodes {
            guard
                case .patches(let entries) = node.store.resume(
                    after: EventID(epoch: head.epoch, seq: 2), through: head.seq)
            else {
                Issue.record("\(node.name) has no history from 2")
                continue
            }
            histories.append(entries.map(\.encodedPatch))
        }
        #expect(
            histories.count == 3 && Set(histories.map { $0.map { String(decoding: $0, as: UTF8.self) } }).count == 1)
        #expect(log.rows(epoch: head.epoch).map(\.seq) == Array(1...head.seq), "rows without gaps")
        for node in nodes { await node.stop() }
    }

    @Test("a killed leader is replaced; the sequence goes on without a gap; upstream resumes after the last row")
    func killedLeader() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        var nodes = [Node("a", log: log, feed: feed), Node("b", log: log, feed: feed), Node("c", log: log, feed: feed)]
        let first = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<10 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        let termBefore = try #require(log.meta?.term)
        let lastRow = try #require(log.meta?.upstreamPosition)

        // Killed: its sessions end at once (the lock is released) and it does nothing more.
        log.endSessions(of: first.name)
        await first.stop()
        nodes.removeAll { $0 === first }
        let started = ContinuousClock.now
        let second = try await Self.leader(of: nodes, feed: feed, within: 5)
        #expect(ContinuousClock.now - started < .seconds(5), "replaced within 5 s")
        #expect(try #require(log.meta?.term) > termBefore)
        try await Eventually.check("the new leader's upstream connection") {
            feed.connections.last?.node == second.name
        }
        #expect(feed.connections.last?.resumedFrom == lastRow, "resumed after the last row in the log")
        for _ in 0..<10 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        for node in nodes { Self.holdsEveryItemOnce(node, feed: feed) }
        let epoch = try #require(log.meta?.epoch)
        let seqs = log.rows(epoch: epoch).map(\.seq)
        #expect(seqs == Array(1...UInt64(seqs.count)), "no gap, no duplicate")
        for node in nodes { await node.stop() }
    }

    @Test("a stopped leader is ended by the heartbeat lease; when it runs again its writes are refused")
    func hungLeader() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        let nodes = [Node("a", log: log, feed: feed), Node("b", log: log, feed: feed)]
        let first = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<5 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        let hungTerm = try #require(log.meta?.term)

        log.freeze(first.name)
        let started = ContinuousClock.now
        let second = try await Eventually.value("another leader", within: 10) { () -> Node? in
            (log.meta?.term ?? 0) > hungTerm ? nodes.first { $0.name == log.meta?.leaderNode } : nil
        }
        #expect(second !== first)
        #expect(ContinuousClock.now - started < .seconds(10), "replaced within 10 s")
        for _ in 0..<5 { feed.push() }
        // The stopped node still has its upstream open: whatever it read is not in the log.
        log.thaw(first.name)
        try await Eventually.check("the old leader to step down") { !first.isLeader }
        try await Eventually.check("one upstream connection again") { feed.openConnections == 1 }
        try await Self.converged(nodes, feed: feed)
        for node in nodes { Self.holdsEveryItemOnce(node, feed: feed) }
        let epoch = try #require(log.meta?.epoch)
        let seqs = log.rows(epoch: epoch).map(\.seq)
        #expect(seqs == Array(1...UInt64(seqs.count)))
        for node in nodes { await node.stop() }
    }

    @Test("an append or heartbeat of an older term, or after the head moved, is refused and writes nothing")
    func fence() async throws {
        let log = FakeClusterLog()
        let one = try await log.connectLeader(node: "one")
        let lease = try #require(try await one.acquire(node: "one"))
        try await one.append([ClusterLogEntry(seq: 1, kind: .data, body: Array("{}".utf8))], lease: lease)
        await one.close()
        let two = try await log.connectLeader(node: "two")
        let newer = try #require(try await two.acquire(node: "two"))
        #expect(newer.term == lease.term + 1 && newer.headSeq == 1)
        // The old leader, back with a session of its own, still holding its old lease.
        let late = try await log.connectLeader(node: "one")
        await #expect(throws: ClusterLogError.fenced) {
            try await late.append([ClusterLogEntry(seq: 2, kind: .patch, body: Array("[]".utf8))], lease: lease)
        }
        await #expect(throws: ClusterLogError.fenced) { try await late.heartbeat(lease: lease, upstream: "open") }
        // The right term but a stale head.
        var stale = newer
        stale.headSeq = 0
        await #expect(throws: ClusterLogError.fenced) {
            try await two.append([ClusterLogEntry(seq: 1, kind: .data, body: Array("{}".utf8))], lease: stale)
        }
        #expect(log.rows(epoch: newer.epoch).map(\.seq) == [1])
        #expect(try await late.acquire(node: "one") == nil, "the lock is held")
    }

    @Test("the log wiped: a new epoch, started from the leader's last document; every node starts over")
    func wipedLog() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        let nodes = [Node("a", log: log, feed: feed), Node("b", log: log, feed: feed)]
        _ = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<5 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        let oldEpoch = try #require(nodes[0].id?.epoch)
        log.wipe()
        try await Eventually.check("every node on a new epoch", within: 15) {
            let epochs = Set(nodes.map { $0.id?.epoch })
            return epochs.count == 1 && epochs.first != oldEpoch && epochs.first != nil
        }
        let epoch = try #require(log.meta?.epoch)
        #expect(log.rows(epoch: epoch).first?.kind == .data, "the new epoch starts with a document")
        _ = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<3 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        for node in nodes { Self.holdsEveryItemOnce(node, feed: feed) }
        for node in nodes { await node.stop() }
    }

    @Test("the log rewound behind what was published: the leader starts a new epoch")
    func rewoundLog() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        let nodes = [Node("a", log: log, feed: feed), Node("b", log: log, feed: feed)]
        _ = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<8 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        let oldEpoch = try #require(nodes[0].id?.epoch)
        let head = try #require(log.meta?.headSeq)
        log.rewind(to: head - 3)
        feed.push()  // the leader's next append meets the rewound head (and is lost with it)
        try await Eventually.check("every node on a new epoch") {
            let epochs = Set(nodes.map { $0.id?.epoch })
            return epochs.count == 1 && epochs.first != oldEpoch && epochs.first != nil
        }
        let epoch = try #require(log.meta?.epoch)
        #expect(log.rows(epoch: epoch).first?.kind == .data, "a fresh document, never a partial replay")
        _ = try await Self.leader(of: nodes, feed: feed)
        feed.push()
        try await Self.converged(nodes, feed: feed)
        for node in nodes { await node.stop() }
    }

    @Test("a reader's session ended again and again while changes flow: no gap")
    func readerSessionsEnded() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        let nodes = [Node("a", log: log, feed: feed), Node("b", log: log, feed: feed)]
        _ = try await Self.leader(of: nodes, feed: feed)
        for round in 0..<10 {
            for _ in 0..<5 { feed.push() }
            if round % 2 == 0 { log.endReaders() }
            try await Task.sleep(for: .milliseconds(30))
        }
        try await Self.converged(nodes, feed: feed)
        for node in nodes { Self.holdsEveryItemOnce(node, feed: feed) }
        for node in nodes { await node.stop() }
    }

    @Test("checkpoints and retention: the log keeps the history; a new node starts from a checkpoint with it")
    func checkpoints() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        var nodes = [Node("a", log: log, feed: feed, history: 10, checkpointInterval: 5)]
        _ = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<40 {
            feed.push()
            try await Task.sleep(for: .milliseconds(30))
        }
        try await Self.converged(nodes, feed: feed)
        let epoch = try #require(log.meta?.epoch)
        try await Eventually.check("the log trimmed") {
            (log.rows(epoch: epoch).first?.seq ?? 0) > 1 && !log.checkpointSeqs(epoch: epoch).isEmpty
        }
        let head = try #require(log.meta?.headSeq)
        let rows = log.rows(epoch: epoch)
        // The history, the interval, and what arrives between two heartbeats (which write the
        // checkpoints): far from all 40.
        #expect(rows.count <= 25, "\(rows.count) rows kept")
        #expect(rows.map(\.seq) == Array(rows[0].seq...head))

        let late = Node("d", log: log, feed: feed, history: 10, checkpointInterval: 5)
        nodes.append(late)
        try await Self.converged(nodes, feed: feed)
        #expect(late.store.historyUsage.count >= 5, "the newcomer can resume recent clients")
        if case .needsSnapshot = late.store.resume(after: EventID(epoch: epoch, seq: head - 3), through: head) {
            Issue.record("a client 3 changes behind resumes on the new node")
        }
        for node in nodes { await node.stop() }
    }

    @Test("the database down: nodes keep their state and say so; back: one leader, upstream resumed, caught up")
    func databaseDown() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        let nodes = [Node("a", log: log, feed: feed), Node("b", log: log, feed: feed)]
        _ = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<5 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        try await Eventually.check("live everywhere") { nodes.allSatisfy { $0.node.status.isConnected } }
        let before = nodes.map(\.id)

        log.setDown(true)
        try await Eventually.check("no node live, no leader") {
            nodes.allSatisfy { !$0.node.status.isConnected && !$0.isLeader }
        }
        try await Eventually.check("no upstream connection") { feed.openConnections == 0 }
        #expect(nodes.map(\.id) == before, "the state is kept")
        for _ in 0..<5 { feed.push() }  // upstream goes on meanwhile

        log.setDown(false)
        _ = try await Self.leader(of: nodes, feed: feed)
        try await Self.converged(nodes, feed: feed)
        for node in nodes { Self.holdsEveryItemOnce(node, feed: feed) }
        try await Eventually.check("live again") { nodes.allSatisfy { $0.node.status.isConnected } }
        #expect(feed.mostOpenConnections == 1)
        for node in nodes { await node.stop() }
    }

    @Test("a whole cluster restarted keeps its epoch; clients resume across the restart")
    func fullRestart() async throws {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        var nodes = [Node("a", log: log, feed: feed), Node("b", log: log, feed: feed)]
        _ = try await Self.leader(of: nodes, feed: feed)
        for _ in 0..<6 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        let id = try #require(nodes[0].id)
        for node in nodes { await node.stop() }
        nodes = [Node("a2", log: log, feed: feed), Node("b2", log: log, feed: feed)]
        try await Self.converged(nodes, feed: feed)
        #expect(nodes[0].id == id, "the same epoch and head")
        for _ in 0..<2 { feed.push() }
        try await Self.converged(nodes, feed: feed)
        guard case .patches(let entries) = nodes[1].store.resume(after: id, through: id.seq + 2) else {
            Issue.record("a client of the old cluster resumes with patches")
            return
        }
        #expect(entries.count == 2)
        for node in nodes { await node.stop() }
    }
}
