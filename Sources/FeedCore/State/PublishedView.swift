import Foundation
import NIOConcurrencyHelpers

/// What pages, `/api/items` and `/events/items` show: the items of the document at the
/// last change that passed the version guard.
///
/// Immutable; a new value is made each time the view advances, carrying how its items
/// differ from the view it replaced: computed once, in the store's commit, and read by
/// every stream, `/stats` and the page renderer.
public final class PublishedView: Sendable {
    /// When this view was published (or restored).
    public let publishedAt: Date
    /// The epoch of the change that published this view: with ``seq``, its id
    /// (`EPOCH-SEQ`, ``id``).
    public let epoch: String
    /// The sequence number of the change that published this view.
    public let seq: UInt64
    /// The document's version (the number at the profile's version path), if it has one.
    public let version: Double?
    /// The items in feed order. Chunked: the next view shares every chunk a change did not
    /// touch, so publishing a view does not copy every item.
    public let items: ChunkedArray<FeedItem>
    /// The sequence number of the view this one replaced (`nil`: the first view, or a
    /// restored one).
    public let previousSeq: UInt64?
    /// How `items` differ from the items of the view at `previousSeq`, in
    /// ``ItemChange/between(_:_:)``'s order; every item `added` for the first view.
    public let itemChanges: [ItemChange]
    /// How the items were read: the profile (news or a table, its columns), how it was
    /// chosen. `nil` in views made without one (tests): read as news.
    public let reading: ItemReading?
    /// What the document holds where the items should be, in words, when it holds no
    /// items array there (``ItemReading/problem(in:)``); `nil` when the items were read.
    public let itemsProblem: String?
    /// The items left out because each has the key of one before it: in append mode the
    /// earlier versions of an item (only the newest is shown), else what ``itemsProblem``
    /// counts.
    public let hiddenItems: Int
    private let sectionCache = NIOLockedValueBox<[String]?>(nil)
    /// `items` by key, made when first asked for (most views are never asked: building it
    /// for each change would cost a pass over every item).
    private let keyIndex = NIOLockedValueBox<[String: FeedItem]?>(nil)

    /// A view whose changes are computed here (a full diff against
    /// `previous`).
    public convenience init(
        epoch: String, seq: UInt64, version: Double?, items: ChunkedArray<FeedItem>, previous: PublishedView? = nil,
        publishedAt: Date = Date(), reading: ItemReading? = nil
    ) {
        self.init(
            epoch: epoch, seq: seq, version: version, items: items,
            previousSeq: previous?.seq, itemChanges: ItemChange.between(previous?.items ?? [], items),
            publishedAt: publishedAt, reading: reading)
    }

    /// A view whose changes the caller already has.
    public init(
        epoch: String, seq: UInt64, version: Double?, items: ChunkedArray<FeedItem>,
        previousSeq: UInt64?, itemChanges: [ItemChange], publishedAt: Date = Date(), reading: ItemReading? = nil,
        itemsProblem: String? = nil, hiddenItems: Int = 0
    ) {
        self.reading = reading
        self.itemsProblem = itemsProblem
        self.hiddenItems = hiddenItems
        self.publishedAt = publishedAt
        self.epoch = epoch
        self.seq = seq
        self.version = version
        self.items = items
        self.previousSeq = previousSeq
        self.itemChanges = itemChanges
    }

    /// The id of the change that published this view.
    public var id: EventID { EventID(epoch: epoch, seq: seq) }

    /// The profile the items were read with (the NYT newswire's for a view made without a
    /// reading).
    public var profile: ItemProfile { reading?.profile ?? .nytNewswire }

    /// Lets go of the sections and the index by key made on first use (a view of the
    /// past, kept by ``FeedPast``, keeps only what it shares with its neighbours); they are
    /// made again if asked for.
    public func forgetCaches() {
        sectionCache.withLockedValue { $0 = nil }
        keyIndex.withLockedValue { $0 = nil }
    }

    /// The distinct sections of the items, in feed order: computed once per view, when first
    /// asked for.
    public var sections: [String] {
        if let cached = sectionCache.withLockedValue({ $0 }) { return cached }
        var sections: [String] = []
        var seen = Set<String>()
        for item in items {
            if let section = item.section, seen.insert(section).inserted { sections.append(section) }
        }
        sectionCache.withLockedValue { $0 = sections }
        return sections
    }

    /// The items a reader filtered to `section` sees, in feed order (`nil`: all of them).
    public func items(inSection section: String?) -> ChunkedArray<FeedItem> {
        guard let section else { return items }
        return ChunkedArray(items.lazy.filter { $0.section == section })
    }

    /// `items` by key: made once per view, when first asked for.
    public var itemsByKey: [String: FeedItem] {
        if let cached = keyIndex.withLockedValue({ $0 }) { return cached }
        var byKey: [String: FeedItem] = [:]
        byKey.reserveCapacity(items.count)
        for item in items where byKey[item.key] == nil {
            byKey[item.key] = item
        }
        keyIndex.withLockedValue { $0 = byKey }
        return byKey
    }

    /// The item with `key`, if it is in this view.
    public func item(forKey key: String) -> FeedItem? {
        itemsByKey[key]
    }

    /// The item-level changes that lead from `previous` to this view: the ones computed at
    /// commit when `previous` is the view this one replaced, else a diff.
    public func itemChanges(since previous: PublishedView?) -> [ItemChange] {
        if previous === self { return [] }
        if let previous, previous.seq == previousSeq { return itemChanges }
        if previous == nil && previousSeq == nil { return itemChanges }
        return ItemChange.between(previous?.items ?? [], items)
    }
}
