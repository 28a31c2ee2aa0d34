import DequeModule

/// The most recent patches, for clients that resume with a `Last-Event-ID`.
///
/// Bounded by count and by encoded bytes; the oldest entries go first. Invariant: the
/// entries have consecutive sequence numbers ending at the newest change.
public struct ChangeHistory: Sendable {
    /// One remembered change.
    public struct Entry: Sendable {
        public let seq: UInt64
        public let encodedPatch: [UInt8]
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

    /// Remembers the patch of change `seq` (the one after the newest entry).
    public mutating func append(seq: UInt64, encodedPatch: [UInt8]) {
        if let last = entries.last, last.seq + 1 != seq { removeAll() }
        entries.append(Entry(seq: seq, encodedPatch: encodedPatch))
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
}
