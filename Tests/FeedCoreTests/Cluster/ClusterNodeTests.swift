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
@Suite("Cluster node against a fake log", .serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct ClusterNodeTests {
    /// A node with its own store, running until ``stop()`` on threads of its own (its
    /// lease and heartbeats keep their times however busy the suite keeps Swift's pool).
    final class Node: Sendable {
        let name: String
        let store: FeedStore
        let node: ClusterNode
        private let task: Task<Void, Never>
        private let executor: DedicatedTaskExecutor

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
            let executor = DedicatedTaskExecutor(threads: 2, name: "cluster-node-\(name)")
            self.executor = executor
            task = Task(executorPreference: executor) { await node.run() }
        }

        var isLeader: Bool { node.clusterStatus.role == .leader }
        var id: EventID? { store.snapshot?.id }

        /// Stops the node as SIGTERM would (its sessions closed).
        func stop() async {
            task.cancel()
            await task.value
            executor.shutdown()
        }
    }

    /// Nodes on one fake log and one fake feed: what every test here starts from.
    struct Cluster: Sendable {
        let log = FakeClusterLog()
        let feed = FakeFeed()
        var nodes: [Node] = []

        /// Starts a node for each of `names`.
        init(_ names: [String], history: Int = 100, checkpointInterval: Int? = nil) {
            nodes = names.map { start($0, history: history, checkpointInterval: checkpointInterval) }
        }

        /// A node on this log and feed, started (not added to ``nodes``).
        func start(_ name: String, history: Int = 100, checkpointInterval: Int? = nil) -> Node {
            Node(name, log: log, feed: feed, history: history, checkpointInterval: checkpointInterval)
        }

        /// The one leader among ``nodes``, once there is exactly one and its upstream
        /// connection is open.
        @discardableResult
        func leader(within seconds: Double = 10) async throws -> Node {
            try await Eventually.value("one leader, subscribed upstream", within: seconds) { () -> Node? in
                let leaders = nodes.filter(\.isLeader)
                guard leaders.count == 1, feed.openConnections == 1, feed.connections.last?.node == leaders[0].name
                else { return nil }
                return leaders[0]
            }
        }

        /// Pushes `count` items upstream, then waits until every node has them (``converged()``).
        func push(_ count: Int) async throws {
            for _ in 0..<count { feed.push() }
            try await converged()
        }

        /// Waits until every node publishes the newest item of the feed at the same id,
        /// then checks they hold the same bytes.
        func converged(within seconds: Double = 10) async throws {
            let newest = JSONValue.int(Int64(feed.itemCount))
            try await Eventually.check("every node at item \(feed.itemCount) with the same id", within: seconds) {
                let ids = Set(nodes.map(\.id))
                let newestItems = nodes.map { $0.store.snapshot?.document["items"]?.arrayValue?.first?["n"] }
                return ids.count == 1 && newestItems.allSatisfy { $0 == newest }
            }
            let documents = Set(nodes.map { $0.store.snapshot?.encodedDocument ?? [] })
            #expect(documents.count == 1, "the same bytes on every node")
        }

        /// Every item of the feed is in every node's document exactly once, newest first.
        func holdEveryItemOnce() {
            let expected = Array((1...Int64(max(1, feed.itemCount))).reversed().prefix(feed.keep))
            for node in nodes {
                let numbers =
                    node.store.snapshot?.document["items"]?.arrayValue?.compactMap { $0["n"]?.int64Value } ?? []
                #expect(numbers == expected, "\(node.name): no item lost, none twice")
            }
        }

        /// The rows of the log's current epoch are numbered 1, 2, … without a gap or a
        /// duplicate.
        func rowsWithoutGaps() throws {
            let epoch = try #require(log.meta?.epoch)
            let seqs = log.rows(epoch: epoch).map(\.seq)
            #expect(seqs == Array(1...UInt64(seqs.count)), "no gap, no duplicate")
        }

        /// Stops every node as SIGTERM would.
        func stop() async {
            for node in nodes { await node.stop() }
        }
    }

    @Test("one leader subscribes upstream; every node publishes the same ids and bytes, patch for patch")
    func sameIDsAndBytes() async throws {
        let cluster = Cluster(["a", "b", "c"])
        try await cluster.leader()
        try await cluster.push(30)
        cluster.holdEveryItemOnce()
        #expect(cluster.feed.mostOpenConnections == 1, "exactly one upstream connection")
        // The histories: each change's bytes, the same everywhere, from the first change
        // every node holds as a patch (a node that started over from a checkpoint, as one
        // behind on a busy machine may, holds the patches after it only: LogFollower), over at
        // least the last 20 of the 30 pushed.
        let head = try #require(cluster.nodes[0].id)
        func histories(after seq: UInt64) -> [[[UInt8]]]? {
            var histories: [[[UInt8]]] = []
            for node in cluster.nodes {
                guard
                    case .patches(let entries) = node.store.resume(
                        after: EventID(epoch: head.epoch, seq: seq), through: head.seq)
                else { return nil }
                histories.append(entries.map(\.encodedPatch))
            }
            return histories
        }
        let compared = (2...head.seq).lazy.compactMap { seq in histories(after: seq).map { (seq, $0) } }.first
        let (from, found) = try #require(compared, "no change after which every node holds the patches")
        #expect(head.seq - from >= 20, "every node holds the patches after \(from) only, of \(head.seq)")
        #expect(
            found.count == 3 && Set(found.map { $0.map { String(decoding: $0, as: UTF8.self) } }).count == 1)
        #expect(cluster.log.rows(epoch: head.epoch).map(\.seq) == Array(1...head.seq), "rows without gaps")
        await cluster.stop()
    }

    @Test("a killed leader is replaced; the sequence goes on without a gap; upstream resumes after the last row")
    func killedLeader() async throws {
        var cluster = Cluster(["a", "b", "c"])
        let feed = cluster.feed
        let first = try await cluster.leader()
        try await cluster.push(10)
        let termBefore = try #require(cluster.log.meta?.term)
        let lastRow = try #require(cluster.log.meta?.upstreamPosition)

        // Killed: its sessions end at once (the lock is released) and it does nothing more.
        cluster.log.endSessions(of: first.name)
        await first.stop()
        cluster.nodes.removeAll { $0 === first }
        let started = ContinuousClock.now
        let second = try await cluster.leader(within: 5)
        #expect(ContinuousClock.now - started < .seconds(5), "replaced within 5 s")
        #expect(try #require(cluster.log.meta?.term) > termBefore)
        try await Eventually.check("the new leader's upstream connection") {
            feed.connections.last?.node == second.name
        }
        #expect(feed.connections.last?.resumedFrom == lastRow, "resumed after the last row in the log")
        try await cluster.push(10)
        cluster.holdEveryItemOnce()
        try cluster.rowsWithoutGaps()
        await cluster.stop()
    }

    @Test("a stopped leader is ended by the heartbeat lease; when it runs again its writes are refused")
    func hungLeader() async throws {
        let cluster = Cluster(["a", "b"])
        let (log, feed) = (cluster.log, cluster.feed)
        let first = try await cluster.leader()
        try await cluster.push(5)
        let hungTerm = try #require(log.meta?.term)

        log.freeze(first.name)
        let started = ContinuousClock.now
        let second = try await Eventually.value("another leader", within: 10) { () -> Node? in
            (log.meta?.term ?? 0) > hungTerm ? cluster.nodes.first { $0.name == log.meta?.leaderNode } : nil
        }
        #expect(second !== first)
        #expect(ContinuousClock.now - started < .seconds(10), "replaced within 10 s")
        for _ in 0..<5 { feed.push() }
        // The stopped node still has its upstream open: whatever it read is not in the log.
        log.thaw(first.name)
        try await Eventually.check("the old leader to step down") { !first.isLeader }
        try await Eventually.check("one upstream connection again") { feed.openConnections == 1 }
        try await cluster.converged()
        cluster.holdEveryItemOnce()
        try cluster.rowsWithoutGaps()
        await cluster.stop()
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
        let cluster = Cluster(["a", "b"])
        try await cluster.leader()
        try await cluster.push(5)
        let oldEpoch = try #require(cluster.nodes[0].id?.epoch)
        cluster.log.wipe()
        try await Eventually.check("every node on a new epoch", within: 15) {
            let epochs = Set(cluster.nodes.map { $0.id?.epoch })
            return epochs.count == 1 && epochs.first != oldEpoch && epochs.first != nil
        }
        let epoch = try #require(cluster.log.meta?.epoch)
        #expect(cluster.log.rows(epoch: epoch).first?.kind == .data, "the new epoch starts with a document")
        try await cluster.leader()
        try await cluster.push(3)
        cluster.holdEveryItemOnce()
        await cluster.stop()
    }

    @Test("the log rewound behind what was published: the leader starts a new epoch")
    func rewoundLog() async throws {
        let cluster = Cluster(["a", "b"])
        try await cluster.leader()
        try await cluster.push(8)
        let oldEpoch = try #require(cluster.nodes[0].id?.epoch)
        let head = try #require(cluster.log.meta?.headSeq)
        cluster.log.rewind(to: head - 3)
        cluster.feed.push()  // the leader's next append meets the rewound head (and is lost with it)
        try await Eventually.check("every node on a new epoch") {
            let epochs = Set(cluster.nodes.map { $0.id?.epoch })
            return epochs.count == 1 && epochs.first != oldEpoch && epochs.first != nil
        }
        let epoch = try #require(cluster.log.meta?.epoch)
        #expect(cluster.log.rows(epoch: epoch).first?.kind == .data, "a fresh document, never a partial replay")
        try await cluster.leader()
        try await cluster.push(1)
        await cluster.stop()
    }

    @Test("a reader's session ended again and again while changes flow: no gap")
    func readerSessionsEnded() async throws {
        let cluster = Cluster(["a", "b"])
        try await cluster.leader()
        for round in 0..<10 {
            for _ in 0..<5 { cluster.feed.push() }
            if round % 2 == 0 { cluster.log.endReaders() }
            try await Task.sleep(for: .milliseconds(30))
        }
        try await cluster.converged()
        cluster.holdEveryItemOnce()
        await cluster.stop()
    }

    @Test("checkpoints and retention: the log keeps the history; a new node starts from a checkpoint with it")
    func checkpoints() async throws {
        var cluster = Cluster(["a"], history: 10, checkpointInterval: 5)
        let log = cluster.log
        try await cluster.leader()
        for _ in 0..<40 {
            cluster.feed.push()
            try await Task.sleep(for: .milliseconds(30))
        }
        try await cluster.converged()
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

        let late = cluster.start("d", history: 10, checkpointInterval: 5)
        cluster.nodes.append(late)
        try await cluster.converged()
        #expect(late.store.historyUsage.count >= 5, "the newcomer can resume recent clients")
        if case .needsSnapshot = late.store.resume(after: EventID(epoch: epoch, seq: head - 3), through: head) {
            Issue.record("a client 3 changes behind resumes on the new node")
        }
        await cluster.stop()
    }

    @Test("a node starting before any checkpoint is old enough replays from the first row: it holds every change")
    func startsFromTheFirstRowOfAYoungEpoch() async throws {
        var cluster = Cluster(["a"], history: 100, checkpointInterval: 5)
        let log = cluster.log
        try await cluster.leader()
        try await cluster.push(12)
        let epoch = try #require(log.meta?.epoch)
        let head = try #require(log.meta?.headSeq)
        try await Eventually.check("a checkpoint written") { !log.checkpointSeqs(epoch: epoch).isEmpty }
        // As if the leader's first heartbeat, which writes the first checkpoint, had come
        // only at the newest one (a heartbeat may have come during the pushes, so that one
        // may be before the head): the log's only checkpoint is past what a node starting
        // now needs, the first row.
        let newest = try #require(log.checkpointSeqs(epoch: epoch).last)
        log.dropCheckpoints(epoch: epoch, before: newest)
        #expect(log.checkpointSeqs(epoch: epoch) == [newest])
        #expect(newest > 1 && newest <= head && log.rows(epoch: epoch).first?.seq == 1)

        let late = cluster.start("d", history: 100, checkpointInterval: 5)
        cluster.nodes.append(late)
        try await cluster.converged()
        guard case .patches(let patches) = late.store.resume(after: EventID(epoch: epoch, seq: 1), through: head)
        else {
            Issue.record("a client that saw the first change resumes on the new node with patches")
            await cluster.stop()
            return
        }
        #expect(patches.map(\.seq) == Array(2...head))
        await cluster.stop()
    }

    @Test("the database down: nodes keep their state and say so; back: one leader, upstream resumed, caught up")
    func databaseDown() async throws {
        let cluster = Cluster(["a", "b"])
        let nodes = cluster.nodes
        try await cluster.leader()
        try await cluster.push(5)
        try await Eventually.check("live everywhere") { nodes.allSatisfy { $0.node.status.isConnected } }
        let before = nodes.map(\.id)

        cluster.log.setDown(true)
        try await Eventually.check("no node live, no leader") {
            nodes.allSatisfy { !$0.node.status.isConnected && !$0.isLeader }
        }
        try await Eventually.check("no upstream connection") { cluster.feed.openConnections == 0 }
        #expect(nodes.map(\.id) == before, "the state is kept")
        for _ in 0..<5 { cluster.feed.push() }  // upstream goes on meanwhile

        cluster.log.setDown(false)
        try await cluster.leader()
        try await cluster.converged()
        cluster.holdEveryItemOnce()
        try await Eventually.check("live again") { nodes.allSatisfy { $0.node.status.isConnected } }
        #expect(cluster.feed.mostOpenConnections == 1)
        await cluster.stop()
    }

    @Test("a whole cluster restarted keeps its epoch; clients resume across the restart")
    func fullRestart() async throws {
        var cluster = Cluster(["a", "b"])
        try await cluster.leader()
        try await cluster.push(6)
        let id = try #require(cluster.nodes[0].id)
        await cluster.stop()
        cluster.nodes = [cluster.start("a2"), cluster.start("b2")]
        try await cluster.converged()
        #expect(cluster.nodes[0].id == id, "the same epoch and head")
        try await cluster.push(2)
        guard case .patches(let entries) = cluster.nodes[1].store.resume(after: id, through: id.seq + 2) else {
            Issue.record("a client of the old cluster resumes with patches")
            await cluster.stop()
            return
        }
        #expect(entries.count == 2)
        await cluster.stop()
    }
}
