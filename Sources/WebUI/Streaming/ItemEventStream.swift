import FeedCore
import NIOConcurrencyHelpers

/// `/events/items`: the published view at item level. A new client gets `retry:` and an
/// `event: snapshot` with every item (of its `?section=`), then `added`, `updated` and
/// `removed` events carrying the normalised item and its key. Ids are `EPOCH-SEQ` of the
/// change that published; a client resuming inside the store's history gets only what it
/// missed.
public final class ItemEventStream: Sendable {
    /// One broadcaster per shard (see ``DocumentEventStream/broadcasters``).
    let broadcasters: [Broadcaster<String?, PublishedView>]
    private let store: FeedStore
    /// The `snapshot` events of one published view, by section, each encoded once for every
    /// client that needs it (a new client, a client caught up), as `/events` caches its
    /// `data` event. Holds at most ``maxCachedSections`` sections.
    ///
    /// Guards only that pair; taken holding no lock (a publish's catch-ups, a new client's
    /// first bytes) and a leaf: an event is encoded between a miss and the store, outside it.
    private let snapshotCache = NIOLockedValueBox<(view: PublishedView, events: [String?: [UInt8]])?>(nil)
    /// The most sections whose `snapshot` events are cached for one view; past it the
    /// cache starts over (sections are named by clients, `?section=`).
    static let maxCachedSections = 1024

    /// Told how long each published change took to reach every shard's clients.
    private let onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)?

    /// - Parameters:
    ///   - shards: how many shards the clients are spread over (at least 1).
    ///   - onPublish: see ``DocumentEventStream/init(store:shards:onPublish:)``.
    public init(store: FeedStore, shards: Int = 1, onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil) {
        self.store = store
        self.onPublish = onPublish
        self.broadcasters = (0..<max(1, shards)).map { _ in Broadcaster(initial: store.snapshot?.published) }
    }

    public var clientCount: Int { broadcasters.reduce(0) { $0 + $1.count } }

    /// What the stream has queued and dropped since start, all shards together.
    var traffic: StreamTraffic { broadcasters.reduce(StreamTraffic()) { $0 + $1.traffic } }

    /// Queues the item changes of a change that advanced the published view (the fan-out
    /// stage's consumer): a snapshot of each section for a first view.
    func deliver(_ change: FanoutChange) {
        guard change.publishedChanged else { return }
        let start = StreamConnection.now()
        defer { onPublish?(StreamConnection.now() &- start) }
        let view = change.snapshot.published
        guard let changes = change.itemChanges else {
            EveryShard.run(broadcasters.count) { shard in
                broadcasters[shard].publish(
                    view, encode: { section, view in self.snapshotEvent(view, section: section) },
                    catchUp: { section, view in self.snapshotEvent(view, section: section) })
            }
            return
        }
        let id = view.id
        // A client too far behind gets a fresh `snapshot` of its section in place of its backlog.
        EveryShard.run(broadcasters.count) { shard in
            broadcasters[shard].publish(
                view,
                encode: { section, view in
                    Self.encode(changes, section: section, id: id, withOwn: view.profile.layout == .table)
                },
                catchUp: { section, view in self.snapshotEvent(view, section: section) })
        }
    }

    /// Subscribes `stream`, on the broadcaster of `shard`, to the items of `section` (`nil`:
    /// all).
    public func subscribe(_ stream: StreamConnection, shard: Int = 0, section: String?, lastEventID: String?) {
        broadcasters[shard % broadcasters.count].subscribe(stream, to: section) { current in
            var first: [[UInt8]] = [SSEEncoder.retry(milliseconds: DocumentEventStream.retryMilliseconds)]
            guard let current else { return first }
            if let text = lastEventID, let id = EventID(parsing: text),
                let missed = store.resumeItems(after: id, through: current.seq)
            {
                for step in missed {
                    first.append(
                        Self.encode(
                            step.itemChanges, section: section, id: EventID(epoch: id.epoch, seq: step.seq),
                            withOwn: current.profile.layout == .table))
                }
                return first
            }
            first.append(snapshotEvent(current, section: section))
            return first
        }
    }

    public func unsubscribe(_ stream: StreamConnection, shard: Int = 0) {
        broadcasters[shard % broadcasters.count].unsubscribe(stream)
    }

    /// The `snapshot` event of `section` in `view`: cached, or encoded now and cached.
    private func snapshotEvent(_ view: PublishedView, section: String?) -> [UInt8] {
        let cached = snapshotCache.withLockedValue { cache in
            cache.flatMap { $0.view === view ? $0.events[section] : nil }
        }
        if let cached { return cached }
        let items = view.items(inSection: section)
        let withOwn = view.profile.layout == .table
        let bytes = SSEEncoder.event(
            type: "snapshot", data: JSONValue.array(items.map { $0.json(withOwn: withOwn) }).serializedString(),
            id: view.id.description)
        snapshotCache.withLockedValue { cache in
            var events = cache.flatMap { $0.view === view ? $0.events : nil } ?? [:]
            if events.count >= Self.maxCachedSections { events.removeAll() }
            events[section] = bytes
            cache = (view, events)
        }
        return bytes
    }

    /// The events of `changes` for a client of `section`; with `withOwn`, each item's own
    /// JSON too (a table's: ``FeedItem/json(withOwn:)``).
    static func encode(_ changes: [ItemChange], section: String?, id: EventID, withOwn: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for change in changes {
            guard let visible = change.filtered(to: section) else { continue }
            let data: JSONValue
            switch visible.kind {
            case .added, .updated: data = visible.item.json(withOwn: withOwn)
            case .removed:
                data = .object([
                    "key": .string(visible.item.key), "section": visible.item.section.map(JSONValue.string) ?? .null,
                ])
            }
            SSEEncoder.event(
                type: visible.kind.rawValue, data: data.serializedString(), id: id.description, into: &bytes)
        }
        return bytes
    }
}
