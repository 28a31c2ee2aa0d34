import FeedCore
import Foundation
import Glibc

/// A feedweb cluster for end-to-end tests: a real PostgreSQL of the test's own
/// (``PostgresServer``), a live upstream (``LiveFeedUpstream``), and feedweb processes
/// started with `--cluster`, each on a free port. Every wait is bounded; ``shutdown()``
/// (or `deinit`) ends every process by PID.
public final class FeedwebCluster: @unchecked Sendable {
    public let postgres: PostgresServer
    public let upstream: LiveFeedUpstream
    private let lock = NSLock()
    private var running: [FeedwebProcess] = []
    /// Extra arguments every node gets.
    public let arguments: [String]

    public var nodes: [FeedwebProcess] { lock.withLock { running } }

    /// PostgreSQL, the upstream with stories 5…1, and `count` nodes, all ready.
    public init(nodes count: Int = 3, arguments: [String] = []) async throws {
        postgres = try await PostgresServer()
        upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        self.arguments = arguments
        for _ in 0..<count { try await startNode() }
        for node in nodes { try await FeedwebProbe.waitUntilReady(port: node.port, within: 30) }
    }

    /// Starts one more node (optionally on `port`); returns it.
    @discardableResult
    public func startNode(port: UInt16? = nil, extra: [String] = []) async throws -> FeedwebProcess {
        var arguments = ["--upstream", upstream.url, "--cluster", postgres.url()] + self.arguments + extra
        if let port { arguments += ["--listen", "127.0.0.1:\(port)"] }
        let node = try await FeedwebProcess(arguments: arguments, listen: port == nil)
        lock.withLock { running.append(node) }
        return node
    }

    /// Forgets `node` (after the test ended it).
    public func remove(_ node: FeedwebProcess) {
        lock.withLock { running.removeAll { $0 === node } }
    }

    /// `/readyz`'s `cluster` object of `node`.
    public static func cluster(of node: FeedwebProcess) async throws -> JSONValue? {
        try await FeedwebProbe.readiness(port: node.port).body["cluster"]
    }

    /// The one node among `among` (default: all) that says it leads and whose `/readyz`
    /// is 200, once there is exactly one.
    public func leader(among: [FeedwebProcess]? = nil, within seconds: Double = 15) async throws -> FeedwebProcess {
        let candidates = among ?? nodes
        return try await Eventually.value("one ready leader", within: seconds, poll: .milliseconds(25)) {
            var leaders: [FeedwebProcess] = []
            for node in candidates {
                let readiness = try? await FeedwebProbe.readiness(port: node.port)
                if readiness?.status == 200, readiness?.body["cluster"]?["role"]?.stringValue == "leader" {
                    leaders.append(node)
                }
            }
            return leaders.count == 1 ? leaders[0] : nil
        }
    }

    /// Waits until every node in `among` (default: all) holds the upstream's document at
    /// one and the same id; returns the id.
    @discardableResult
    public func converged(among: [FeedwebProcess]? = nil, within seconds: Double = 15) async throws -> EventID {
        let candidates = among ?? nodes
        let document = upstream.document
        return try await Eventually.value("every node at the upstream's document, same id", within: seconds) {
            var ids: Set<String> = []
            for node in candidates {
                let state = try await FeedwebProbe.state(port: node.port)
                guard state.document == document else { return nil }
                ids.insert(state.id)
            }
            return ids.count == 1 ? ids.first.flatMap { EventID(parsing: $0) } : nil
        }
    }

    /// The upstream's connections open now (a cluster holds exactly one).
    public var openUpstreamConnections: Int {
        upstream.server.connections.filter { $0.isOpen && !$0.requests.isEmpty }.count
    }

    /// Ends every node (SIGKILL), PostgreSQL and the upstream.
    public func shutdown() async {
        for node in nodes {
            Glibc.kill(node.process.processIdentifier, SIGCONT)
            node.kill()
        }
        await postgres.remove()
        await upstream.shutdown()
    }

    deinit {
        for node in running {
            Glibc.kill(node.process.processIdentifier, SIGCONT)
            node.kill()
        }
    }
}
