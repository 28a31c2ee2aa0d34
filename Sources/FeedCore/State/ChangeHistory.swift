import DequeModule

/// The most recent changes, for clients that resume with a `Last-Event-ID`: each one's
/// patch (for `/events`) and, when it advanced the published view, its item changes (for
/// `/events/items`). The one resume log of the process.
///
/// Bounded by count and by encoded bytes; the oldest entries go first. Invariant: the
/// entries have consecutive sequence numbers ending at the newest change.
public struct ChangeHistory: Sendable {
    /// How one change advanced the published view.
    public struct PublishedStep: Sendable {
        /// The sequence number of the view it replaced.
        public let after: UInt64
        /// The item changes from that view to this one.
        public let itemChanges: [ItemChange]

        public init(after: UInt64, itemChanges: [ItemChange]) {
            self.after = after
            self.itemChanges = itemChanges
        }
    }

    /// One remembered change.
    public struct Entry: Sendable {
        public let seq: UInt64
        public let encodedPatch: [UInt8]
        /// How it advanced the published view (`nil`: it did not).
        public let published: PublishedStep?
    }

    /// What a resuming client needs.
    public enum Resume: Sendable {
        /// The client has everything.
        case upToDate
        /// The patches after the client's id, oldest first.
        case patches([Entry])
        /// The gap is not covered (other epoch, too old, or from the future).
        case needsSnapshot
    }

    public let maxEntries: Int
    public let maxBytes: Int
    private var entries = Deque<Entry>()
    private var bytes = 0

    public init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = max(0, maxEntries)
        self.maxBytes = max(0, maxBytes)
    }

    /// The number of entries kept.
    public var count: Int { entries.count }
    /// The encoded bytes kept.
    public var byteCount: Int { bytes }

    /// Remembers change `seq` (the one after the newest entry): its patch and how it
    /// advanced the published view.
    public mutating func append(seq: UInt64, encodedPatch: [UInt8], published: PublishedStep? = nil) {
        if let last = entries.last, last.seq + 1 != seq { removeAll() }
        entries.append(Entry(seq: seq, encodedPatch: encodedPatch, published: published))
        bytes += encodedPatch.count
        while entries.count > maxEntries || (bytes > maxBytes && !entries.isEmpty) {
            bytes -= entries.removeFirst().encodedPatch.count
        }
    }

    /// Forgets everything (after a snapshot that no patch describes).
    public mutating func removeAll() {
        entries.removeAll()
        bytes = 0
    }

    /// The patches a client that has seen change `seq` needs to reach change `current`
    /// (entries after `current` are left out: the caller will send those itself).
    public func resume(after seq: UInt64, current: UInt64) -> Resume {
        if seq == current { return .upToDate }
        guard seq < current, let first = entries.first, let last = entries.last,
            seq + 1 >= first.seq, current <= last.seq
        else { return .needsSnapshot }
        let start = Int(seq + 1 - first.seq)
        let end = Int(current - first.seq)
        return .patches(Array(entries[start...end]))
    }

    /// The published steps a client that has seen the published view `seq` needs to reach
    /// the published view `current`, oldest first, each with its sequence number; `nil`
    /// when the history does not hold the whole chain from `seq` to `current`.
    public func publishedSteps(after seq: UInt64, current: UInt64) -> [(seq: UInt64, step: PublishedStep)]? {
        if seq == current { return [] }
        guard seq < current, let last = entries.last, current <= last.seq else { return nil }
        var steps: [(seq: UInt64, step: PublishedStep)] = []
        var reached = seq
        for entry in entries where entry.seq > seq && entry.seq <= current {
            guard let step = entry.published else { continue }
            guard step.after == reached else { return nil }
            steps.append((entry.seq, step))
            reached = entry.seq
        }
        return reached == current ? steps : nil
    }
}
