import Foundation

/// The newest story the published view gained (or, failing that, changed): what the
/// ticker on `/stats` shows.
public struct TickerEntry: Sendable, Equatable {
    /// The item's title as the feed sent it (hostile until escaped).
    public let title: String
    /// The item's key, for `/items/{key}`.
    public let key: String
    /// Whether the item was new (`false`: an existing one changed).
    public let isNew: Bool
    /// When feedweb published it.
    public let time: Date

    public init(title: String, key: String, isNew: Bool, time: Date) {
        self.title = title
        self.key = key
        self.isNew = isNew
        self.time = time
    }
}
