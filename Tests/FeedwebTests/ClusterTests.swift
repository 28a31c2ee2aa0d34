import FeedCore
import Foundation
import Glibc
import TestSupport
import Testing

/// `--cluster` through the real binary: a PostgreSQL of the test's own, a live upstream,
/// three feedweb processes. Every wait is bounded; no fixed port; every process is ended
/// by PID.
@Suite("Cluster on PostgreSQL", .serialized, .timeLimit(.minutes(4)), .onThreadsOfItsOwn)
struct ClusterTests {
    /// The `patch` events of `client` until `count` have come (at most `seconds`).
    static func patches(_ client: SSETestClient, count: Int, within seconds: Double = 10) async throws -> [SSEEvent] {
        var events: [SSEEvent] = []
        let deadline = Date().addingTimeInterval(seconds)
        while events.count < count {
            let event = try await client.next(before: deadline)
            if event.type == "patch" { events.append(event) }
        }
        return events
    }

    @Test("every node sends the same ids and bytes, answers ?at= alike; a client resumes on another node; one upstream")
    func identicalStreams() async throws {
        let cluster = try await FeedwebCluster()
        defer { Task { await cluster.shutdown() } }
        _ = try await cluster.leader()
        try await cluster.converged()
        var clients: [SSETestClient] = []
        for node in cluster.nodes {
            let client = try await SSETestClient(port: node.port)
            _ = try await client.next(type: "data", within: 5)
            clients.append(client)
        }
        for n in 0..<10 { try await cluster.upstream.scriptedChange(n) }
        let streams = try await withThrowingTaskGroup(of: [SSEEvent].self) { group in
            for client in clients { group.addTask { try await Self.patches(client, count: 9) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // scriptedChange 6 (no version bump) changes the mirror too: 10 patches; 9 is enough.
        let first = streams[0].map { "\($0.id)\n\($0.data)" }
        for stream in streams.dropFirst() {
            #expect(stream.map { "\($0.id)\n\($0.data)" } == first, "the same ids and bytes on every node")
        }
        let ids = streams[0].compactMap { EventID(parsing: $0.id) }
        #expect(ids.count == 9 && zip(ids, ids.dropFirst()).allSatisfy { $0.seq + 1 == $1.seq })
        #expect(cluster.openUpstreamConnections == 1, "exactly one node subscribed upstream")

        // Resume on another node with an id from this one: only the missed patches.
        let head = try await cluster.converged()
        let older = ids[3]
        let resumed = try await SSETestClient(
            port: cluster.nodes[2].port, headers: ["Last-Event-ID": older.description])
        let events = try await resumed.events(untilQuietFor: 1)
        #expect(!events.contains { $0.type == "data" }, "no snapshot for a resuming client")
        #expect(
            events.filter { $0.type == "patch" }.compactMap { EventID(parsing: $0.id)?.seq }
                == Array((older.seq + 1)...head.seq))
        let readiness = try await FeedwebProbe.readiness(port: cluster.nodes[1].port).body
        #expect(readiness["cluster"]?["head"]?.int64Value == Int64(head.seq))
        #expect(["leader", "follower"].contains(readiness["cluster"]?["role"]?.stringValue ?? ""))

        // The past: every node answers ?at= an id, and ?at= that id's time, with the same bytes.
        for id in ids {
            var answers: [(body: [UInt8], id: String?, time: String?)] = []
            for node in cluster.nodes {
                let response = try await HTTPTestClient.get(port: node.port, "/api/state?at=\(id)")
                #expect(response.status == 200, "node \(node.port) ?at=\(id)")
                answers.append(
                    (response.body, response.headers["x-feedweb-event-id"], response.headers["x-feedweb-event-time"]))
            }
            #expect(answers.allSatisfy { $0.body == answers[0].body && $0.time == answers[0].time }, "?at=\(id)")
            let time = try #require(answers[0].time)
            var byTime: [[UInt8]] = []
            for node in cluster.nodes {
                let response = try await HTTPTestClient.get(port: node.port, "/api/state?at=\(time)")
                #expect(response.headers["x-feedweb-event-id"] == id.description, "node \(node.port) ?at=\(time)")
                byTime.append(response.body)
            }
            #expect(byTime.allSatisfy { $0 == byTime[0] })
        }
        await cluster.shutdown()
    }

    @Test("a killed leader is replaced within 5 s; upstream resumed with the stored id; ids go on")
    func killedLeader() async throws {
        let cluster = try await FeedwebCluster()
        defer { Task { await cluster.shutdown() } }
        let leader = try await cluster.leader()
        for n in 0..<3 { try await cluster.upstream.scriptedChange(n) }
        let before = try await cluster.converged()
        let term = try #require(try await FeedwebCluster.cluster(of: leader)?["term"]?.int64Value)
        let requestsBefore = cluster.upstream.server.requests.count

        let survivors = cluster.nodes.filter { $0 !== leader }
        let client = try await SSETestClient(
            port: survivors[0].port, headers: ["Last-Event-ID": before.description])
        Glibc.kill(leader.process.processIdentifier, SIGKILL)
        cluster.remove(leader)
        let killedAt = ContinuousClock.now
        let next = try await cluster.leader(among: survivors, within: 10)
        let takeover = ContinuousClock.now - killedAt
        #expect(takeover < .seconds(5), "replaced in \(takeover)")
        print("cluster takeover after SIGKILL: \(takeover)")
        let newTerm = try #require(try await FeedwebCluster.cluster(of: next)?["term"]?.int64Value)
        #expect(newTerm > term)
        let request = try #require(cluster.upstream.server.requests.dropFirst(requestsBefore).last)
        #expect(request.header("Last-Event-ID") == "u\(4)", "resumed after the last event in the log")

        try await cluster.upstream.scriptedChange(3)
        let after = try await cluster.converged(among: survivors)
        let patch = try await client.next(type: "patch", within: 10)
        #expect(EventID(parsing: patch.id) == EventID(epoch: before.epoch, seq: before.seq + 1), "no gap, no repeat")
        #expect(after.epoch == before.epoch)
        #expect(cluster.openUpstreamConnections == 1)
        await cluster.shutdown()
    }

    @Test("a stopped leader (SIGSTOP) is replaced within 10 s; continued, it steps down and its writes are refused")
    func stoppedLeader() async throws {
        let cluster = try await FeedwebCluster()
        defer { Task { await cluster.shutdown() } }
        let leader = try await cluster.leader()
        try await cluster.upstream.scriptedChange(0)
        let before = try await cluster.converged()
        let survivors = cluster.nodes.filter { $0 !== leader }

        Glibc.kill(leader.process.processIdentifier, SIGSTOP)
        let stoppedAt = ContinuousClock.now
        _ = try await cluster.leader(among: survivors, within: 15)
        let takeover = ContinuousClock.now - stoppedAt
        #expect(takeover < .seconds(10), "replaced in \(takeover)")
        print("cluster takeover after SIGSTOP: \(takeover)")
        for n in 1..<4 { try await cluster.upstream.scriptedChange(n) }
        let during = try await cluster.converged(among: survivors)
        #expect(during.seq == before.seq + 3 || during.seq == before.seq + 4)

        Glibc.kill(leader.process.processIdentifier, SIGCONT)
        try await Eventually.check("the old leader to follow", within: 15) {
            try await FeedwebCluster.cluster(of: leader)?["role"]?.stringValue == "follower"
        }
        try await cluster.upstream.scriptedChange(4)
        let after = try await cluster.converged()
        #expect(after.epoch == before.epoch)
        try await Eventually.check("one upstream connection", within: 10) { cluster.openUpstreamConnections == 1 }
        let rows = try await cluster.postgres.psql(
            "SELECT count(*), min(seq), max(seq), count(DISTINCT seq) FROM feedweb_log WHERE epoch = '\(after.epoch)'")
        let figures = rows.split(separator: "|").compactMap { Int($0) }
        #expect(
            figures.count == 4 && figures[0] == figures[3] && figures[2] - figures[1] + 1 == figures[0],
            "no gap, no duplicate: \(rows)")
        await cluster.shutdown()
    }

    @Test("PostgreSQL stopped: nodes keep serving and say they are not ready; restarted: caught up, one leader")
    func postgresRestarted() async throws {
        let cluster = try await FeedwebCluster()
        defer { Task { await cluster.shutdown() } }
        _ = try await cluster.leader()
        try await cluster.upstream.scriptedChange(0)
        let before = try await cluster.converged()
        let client = try await SSETestClient(
            port: cluster.nodes[1].port, headers: ["Last-Event-ID": before.description])

        await cluster.postgres.stop()
        for node in cluster.nodes {
            try await Eventually.check("node \(node.port) not ready", within: 10) {
                try await FeedwebProbe.readiness(port: node.port).status == 503
            }
            let state = try await FeedwebProbe.state(port: node.port)
            #expect(state.id == before.description, "the last state is still served")
        }
        let readiness = try await FeedwebProbe.readiness(port: cluster.nodes[0].port).body
        #expect(readiness["cluster"]?["database"]?.stringValue == "unreachable")
        // Upstream moves on meanwhile (nobody is subscribed: no node can log a change).
        try await Eventually.check("no upstream connection", within: 10) { cluster.openUpstreamConnections == 0 }
        cluster.upstream.restartStreams(with: NewswireFeed.document(stories: [9, 8, 5, 4], version: 50))

        try await cluster.postgres.start()
        _ = try await cluster.leader(within: 30)
        let after = try await cluster.converged(within: 30)
        #expect(after.epoch == before.epoch, "the epoch is kept")
        #expect(after.seq > before.seq)
        let patch = try await client.next(type: "patch", within: 10)
        #expect(EventID(parsing: patch.id)?.seq == before.seq + 1, "the stream goes on without a gap")
        for node in cluster.nodes { try await FeedwebProbe.waitUntilReady(port: node.port, within: 15) }
        #expect(cluster.openUpstreamConnections == 1)
        await cluster.shutdown()
    }

    @Test("a node's reader connection ended again and again while changes flow: every client sees every id")
    func readerTerminated() async throws {
        let cluster = try await FeedwebCluster()
        defer { Task { await cluster.shutdown() } }
        _ = try await cluster.leader()
        let start = try await cluster.converged()
        var clients: [SSETestClient] = []
        for node in cluster.nodes {
            clients.append(try await SSETestClient(port: node.port, headers: ["Last-Event-ID": start.description]))
        }
        for n in 0..<20 {
            try await cluster.upstream.scriptedChange(n)
            if n % 4 == 1 {
                try await cluster.postgres.psql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'feedweb reader'")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let end = try await cluster.converged(within: 20)
        for client in clients {
            let patches = try await Self.patches(client, count: Int(end.seq - start.seq), within: 20)
            #expect(patches.compactMap { EventID(parsing: $0.id)?.seq } == Array((start.seq + 1)...end.seq))
        }
        await cluster.shutdown()
    }

    @Test("the log wiped: a new epoch, and every client gets a fresh data, never a partial replay")
    func wipedLog() async throws {
        let cluster = try await FeedwebCluster()
        defer { Task { await cluster.shutdown() } }
        _ = try await cluster.leader()
        try await cluster.upstream.scriptedChange(0)
        let before = try await cluster.converged()
        var clients: [SSETestClient] = []
        for node in cluster.nodes {
            clients.append(try await SSETestClient(port: node.port, headers: ["Last-Event-ID": before.description]))
        }
        try await cluster.postgres.psql("DROP TABLE feedweb_log, feedweb_checkpoint, feedweb_meta")
        for client in clients {
            let data = try await client.next(type: "data", within: 20)
            let id = try #require(EventID(parsing: data.id))
            #expect(id.epoch != before.epoch, "a new epoch")
            #expect(try JSONValue(parsing: data.data) == cluster.upstream.document, "the last document, fresh")
        }
        try await cluster.upstream.scriptedChange(1)
        let after = try await cluster.converged()
        #expect(after.epoch != before.epoch)
        // A client still holding an id of the old epoch gets a fresh data too.
        let late = try await SSETestClient(port: cluster.nodes[0].port, headers: ["Last-Event-ID": before.description])
        let first = try await late.next(type: "data", within: 5)
        #expect(EventID(parsing: first.id) == after)
        await cluster.shutdown()
    }

    @Test("the whole cluster restarted keeps its epoch: a client resumes across the restart with patches")
    func fullRestart() async throws {
        let cluster = try await FeedwebCluster()
        defer { Task { await cluster.shutdown() } }
        _ = try await cluster.leader()
        for n in 0..<3 { try await cluster.upstream.scriptedChange(n) }
        let before = try await cluster.converged()
        var ports: [UInt16] = []
        for node in cluster.nodes {
            ports.append(node.port)
            #expect(await node.stop()?.status == 0, "SIGTERM: exit 0")
            cluster.remove(node)
        }
        for port in ports { try await cluster.startNode(port: port) }
        _ = try await cluster.leader(within: 30)
        let restarted = try await cluster.converged(within: 30)
        #expect(restarted.epoch == before.epoch, "the epoch lives in the database")
        try await cluster.upstream.scriptedChange(3)
        let after = try await cluster.converged()
        let client = try await SSETestClient(port: ports[1], headers: ["Last-Event-ID": before.description])
        let events = try await client.events(untilQuietFor: 1)
        #expect(!events.contains { $0.type == "data" })
        #expect(events.filter { $0.type == "patch" }.last.flatMap { EventID(parsing: $0.id) } == after)
        await cluster.shutdown()
    }

    @Test("the password in --cluster never reaches the log, /readyz or /metrics")
    func passwordNeverShown() async throws {
        let postgres = try await PostgresServer()
        defer { Task { await postgres.remove() } }
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [2, 1]))
        let node = try await FeedwebProcess(arguments: [
            "--upstream", upstream.url, "--cluster", postgres.url(password: "pw-s3cret-42"), "--log-level", "debug",
        ])
        defer { node.kill() }
        try await FeedwebProbe.waitUntilReady(port: node.port, within: 30)
        let readiness = try await HTTPTestClient.get(port: node.port, "/readyz", timeout: 5)
        let metrics = try await HTTPTestClient.get(port: node.port, "/metrics", timeout: 5)
        let figures = try PrometheusText(parsing: metrics.text)
        #expect(figures.value("feedweb_cluster_leader") == 1)
        #expect(figures.value("feedweb_cluster_lag") == 0)
        #expect(figures.value("feedweb_cluster_database_connected") == 1)
        #expect((figures.value("feedweb_cluster_term") ?? 0) >= 1)
        #expect(await node.stop()?.status == 0)
        for text in [node.log, node.standardOutput, readiness.text, metrics.text] {
            #expect(!text.contains("pw-s3cret-42"))
        }
        #expect(node.log.contains("127.0.0.1:\(postgres.port)/postgres"), "the URL is logged, redacted")
        await upstream.shutdown()
        // Awaited here: the deferred task is only for a test that threw, and may not run
        // before the test process exits (this one's PostgreSQL outlived CI's run).
        await postgres.remove()
    }

    @Test("--webhook in a cluster: a mark is told once, by the node that leads, not by every node")
    func webhookOnce() async throws {
        let receiver = try await ScriptedSSEServer.start(script: [], then: .status(204))
        defer { receiver.shutdownNow() }
        let cluster = try await FeedwebCluster(
            nodes: 2, arguments: ["--mark", "Breaking:/title=Edited headline 1", "--webhook", receiver.url("/hook")])
        _ = try await cluster.leader()
        try await cluster.converged()
        try await cluster.upstream.scriptedChange(1)
        try await Eventually.check("the notification", within: 10) { !receiver.requests.isEmpty }
        // Every node has applied the change by now; a second sender would have sent too.
        try await cluster.converged()
        try await Task.sleep(for: .seconds(1))
        #expect(receiver.requests.count == 1, "told once: \(receiver.requests.map(\.body))")
        let body = try JSONValue(parsing: try #require(receiver.requests.first).body)
        #expect(body["mark"] == .string("Breaking") && body["item"]?["title"] == .string("Edited headline 1"))
        await cluster.shutdown()
    }
}
