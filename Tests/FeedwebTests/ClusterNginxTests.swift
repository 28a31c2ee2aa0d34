import FeedCore
import Foundation
import Glibc
import TestSupport
import Testing

/// Three cluster nodes behind a real nginx configured with the block docs/deploy.md
/// documents for a cluster (read from the file, so the documentation cannot drift from
/// what is tested): clients resume on whichever node nginx picks, and a node that dies is
/// skipped.
@Suite(.serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct ClusterNginxTests {
    /// The cluster block between the `nginx-cluster-config` markers of docs/deploy.md, with
    /// the nodes' ports and nginx's own listen address put in.
    static func documentedConfig(nodes: [UInt16], listen: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/deploy.md"), encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- nginx-cluster-config:begin -->"))
        let end = try #require(text.range(of: "<!-- nginx-cluster-config:end -->"))
        var block = text[begin.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "```nginx", with: "").replacingOccurrences(of: "```", with: "")
        #expect(block.contains("proxy_buffering off;") && block.contains("proxy_next_upstream"))
        for (index, port) in nodes.enumerated() {
            let documented = "server 127.0.0.1:\(8081 + index) "
            #expect(block.contains(documented))
            block = block.replacingOccurrences(of: documented, with: "server 127.0.0.1:\(port) ")
        }
        return block.replacingOccurrences(of: "listen 80;", with: "listen \(listen);")
    }

    @Test("through nginx every reconnect resumes with patches, whichever node serves it; a dead node is skipped")
    func resumeThroughNginx() async throws {
        let cluster = try await FeedwebCluster()
        defer { Task { await cluster.shutdown() } }
        _ = try await cluster.leader()
        var documented = ""
        let ports = cluster.nodes.map(\.port)
        let nginx = try await NginxProxy { listen in
            documented = (try? Self.documentedConfig(nodes: ports, listen: listen)) ?? ""
            return documented
        }
        defer { nginx.kill() }
        #expect(!documented.isEmpty, "docs/deploy.md holds the cluster block")

        let client = try await SSETestClient(port: nginx.port, path: "/events")
        let data = try await client.next(type: "data", within: 5)
        var last = try #require(EventID(parsing: data.id))
        // Six reconnects in a row: nginx spreads them over the three nodes; each one gets
        // exactly the patches it missed.
        for round in 0..<6 {
            try await cluster.upstream.scriptedChange(round)
            let head = try await cluster.converged()
            let resumed = try await SSETestClient(
                port: nginx.port, path: "/events", headers: ["Last-Event-ID": last.description])
            let events = try await resumed.events(untilQuietFor: 0.5)
            #expect(!events.contains { $0.type == "data" }, "round \(round): no snapshot")
            let seqs = events.filter { $0.type == "patch" }.compactMap { EventID(parsing: $0.id)?.seq }
            #expect(seqs == Array((last.seq + 1)...head.seq), "round \(round)")
            last = head
            resumed.close()
        }

        // A follower dies: new streams still start (on the others).
        let leader = try await cluster.leader()
        let follower = try #require(cluster.nodes.first { $0 !== leader })
        Glibc.kill(follower.process.processIdentifier, SIGKILL)
        cluster.remove(follower)
        try await cluster.upstream.scriptedChange(6)
        let head = try await cluster.converged()
        for _ in 0..<4 {
            let resumed = try await SSETestClient(
                port: nginx.port, path: "/events", headers: ["Last-Event-ID": last.description])
            #expect(resumed.status == 200)
            let events = try await resumed.events(untilQuietFor: 0.5)
            #expect(events.filter { $0.type == "patch" }.compactMap { EventID(parsing: $0.id) }.last == head)
            resumed.close()
        }
        await nginx.stop()
        await cluster.shutdown()
    }
}
