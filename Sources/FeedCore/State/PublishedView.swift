import Foundation

/// What pages, `/api/items` and `/events/items` show: the document at the last change
/// that passed the version guard, and its items.
///
/// Immutable; a new value is made each time the view advances.
public final class PublishedView: Sendable {
    /// When this view was published (or restored).
    public let publishedAt: Date
    /// The sequence number of the change that published this view.
    public let seq: UInt64
    /// The published document.
    public let document: JSONValue
    /// The document's version (the number at the profile's version path), if it has one.
    public let version: Double?
    /// The items in feed order.
    public let items: [FeedItem]
    /// Index into `items` by key.
    public let indexByKey: [String: Int]

    public init(seq: UInt64, document: JSONValue, version: Double?, items: [FeedItem], publishedAt: Date = Date()) {
        self.publishedAt = publishedAt
        self.seq = seq
        self.document = document
        self.version = version
        self.items = items
        var index: [String: Int] = [:]
        index.reserveCapacity(items.count)
        for (position, item) in items.enumerated() where index[item.key] == nil {
            index[item.key] = position
        }
        self.indexByKey = index
    }

    /// The item with `key`, if it is in this view.
    public func item(forKey key: String) -> FeedItem? {
        indexByKey[key].map { items[$0] }
    }
}
