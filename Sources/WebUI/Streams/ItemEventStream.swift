import FeedCore
import NIOConcurrencyHelpers

/// `/events/items`: the published view at item level. A new client gets `retry:` and an
/// `event: snapshot` with every item (of its `?section=`), then `added`, `updated` and
/// `removed` events carrying the normalised item and its key. Ids are `EPOCH-SEQ` of the
/// change that published; a client resuming inside the store's history gets only what it
/// missed.
public final class ItemEventStream: Sendable {
    /// The shards whose ``Shard/items`` broadcasters hold the clients.
    private let shards: [Shard]
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

    /// `/events/items` of `store`, whose clients are in `shards`' ``Shard/items``.
    ///
    /// - Parameter onPublish: see ``DocumentEventStream/init(store:shards:onPublish:)``.
    init(store: FeedStore, shards: [Shard], onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil) {
        precondition(!shards.isEmpty, "a sharded stream has at least one shard")
        self.store = store
        self.onPublish = onPublish
        self.shards = shards
    }

    var broadcasters: [Broadcaster<String?, PublishedView>] { shards.map(\.items) }

    public var clientCount: Int { broadcasters.reduce(0) { $0 + $1.count } }

    /// What the stream has queued and dropped since start, all shards together.
    var traffic: StreamTraffic { broadcasters.reduce(StreamTraffic()) { $0 + $1.traffic } }

    /// Queues the item changes of a change that advanced the published view (the fan-out
    /// stage's consumer): a snapshot of each section for a first view.
    func deliver(_ change: FanoutChange) {
        guard change.publishedChanged else { return }
        let start = MonotonicTime.now()
        defer { onPublish?(MonotonicTime.now() &- start) }
        let view = change.snapshot.published
        guard let changes = change.itemChanges else {
            EveryShard.run(shards, clients: shards.map(\.items.count)) { shard in
                shard.items.publish(
                    view, encode: { section, view in self.snapshotEvent(view, section: section) },
                    catchUp: { section, view in self.snapshotEvent(view, section: section) })
            }
            return
        }
        let id = view.id
        let withOwn = view.profile.layout == .table
        // Each section's events are encoded once, by the first shard that has clients of it,
        // and the other shards queue the same bytes. The lock is a leaf, and the encoding
        // is done outside it (two shards may both encode a section; the first stored wins).
        let encoded = NIOLockedValueBox<[String?: [UInt8]]>([:])
        let encode: @Sendable (String?) -> [UInt8] = { section in
            if let known = encoded.withLockedValue({ $0[section] }) { return known }
            let made = ItemEvents.changes(changes, section: section, id: id, withOwn: withOwn)
            return encoded.withLockedValue { known in
                if let first = known[section] { return first }
                known[section] = made
                return made
            }
        }
        // A client too far behind gets a fresh `snapshot` of its section in place of its backlog.
        EveryShard.run(shards, clients: shards.map(\.items.count)) { shard in
            shard.items.publish(
                view, encode: { section, _ in encode(section) },
                catchUp: { section, view in self.snapshotEvent(view, section: section) })
        }
    }

    /// Subscribes `stream`, which the server handed `shard`, to the items of `section`
    /// (`nil`: all).
    public func subscribe(_ stream: StreamConnection, on shard: Shard, section: String?, lastEventID: String?) {
        shard.items.subscribe(stream, to: section) { current in
            var first: [[UInt8]] = [DocumentEvents.retry()]
            guard let current else { return first }
            if let text = lastEventID, let id = EventID(parsing: text),
                let missed = store.resumeItems(after: id, through: current.seq)
            {
                for step in missed {
                    first.append(
                        ItemEvents.changes(
                            step.itemChanges, section: section, id: EventID(epoch: id.epoch, seq: step.seq),
                            withOwn: current.profile.layout == .table))
                }
                return first
            }
            first.append(snapshotEvent(current, section: section))
            return first
        }
    }

    /// Removes `stream`, subscribed on `shard`, from its broadcaster.
    public func unsubscribe(_ stream: StreamConnection, on shard: Shard) {
        shard.items.unsubscribe(stream)
    }

    /// The `snapshot` event of `section` in `view`: cached, or made now and cached.
    private func snapshotEvent(_ view: PublishedView, section: String?) -> [UInt8] {
        let cached = snapshotCache.withLockedValue { cache in
            cache.flatMap { $0.view === view ? $0.events[section] : nil }
        }
        if let cached { return cached }
        let bytes = ItemEvents.snapshot(of: view, section: section)
        snapshotCache.withLockedValue { cache in
            var events = cache.flatMap { $0.view === view ? $0.events : nil } ?? [:]
            if events.count >= Self.maxCachedSections { events.removeAll() }
            events[section] = bytes
            cache = (view, events)
        }
        return bytes
    }
}
