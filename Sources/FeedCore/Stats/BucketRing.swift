/// A fixed number of ``StatsBucket``s in a ring: bucket `index` lives in slot
/// `index mod capacity`, so memory never grows, however long the process runs.
///
/// Invariant: a slot holds the bucket of the last index written to it; a read of another
/// index that maps to the same slot finds nothing. Writing an index evicts whatever older
/// bucket shared its slot, so a caller that wants the newest `capacity` windows must not
/// write an index `capacity` or more behind the newest it wrote (``FeedStatistics`` checks).
struct BucketRing: Sendable {
    private var slots: [StatsBucket]

    /// The number of windows the ring holds.
    var capacity: Int { slots.count }

    init(capacity: Int) {
        // Int64.min never matches a real index: every slot starts empty.
        slots = Array(repeating: StatsBucket(index: .min), count: max(1, capacity))
    }

    /// The bucket of window `index`, or `nil` when nothing was recorded in it (or it was
    /// evicted).
    func bucket(_ index: Int64) -> StatsBucket? {
        let slot = slots[Self.slot(index, capacity: slots.count)]
        return slot.index == index ? slot : nil
    }

    /// Changes the bucket of window `index`, starting it empty if its slot held another.
    mutating func update(_ index: Int64, _ change: (inout StatsBucket) -> Void) {
        let slot = Self.slot(index, capacity: slots.count)
        if slots[slot].index != index { slots[slot] = StatsBucket(index: index) }
        change(&slots[slot])
    }

    private static func slot(_ index: Int64, capacity: Int) -> Int {
        let remainder = Int(index % Int64(capacity))
        return remainder < 0 ? remainder + capacity : remainder
    }
}
