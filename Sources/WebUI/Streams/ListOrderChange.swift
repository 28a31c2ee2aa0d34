import FeedCore

/// How a list page's entries go from one frame's order to the next: what the page stream's
/// `items` event tells the page, worked out without I/O.
///
/// Most frames only put new stories on top and drop some (an append feed's whole life; a
/// story updated in place moves nothing). Such a frame is a ``delta``: the page inserts the
/// new entries first and removes the gone ones, and the event carries a few ids, not the
/// whole order, so both sides do work proportional to the change, not to the list. Any
/// other reordering is ``reordered``: the event carries the whole order again.
enum ListOrderChange: Equatable {
    /// The same entries in the same order.
    case unchanged
    /// `prepend` (new entries, top first) go on top; `remove` (keys) go; the rest keep
    /// their order.
    case delta(prepend: [String], remove: [String])
    /// Anything else: the page needs the whole new order.
    case reordered

    /// The change from `before` to `after` (the entries one channel shows, top first),
    /// given `changes`: the item changes between them as that channel sees them (already
    /// filtered to its section).
    ///
    /// Cost: one walk over both lists comparing keys (a string identity check for an item
    /// that did not change), plus set look-ups only for the keys that differ.
    init(before: ChunkedArray<FeedItem>, after: ChunkedArray<FeedItem>, changes: [ItemChange]) {
        var added: Set<String> = []
        var removed: Set<String> = []
        var removedInOrder: [String] = []
        for change in changes {
            switch change.kind {
            case .added: added.insert(change.item.key)
            case .removed:
                if removed.insert(change.item.key).inserted { removedInOrder.append(change.item.key) }
            case .updated: continue
            }
        }
        let top = added.count
        guard top <= after.count, after.count - top + removed.count == before.count else {
            self = .reordered
            return
        }
        var prepend: [String] = []
        prepend.reserveCapacity(top)
        for item in after.prefix(top) {
            guard added.contains(item.key) else {
                self = .reordered
                return
            }
            prepend.append(item.key)
        }
        // The rest of `after` is `before` without the removed entries, in order.
        var rest = after.dropFirst(top).makeIterator()
        var expected = rest.next()
        var skipped = 0
        for item in before {
            if let current = expected, current.key == item.key {
                expected = rest.next()
            } else if removed.contains(item.key) {
                skipped += 1
            } else {
                self = .reordered
                return
            }
        }
        guard expected == nil, skipped == removed.count else {
            self = .reordered
            return
        }
        self = prepend.isEmpty && removedInOrder.isEmpty ? .unchanged : .delta(prepend: prepend, remove: removedInOrder)
    }
}
