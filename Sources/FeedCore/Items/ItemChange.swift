/// How one item differs between two published views.
public struct ItemChange: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case added, updated, removed
    }

    public let kind: Kind
    /// The item after the change (before it, for `removed`).
    public let item: FeedItem
    /// The item before the change, for `updated` (its section may have been another).
    public let previous: FeedItem?

    public init(kind: Kind, item: FeedItem, previous: FeedItem? = nil) {
        self.kind = kind
        self.item = item
        self.previous = previous
    }

    /// The `--mark` labels the item came to match with this change (``FeedItem/marks``):
    /// every one of an added item's, those of an updated one that its previous version did
    /// not match; none for a removal. A price above a mark's limit is notable when it
    /// crosses it, not at each change after.
    public var newMarks: [String] {
        switch kind {
        case .added: item.marks
        case .updated: item.marks.filter { !(previous?.marks.contains($0) ?? false) }
        case .removed: []
        }
    }

    /// The item-level changes from `old` to `new`, in `new`'s feed order, removals last.
    public static func between(_ old: some Collection<FeedItem>, _ new: some Collection<FeedItem>) -> [ItemChange] {
        var oldByKey: [String: FeedItem] = [:]
        oldByKey.reserveCapacity(old.count)
        for item in old where oldByKey[item.key] == nil { oldByKey[item.key] = item }
        var changes: [ItemChange] = []
        var seen = Set<String>()
        for item in new {
            seen.insert(item.key)
            if let before = oldByKey[item.key] {
                if before != item { changes.append(ItemChange(kind: .updated, item: item, previous: before)) }
            } else {
                changes.append(ItemChange(kind: .added, item: item))
            }
        }
        for item in old where !seen.contains(item.key) {
            seen.insert(item.key)
            changes.append(ItemChange(kind: .removed, item: item))
        }
        return changes
    }

    /// This change as seen by a client filtered to `section` (`nil`: unfiltered). An item
    /// that moved into the section is `added` for it, one that moved out is `removed`.
    public func filtered(to section: String?) -> ItemChange? {
        guard let section else { return self }
        let inNow = item.section == section
        switch kind {
        case .added: return inNow ? self : nil
        case .removed: return inNow ? self : nil
        case .updated:
            let inBefore = previous?.section == section
            switch (inBefore, inNow) {
            case (true, true): return self
            case (false, true): return ItemChange(kind: .added, item: item)
            case (true, false): return ItemChange(kind: .removed, item: previous ?? item)
            case (false, false): return nil
            }
        }
    }
}
