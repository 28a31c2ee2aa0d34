import FeedCore
import Foundation

/// What one `--webhook` is told: an item came to match a `--mark` (``ItemChange/newMarks``).
/// Pure: the notifier makes one per item and mark of a change, once, and sends its ``body``
/// to every webhook.
///
/// The body is JSON (`application/json`):
/// `{"text":"Above 100: BTC","mark":"Above 100","key":"BTC","title":"BTC",
///   "url":"https://dash.example/items/BTC","at":"2026-12-05T01:50:00Z","feed":"Prices",
///   "item":{…the item as the feed sent it…}}`;
/// `text` is the sentence a chat's incoming webhook shows (Slack's, Mattermost's, Google
/// Chat's), `content` the same for Discord's. Every value is data: a receiver escapes it.
struct WebhookNotification: Sendable, Equatable {
    let mark: String
    let key: String
    /// The item's title, or `nil` when it has none.
    let title: String?
    /// The item's page on feedweb.
    let url: String
    let at: Date
    /// The board's name (`--title`).
    let feed: String
    /// The item as the feed sent it.
    let item: JSONValue

    /// The notifications of `changes`: one per item and mark it came to match, in feed order.
    static func of(_ changes: [ItemChange], at time: Date, feed: String, links: PageLinks, origin: String)
        -> [WebhookNotification]
    {
        changes.flatMap { change in
            change.newMarks.map { mark in
                let path = links.item(change.item.key)
                return WebhookNotification(
                    mark: mark, key: change.item.key, title: change.item.title,
                    url: path.hasPrefix("/") ? origin + path : path, at: time, feed: feed, item: change.item.raw)
            }
        }
    }

    /// The sentence a person reads: the mark, then the item's title or key.
    var text: String { "\(mark): \(title ?? key)" }

    /// The JSON body POSTed.
    var body: [UInt8] {
        let object: JSONValue = .object([
            "text": .string(text), "content": .string(text), "mark": .string(mark), "key": .string(key),
            "title": title.map(JSONValue.string) ?? .null, "url": .string(url),
            "at": .string(RelativeTime.machine(at)), "feed": .string(feed), "item": item,
        ])
        return Array(object.serializedString().utf8)
    }
}
