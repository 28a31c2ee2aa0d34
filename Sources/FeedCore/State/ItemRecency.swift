/// When each item put in place (``FeedStore/putItems(_:idAt:keep:position:arrival:)``)
/// was last put, by its id: which of the kept items a full `--keep` lets go of when a new
/// one comes. A ticker of more products than `--keep` then drops the product quiet the
/// longest, not whichever happens to sit last, and the rows that are ticking stay.
///
/// Invariants:
/// - Each put gets the next tick of a clock of its own, so ids put in one batch are
///   ordered as they came.
/// - An id never put (kept from before feedweb connected, restored, or without an id)
///   counts as put before any; among those the item last in place goes first, as it did
///   before anything was known.
/// - It holds at most about twice the ids kept: ids no longer kept are forgotten once it
///   holds more (``forget(keep:allBut:)``).
struct ItemRecency: Sendable {
    private var clock: UInt64 = 0
    private var lastPut: [JSONValue: UInt64] = [:]

    /// Records that `ids` were put now, oldest first.
    mutating func put(_ ids: some Sequence<JSONValue>) {
        for id in ids {
            clock += 1
            lastPut[id] = clock
        }
    }

    /// The indices of the `count` items of `ids` (each kept item's id by its index, `nil`
    /// for none) put least recently, leaving out the indices in `sparing`; the least
    /// recent first. Fewer when there are not that many to choose from.
    ///
    /// One pass over `ids`, holding the `count` chosen so far in order: a new item each
    /// time (`count` 1) is a pass, not a sort of every kept item (`--keep` may be 100,000);
    /// only when a sixteenth of them or more go are they sorted.
    func leastRecent(_ count: Int, of ids: [JSONValue?], sparing: Set<Int>) -> [Int] {
        guard count > 0 else { return [] }
        // Oldest tick first; of equal ticks (never put), the one further down first.
        func precedes(_ a: (tick: UInt64, index: Int), _ b: (tick: UInt64, index: Int)) -> Bool {
            a.tick != b.tick ? a.tick < b.tick : a.index > b.index
        }
        if count * 16 >= ids.count {
            // Many of them go (a burst of new ones): a sort is the cheaper way.
            var all: [(tick: UInt64, index: Int)] = []
            all.reserveCapacity(ids.count)
            for (index, id) in ids.enumerated() where !sparing.contains(index) {
                all.append((id.flatMap { lastPut[$0] } ?? 0, index))
            }
            all.sort(by: precedes)
            return all.prefix(count).map(\.index)
        }
        var chosen: [(tick: UInt64, index: Int)] = []
        chosen.reserveCapacity(count + 1)
        for (index, id) in ids.enumerated() where !sparing.contains(index) {
            let candidate = (tick: id.flatMap { lastPut[$0] } ?? 0, index: index)
            if chosen.count == count, let last = chosen.last, !precedes(candidate, last) { continue }
            // Where it goes among those chosen (binary search), the last let go past `count`.
            var low = 0
            var high = chosen.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(chosen[middle], candidate) { low = middle + 1 } else { high = middle }
            }
            chosen.insert(candidate, at: low)
            if chosen.count > count { chosen.removeLast() }
        }
        return chosen.map(\.index)
    }

    /// Forgets every id but those `kept` returns, once it holds more than twice `keep` (and
    /// more than 64): `kept` is worked out only then.
    mutating func forget(keep: Int, allBut kept: () -> Set<JSONValue>) {
        guard lastPut.count > 2 * max(keep, 32) else { return }
        let keptIDs = kept()
        lastPut = lastPut.filter { keptIDs.contains($0.key) }
    }
}
