/// What one node knows of the cluster now, for `/readyz` (`"cluster"`) and `/metrics`.
public struct ClusterStatus: Sendable, Equatable {
    /// What this node does in the cluster.
    public enum Role: String, Sendable {
        /// Holds the lead: subscribed upstream, appending to the log.
        case leader
        /// Follows the log (every node does; a follower only that).
        case follower
    }

    public var role: Role
    /// This node's name (`--cluster-node`, else host and port).
    public var node: String
    /// The leader generation: this node's own while it leads, else the log's as last read
    /// (0 before the first read).
    public var term: UInt64
    /// The log's epoch as last read (`nil` before the first read).
    public var epoch: String?
    /// The sequence number of the newest row of the log, as last read.
    public var head: UInt64
    /// The sequence number of the last row this node applied (and publishes).
    public var applied: UInt64
    /// Whether this node's reader session to the database is up.
    public var databaseConnected: Bool
    /// The leader's name, as the log last said.
    public var leader: String?
    /// Times this node took the lead since start.
    public var takeovers: UInt64

    public init(
        role: Role, node: String, term: UInt64, epoch: String?, head: UInt64, applied: UInt64,
        databaseConnected: Bool, leader: String?, takeovers: UInt64
    ) {
        self.role = role
        self.node = node
        self.term = term
        self.epoch = epoch
        self.head = head
        self.applied = applied
        self.databaseConnected = databaseConnected
        self.leader = leader
        self.takeovers = takeovers
    }

    /// Rows in the log this node has not applied yet (0 when it is ahead or on another
    /// epoch).
    public var lag: UInt64 {
        head > applied ? head - applied : 0
    }
}
