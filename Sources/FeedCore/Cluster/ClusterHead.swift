/// The cluster's shared state as one read of the log's meta row shows it.
public struct ClusterHead: Sendable, Equatable {
    /// The epoch of every id the cluster hands out: made at random when the log is created
    /// (or found lost), never by a node's restart.
    public var epoch: String
    /// The leader generation: raised by each node that takes the lead; an append or a
    /// heartbeat of an older term is refused (the fence).
    public var term: UInt64
    /// The sequence number of the newest row of the epoch (0: none yet).
    public var headSeq: UInt64
    /// The node that took the lead last, as it names itself.
    public var leaderNode: String?
    /// How long ago the leader's last heartbeat was, by the database's clock (`nil`: no
    /// leader ever).
    public var leaderBeatAge: Duration?
    /// The leader's upstream connection as it last reported it (``UpstreamStatus`` phase
    /// words: `open`, `connecting`, `backing-off`…).
    public var leaderUpstream: String?

    public init(
        epoch: String, term: UInt64, headSeq: UInt64, leaderNode: String? = nil, leaderBeatAge: Duration? = nil,
        leaderUpstream: String? = nil
    ) {
        self.epoch = epoch
        self.term = term
        self.headSeq = headSeq
        self.leaderNode = leaderNode
        self.leaderBeatAge = leaderBeatAge
        self.leaderUpstream = leaderUpstream
    }
}

/// What a node that took the lead starts from: its term (the fence of every append and
/// heartbeat it makes) and the log as it found it.
public struct ClusterLease: Sendable, Equatable {
    public var term: UInt64
    public var epoch: String
    public var headSeq: UInt64
    /// Upstream's position after the head row (``UpstreamPosition``).
    public var upstreamPosition: String?

    public init(term: UInt64, epoch: String, headSeq: UInt64, upstreamPosition: String?) {
        self.term = term
        self.epoch = epoch
        self.headSeq = headSeq
        self.upstreamPosition = upstreamPosition
    }
}

/// A document at one sequence number of one epoch, so that a node can start from it and
/// read only the rows after it.
public struct ClusterCheckpoint: Sendable, Equatable {
    public var epoch: String
    public var seq: UInt64
    /// The document's compact JSON, as a `data` event carries it.
    public var document: [UInt8]

    public init(epoch: String, seq: UInt64, document: [UInt8]) {
        self.epoch = epoch
        self.seq = seq
        self.document = document
    }
}
