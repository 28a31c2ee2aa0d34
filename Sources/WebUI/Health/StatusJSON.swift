import FeedCore
import Foundation

/// The upstream status (and a cluster node's view of its cluster) as JSON, for `/readyz`.
enum StatusJSON {
    /// `{"role": "leader"|"follower", "node": …, "term": N, "head": SEQ, …}`: `head` is the
    /// log's newest row, `applied` the newest this node publishes, `lag` the difference.
    static func encode(_ cluster: ClusterStatus) -> JSONValue {
        .object([
            "role": .string(cluster.role.rawValue),
            "node": .string(cluster.node),
            "term": .int(Int64(clamping: cluster.term)),
            "head": .int(Int64(clamping: cluster.head)),
            "applied": .int(Int64(clamping: cluster.applied)),
            "lag": .int(Int64(clamping: cluster.lag)),
            "epoch": cluster.epoch.map(JSONValue.string) ?? .null,
            "leader": cluster.leader.map(JSONValue.string) ?? .null,
            "database": .string(cluster.databaseConnected ? "connected" : "unreachable"),
            "takeovers": .int(Int64(clamping: cluster.takeovers)),
        ])
    }

    static func encode(_ status: UpstreamStatus) -> JSONValue {
        func date(_ value: Date?) -> JSONValue {
            value.map { .string(RelativeTime.machine($0)) } ?? .null
        }
        let phase: String
        var nextAttempt: Date?
        switch status.phase {
        case .idle: phase = "idle"
        case .connecting: phase = "connecting"
        case .open: phase = "open"
        case .backingOff(let until):
            phase = "backing-off"
            nextAttempt = until
        case .stoppedByUpstream(let until):
            phase = "stopped-by-upstream"
            nextAttempt = until
        case .stopped: phase = "stopped"
        }
        return .object([
            "source": .string(status.source),
            "state": .string(phase),
            "next_attempt": date(nextAttempt),
            "connected_since": date(status.connectedSince),
            "last_event_at": date(status.lastEventAt),
            "last_error": status.lastError.map(JSONValue.string) ?? .null,
            "last_error_at": date(status.lastErrorAt),
            "last_upstream_error": status.lastUpstreamError.map(JSONValue.string) ?? .null,
            "events_received": .int(Int64(clamping: status.eventsReceived)),
            "bytes_received": .int(Int64(clamping: status.bytesReceived)),
            "reconnects": .int(Int64(clamping: status.reconnects)),
            "rejected_patches": .int(Int64(clamping: status.rejectedPatches)),
            "upstream_errors": .int(Int64(clamping: status.upstreamErrors)),
            "ignored_events": .int(Int64(clamping: status.ignoredEvents)),
            "last_ignored": status.lastIgnored.map(JSONValue.string) ?? .null,
        ])
    }
}
