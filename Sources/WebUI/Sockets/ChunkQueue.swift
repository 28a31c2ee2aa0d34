import DequeModule

/// The chunks queued for one stream, oldest first: the oldest held in the queue itself, the
/// others in a `Deque` allocated only while two or more wait.
///
/// A client that keeps up has one event queued at a time (a fan-out queues it, its sender
/// takes it), so its queue never allocates: queuing and taking an event touch the stream
/// alone, not a buffer of its own that a fan-out to 10,000 clients would allocate, miss in
/// the cache and free 10,000 times per event.
///
/// Invariants: `first` is `nil` only when the queue is empty (then `rest` is empty and
/// holds no storage); an emptied `rest` gives its storage back.
struct ChunkQueue {
    private(set) var first: [UInt8]?
    private var rest = Deque<[UInt8]>()

    var isEmpty: Bool { first == nil }

    mutating func append(_ chunk: [UInt8]) {
        if first == nil {
            first = chunk
        } else {
            rest.append(chunk)
        }
    }

    /// Takes the oldest chunk out.
    mutating func popFirst() -> [UInt8]? {
        guard let oldest = first else { return nil }
        if rest.isEmpty {
            first = nil
        } else {
            first = rest.removeFirst()
            if rest.isEmpty { rest = Deque() }
        }
        return oldest
    }

    /// Empties the queue and gives its storage back.
    mutating func removeAll() {
        first = nil
        rest = Deque()
    }
}
