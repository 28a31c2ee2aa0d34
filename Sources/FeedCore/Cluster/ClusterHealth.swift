/// Whether a node's clients see a live feed, and if not why, in words: I/O-free. The node
/// publishes the answer as its upstream status (``ClusterNode``), so the badge, `/readyz`
/// and `/metrics` read a cluster node exactly as they read a single feedweb.
///
/// Live means: this node reads the log, and a leader is alive (its heartbeat younger than
/// the lease) with its upstream open — for the leader, its own upstream connection.
enum ClusterHealth {
    struct Facts: Sendable {
        var readerConnected: Bool
        var readerError: String?
        var isLeader: Bool
        /// The leader's own upstream, while it leads.
        var ownUpstream: UpstreamStatus?
        var head: ClusterHead?
        var follower: LogFollower.Step?
        var leaseTimeout: Duration
    }

    /// `nil` when live, else what is wrong.
    static func problem(_ facts: Facts) -> String? {
        guard facts.readerConnected else {
            return facts.readerError ?? "connecting to the cluster database"
        }
        switch facts.follower {
        case .rewound?: return "the cluster log was rewound; waiting for a new epoch"
        case .lost?: return "the cluster log lost what this node needs; waiting for a new epoch"
        default: break
        }
        guard let head = facts.head else { return "reading the cluster log" }
        if facts.isLeader {
            guard let upstream = facts.ownUpstream, upstream.isConnected else {
                return "upstream: " + (facts.ownUpstream?.lastError ?? "connecting")
            }
            return nil
        }
        guard let age = head.leaderBeatAge, age <= facts.leaseTimeout else {
            let who = head.leaderNode.map { "the last one, \($0)" } ?? "none so far"
            let when = head.leaderBeatAge.map { ", was heard \(Int($0.timeInterval)) s ago" } ?? ""
            return "no cluster leader (\(who)\(when))"
        }
        guard head.leaderUpstream == "open" else {
            return "the leader's upstream is \(head.leaderUpstream ?? "not connected")"
        }
        return nil
    }
}
