/// When the leader writes a checkpoint and what it trims from the log: I/O-free.
///
/// The log keeps what a node starting now needs to hold `history` changes for resuming
/// clients: the newest checkpoint at or before `head - history` (the base) and every row
/// after it. Rows up to the base and checkpoints before it go. A checkpoint is due every
/// ``checkpointInterval`` changes, so a starting node replays at most
/// `history + checkpointInterval` rows.
public struct ClusterRetention: Sendable, Equatable {
    /// Changes kept for resuming clients (`--history`).
    public let history: UInt64
    /// Changes between two checkpoints.
    public let checkpointInterval: UInt64

    /// - Parameter history: `--history`; checkpoints come every half of it (at least 100
    ///   changes apart).
    public init(history: Int, checkpointInterval: Int? = nil) {
        self.history = UInt64(max(0, history))
        self.checkpointInterval = UInt64(max(1, checkpointInterval ?? max(100, history / 2)))
    }

    /// Whether a checkpoint at `applied` is due, the newest one being at `latest` (`nil`:
    /// none yet).
    public func checkpointDue(applied: UInt64, latest: UInt64?) -> Bool {
        guard applied > 0 else { return false }
        guard let latest else { return true }
        return applied >= latest + checkpointInterval
    }

    /// What to trim, given the head and the checkpoints there are (any order): delete the
    /// rows up to `rowsThrough` and the checkpoints before `checkpointsBefore`; `nil` when
    /// nothing can go yet.
    public func trim(head: UInt64, checkpoints: [UInt64]) -> (rowsThrough: UInt64, checkpointsBefore: UInt64)? {
        guard head > history else { return nil }
        guard let base = checkpoints.filter({ $0 <= head - history }).max(), base > 0 else { return nil }
        return (base, base)
    }
}
