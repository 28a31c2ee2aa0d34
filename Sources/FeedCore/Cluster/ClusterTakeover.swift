/// What a node that has just taken the lead does before it subscribes upstream: I/O-free.
///
/// It waits until its own reader has applied the log up to the head it took over, so that
/// it continues from exactly the state every node publishes. Then:
/// - the log is as this node knows it: lead on, resuming upstream from the stored
///   position;
/// - the epoch has no row yet (a new cluster, or a log that was wiped): start it with this
///   node's last document as its first row (a fresh `data` for every client) if it has
///   one, then subscribe upstream from scratch;
/// - the log was rewound behind what this node published, or lost what a node needs to
///   follow it: start a new epoch the same way. Clients then get a fresh `data`, never a
///   partial replay.
public enum ClusterTakeover: Sendable, Equatable {
    /// Still catching up with the head.
    case wait
    /// Lead on from the head.
    case lead
    /// Start the epoch (a new one when `newEpoch`), seeded with this node's document if it
    /// has one; upstream starts from scratch.
    case startEpoch(newEpoch: Bool)

    /// The decision for a node whose reader is at `follower` and that took over `lease`.
    public static func decide(lease: ClusterLease, follower: LogFollower, followerLost: Bool) -> ClusterTakeover {
        let head = ClusterHead(epoch: lease.epoch, term: lease.term, headSeq: lease.headSeq)
        if lease.headSeq == 0 { return .startEpoch(newEpoch: false) }
        if follower.isCaughtUp(with: head) { return .lead }
        if follower.epoch == lease.epoch && follower.applied > lease.headSeq { return .startEpoch(newEpoch: true) }
        if followerLost { return .startEpoch(newEpoch: true) }
        return .wait
    }
}
