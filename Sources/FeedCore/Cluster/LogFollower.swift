/// How a node follows the cluster log: which rows to read next, when to start over from a
/// checkpoint, and which of the rows read to apply. I/O-free: ``ClusterNode`` reads what
/// it is told and reports back.
///
/// Invariants:
/// - Rows are applied in sequence order, each exactly once: a row at or below ``applied``
///   is skipped; a row past `applied + 1` (older rows were trimmed away while this node
///   was behind) is never applied over the gap — the node starts over from a checkpoint.
/// - ``epoch`` changes only by starting over (a checkpoint, or the first row of an
///   epoch), so a node never publishes a row of one epoch on the state of another.
/// - A log whose head is behind ``applied`` in the same epoch was rewound (restored from
///   a backup, an asynchronous replica promoted): nothing is applied until a leader starts
///   a new epoch (``ClusterTakeover``).
public struct LogFollower: Sendable, Equatable {
    /// What to do next.
    public enum Step: Sendable, Equatable {
        /// Nothing new.
        case upToDate
        /// Read the rows of `epoch` after `after` and ``take(_:epoch:)`` them.
        case read(epoch: String, after: UInt64)
        /// Start over: find the checkpoint of `epoch` at or before `target`
        /// (``ClusterLogReader/checkpoint(epoch:atOrBefore:)``), then
        /// ``start(at:)`` or ``startWithoutCheckpoint(epoch:firstRow:)``.
        case startOver(epoch: String, target: UInt64)
        /// The log was rewound behind what this node published: wait for a new epoch.
        case rewound
        /// The log no longer holds what this node needs (no checkpoint, rows trimmed):
        /// wait for a new epoch.
        case lost
    }

    /// Where the node is.
    private enum Mode: Sendable, Equatable {
        /// ``epoch`` and ``applied`` say where; the next row is `applied + 1`.
        case following
        /// Reading `epoch` from its first row, which (a document) starts the node on it.
        case fromFirstRow(epoch: String)
        /// Must start over before applying anything more.
        case mustStartOver
    }

    /// The epoch of the rows applied (`nil`: none yet).
    public private(set) var epoch: String?
    /// The sequence number of the last row applied (or of the checkpoint started from).
    public private(set) var applied: UInt64 = 0
    private var mode = Mode.mustStartOver
    /// The row after which the rows taken last had a gap: once it is applied, the node
    /// starts over.
    private var gapAfter: UInt64?
    /// The epoch found lost (see ``Step/lost``), until its head moves on.
    private var lostEpoch: LostEpoch?

    private struct LostEpoch: Sendable, Equatable {
        let epoch: String
        let head: UInt64
    }

    public init() {}

    /// The next step, given the log's `head`; `history` is how many changes a node keeps
    /// for resuming clients, so a start-over goes back that far when the log allows.
    public func next(head: ClusterHead, history: Int) -> Step {
        if lostEpoch == LostEpoch(epoch: head.epoch, head: head.headSeq) { return .lost }
        switch mode {
        case .following where epoch == head.epoch:
            if head.headSeq == applied { return .upToDate }
            if head.headSeq < applied { return .rewound }
            return .read(epoch: head.epoch, after: applied)
        case .fromFirstRow(let epoch) where epoch == head.epoch:
            return .read(epoch: epoch, after: 0)
        default:
            // A new epoch without rows yet: its first row (a document) starts the node.
            if head.headSeq == 0 { return .read(epoch: head.epoch, after: 0) }
            let history = UInt64(max(0, history))
            return .startOver(epoch: head.epoch, target: head.headSeq > history ? head.headSeq - history : 0)
        }
    }

    /// Of `rows` (read for `epoch`, in order), those to apply now, in order; stops at a
    /// gap (the next step then starts over). Call ``applied(_:epoch:)`` for each one
    /// applied.
    public mutating func take(_ rows: [ClusterLogEntry], epoch: String) -> [ClusterLogEntry] {
        var expected: UInt64
        if mode == .following && self.epoch == epoch {
            expected = applied + 1
        } else {
            // Only an epoch's first row (a document) can start the node on it.
            guard let first = rows.first(where: { $0.seq >= 1 }), first.seq == 1, first.kind == .data else {
                if !rows.isEmpty { mode = .mustStartOver }
                return []
            }
            expected = 1
        }
        var taken: [ClusterLogEntry] = []
        for row in rows where row.seq >= expected {
            guard row.seq == expected else {
                if let last = taken.last { gapAfter = last.seq } else { mode = .mustStartOver }
                break
            }
            taken.append(row)
            expected += 1
        }
        return taken
    }

    /// Row `row` of `epoch` was applied.
    public mutating func applied(_ row: ClusterLogEntry, epoch: String) {
        self.epoch = epoch
        applied = row.seq
        mode = .following
        lostEpoch = nil
        if let gapAfter, row.seq >= gapAfter {
            mode = .mustStartOver
            self.gapAfter = nil
        }
    }

    /// The node started over from `checkpoint`.
    public mutating func start(at checkpoint: ClusterCheckpoint) {
        epoch = checkpoint.epoch
        applied = checkpoint.seq
        mode = .following
        lostEpoch = nil
        gapAfter = nil
    }

    /// There is no checkpoint of `epoch` (whose head is `head`): the node reads from its
    /// first row if the log still has it (`firstRow`: the seq of the oldest row there is),
    /// else the epoch is lost to it until its head moves. Returns whether it can go on.
    @discardableResult
    public mutating func startWithoutCheckpoint(epoch: String, head: UInt64, firstRow: UInt64?) -> Bool {
        guard firstRow == 1 else {
            lostEpoch = LostEpoch(epoch: epoch, head: head)
            return false
        }
        mode = .fromFirstRow(epoch: epoch)
        lostEpoch = nil
        gapAfter = nil
        return true
    }

    /// A row could not be applied (the store refused it): start over.
    public mutating func failed() {
        mode = .mustStartOver
        gapAfter = nil
    }

    /// Whether the node has applied everything of `head`'s epoch up to its head.
    public func isCaughtUp(with head: ClusterHead) -> Bool {
        mode == .following && epoch == head.epoch && applied == head.headSeq
    }
}
