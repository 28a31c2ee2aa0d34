import FeedCore
import Testing

@testable import WebUI

/// How a list frame's order is told to the page: a few ids for new entries on top and
/// gone ones, the whole order for anything else.
struct ListOrderChangeTests {
    static func items(_ keys: [String]) -> ChunkedArray<FeedItem> { ChunkedArray(keys.map { FeedItem(key: $0) }) }
    static func added(_ key: String) -> ItemChange { ItemChange(kind: .added, item: FeedItem(key: key)) }
    static func removed(_ key: String) -> ItemChange { ItemChange(kind: .removed, item: FeedItem(key: key)) }
    static func updated(_ key: String) -> ItemChange {
        var item = FeedItem(key: key)
        item.title = "new"
        return ItemChange(kind: .updated, item: item, previous: FeedItem(key: key))
    }

    @Test func newEntriesOnTopAndTheOldestGoneAreADelta() {
        let change = ListOrderChange(
            before: Self.items(["c", "b", "a"]), after: Self.items(["e", "d", "c", "b"]),
            changes: [Self.added("e"), Self.added("d"), Self.removed("a")])
        #expect(change == .delta(prepend: ["e", "d"], remove: ["a"]))
    }

    @Test func aRemovalFromTheMiddleIsADelta() {
        let change = ListOrderChange(
            before: Self.items(["c", "b", "a"]), after: Self.items(["c", "a"]), changes: [Self.removed("b")])
        #expect(change == .delta(prepend: [], remove: ["b"]))
    }

    @Test func anUpdateInPlaceLeavesTheOrderUnchanged() {
        let items = Self.items(["c", "b", "a"])
        #expect(ListOrderChange(before: items, after: items, changes: [Self.updated("b")]) == .unchanged)
        #expect(ListOrderChange(before: items, after: items, changes: []) == .unchanged)
    }

    @Test func aMoveIsAReorder() {
        #expect(
            ListOrderChange(before: Self.items(["c", "b", "a"]), after: Self.items(["b", "c", "a"]), changes: [])
                == .reordered)
        // Moved and updated at once: the update alone does not explain the new order.
        #expect(
            ListOrderChange(
                before: Self.items(["c", "b", "a"]), after: Self.items(["c", "a", "b"]), changes: [Self.updated("b")])
                == .reordered)
    }

    @Test func anEntryAddedBelowTheTopIsAReorder() {
        let change = ListOrderChange(
            before: Self.items(["c", "a"]), after: Self.items(["c", "b", "a"]), changes: [Self.added("b")])
        #expect(change == .reordered)
    }

    @Test func changesThatDoNotMatchTheListsAreAReorder() {
        // Told of a removal the lists do not show: never trust a delta that would not
        // reproduce `after`.
        #expect(
            ListOrderChange(
                before: Self.items(["b", "a"]), after: Self.items(["b", "a"]), changes: [Self.removed("a")])
                == .reordered)
        #expect(
            ListOrderChange(
                before: Self.items(["b", "a"]), after: Self.items(["c", "b", "a"]), changes: [])
                == .reordered)
    }
}
