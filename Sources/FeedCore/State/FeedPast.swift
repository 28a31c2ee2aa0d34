import DequeModule

/// The feed's past: the state after each of the last changes and when it was committed, for
/// `?at=` (the document as of an event, or as of a moment) and `/api/changes?since=` (the
/// changes after an event). Kept by ``FeedStore``, one entry per accepted change.
///
/// Every entry is a whole state, found at once: a ``FeedSnapshot`` is immutable and shares
/// all it did not change with the one before (a patch copies only the containers on its
/// paths, an append-mode change only the chunks it touched), so keeping the state after
/// every change costs about what the changes cost, with no replay of patches to answer.
/// The cost counted against the byte bound is the change's: its encoded patch, or the whole
/// document for a change that replaced it (a resync's `data`, an adopted document), which
/// shares nothing with what came before.
///
/// Invariants: entries are in commit order, oldest first; at most `maxEntries`, and their
/// counted bytes at most `maxBytes` (the newest is kept whatever its size).
public struct FeedPast: Sendable {
    /// One change of the past.
    public struct Entry: Sendable {
        /// The state after the change; its id names the change.
        public let snapshot: FeedSnapshot
        /// When it was committed (never before the entry before it).
        public let time: WallTime
        /// What the change was.
        public let change: Change
        /// Bytes it counts for against the bound.
        let cost: Int

        public var id: EventID { snapshot.id }
    }

    /// What a change did to the document.
    public enum Change: Sendable {
        /// The patch that led from the entry before to this one: its exact bytes.
        case patch([UInt8])
        /// A whole new document (the first, a resync, an adopted one): nothing before it
        /// leads here by a patch.
        case document
    }

    /// Where a moment or an id falls.
    public enum Lookup: Sendable {
        case found(Entry)
        /// Not kept (too old, another process's epoch, not yet): with the oldest entry kept,
        /// if any.
        case outside(earliest: Entry?)
    }

    /// The changes after an id, as `/api/changes` gives them.
    public enum Changes: Sendable {
        /// The entries after it, oldest first, at most as many as asked; `more`: others
        /// follow the last of them.
        case entries([Entry], more: Bool)
        /// The id is not in the past kept: the client needs the whole current state.
        case startOver
    }

    public let maxEntries: Int
    public let maxBytes: Int
    private var entries = Deque<Entry>()
    private var bytes = 0

    public init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(0, maxBytes)
    }

    /// The number of entries kept.
    public var count: Int { entries.count }
    /// The bytes the entries count for.
    public var byteCount: Int { bytes }
    /// The oldest entry kept.
    public var earliest: Entry? { entries.first }
    /// The newest entry.
    public var latest: Entry? { entries.last }

    /// Remembers the state after a change, committed at `time`.
    public mutating func append(_ snapshot: FeedSnapshot, change: Change, at time: WallTime) {
        let cost: Int
        switch change {
        case .patch(let encoded): cost = encoded.count
        case .document: cost = snapshot.encodedByteCount
        }
        entries.append(Entry(snapshot: snapshot, time: time, change: change, cost: cost))
        bytes += cost
        while entries.count > maxEntries || (bytes > maxBytes && entries.count > 1) {
            bytes -= entries.removeFirst().cost
        }
    }

    /// The state after change `id`.
    public func entry(for id: EventID) -> Lookup {
        // Newest first: the ids asked for are mostly recent. Ids are unique within the
        // past (a new epoch starts at 1 again, with another name).
        guard let index = entries.lastIndex(where: { $0.id == id }) else { return .outside(earliest: earliest) }
        return .found(entries[index])
    }

    /// The state after the last change committed at or before `time`.
    public func entry(atOrBefore time: WallTime) -> Lookup {
        guard let first = entries.first, first.time <= time else { return .outside(earliest: earliest) }
        // Commit times do not go backwards (one writer, in order); binary search.
        var low = 0
        var high = entries.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if entries[middle].time <= time { low = middle } else { high = middle - 1 }
        }
        return .found(entries[low])
    }

    /// The changes after `id`, at most `maxCount` of them and, past the first, at most
    /// `maxBytes` of patches and documents (a document counts its length); `startOver` when
    /// `id` is not kept, so no chain of changes leads from it.
    public func changes(after id: EventID, maxCount: Int, maxBytes: Int) -> Changes {
        guard let index = entries.lastIndex(where: { $0.id == id }) else { return .startOver }
        var taken: [Entry] = []
        var size = 0
        var next = index + 1
        while next < entries.count, taken.count < max(1, maxCount) {
            let entry = entries[next]
            if !taken.isEmpty && size + entry.cost > maxBytes { break }
            taken.append(entry)
            size += entry.cost
            next += 1
        }
        return .entries(taken, more: next < entries.count)
    }
}
