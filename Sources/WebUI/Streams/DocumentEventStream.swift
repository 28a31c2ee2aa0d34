import FeedCore
import NIOConcurrencyHelpers

/// `/events` (and the demo's `/demo/upstream`): the mirror re-broadcast in the document
/// protocol it was received in (``DocumentEvents``).
///
/// A new client gets `retry:`, then either a `data` event with the whole document or, when
/// it resumes with an id of this epoch still in the history, only the patches it missed.
/// Then one `patch` per accepted change. Ids are `EPOCH-SEQ`. In snapshot-only mode
/// (`Accept: application/json`) every change is a full `data` event. A client too far
/// behind (its unsent bytes would pass the per-client bound,
/// ``FeedwebConfiguration/Streams/maxQueuedBytesPerClient``) gets a fresh `data` in place of
/// its backlog: every patch, or the newest state, never a silent gap.
public final class DocumentEventStream: Sendable {
    public typealias Mode = DocumentEvents.Mode

    /// Where the clients are: `/events`' in the ``Shard/events`` broadcaster of the shard
    /// the server handed each, or, the demo's upstream (a few clients, of another store),
    /// all in one broadcaster of the stream's own.
    private enum Clients {
        case sharded([Shard])
        case own(Broadcaster<Mode, FeedSnapshot>)
    }

    private let clients: Clients
    private let store: FeedStore
    /// The `data` event of the newest snapshot, encoded once for every client that needs it.
    ///
    /// Guards only that pair; taken holding no lock (a publish, a new client's first bytes)
    /// and a leaf: nothing is taken while it is held, and the event is encoded between a
    /// miss and the store, outside it.
    private let dataEventCache = NIOLockedValueBox<(id: EventID, bytes: [UInt8])?>(nil)

    /// Told how long each change took to reach every shard's clients, in nanoseconds.
    private let onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)?

    /// `/events` of `store`, whose clients are in `shards`' ``Shard/events``.
    ///
    /// - Parameter onPublish: told, once per change, how long it took from the start of its
    ///   fan-out to the last client's bytes queued in the slowest shard (encoding included).
    public init(store: FeedStore, shards: [Shard], onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil) {
        precondition(!shards.isEmpty, "a sharded stream has at least one shard")
        self.store = store
        self.onPublish = onPublish
        self.clients = .sharded(shards)
    }

    /// A stream of `store` whose clients are all in one broadcaster of its own, whatever
    /// shard the server hands them (the demo's upstream).
    public init(ownClientsOf store: FeedStore) {
        self.store = store
        self.onPublish = nil
        self.clients = .own(Broadcaster(initial: store.snapshot))
    }

    /// Every broadcaster the clients are in.
    var broadcasters: [Broadcaster<Mode, FeedSnapshot>] {
        switch clients {
        case .sharded(let shards): shards.map(\.events)
        case .own(let broadcaster): [broadcaster]
        }
    }

    /// The broadcaster of a client the server handed `shard`.
    private func broadcaster(for shard: Shard) -> Broadcaster<Mode, FeedSnapshot> {
        switch clients {
        case .sharded: shard.events
        case .own(let broadcaster): broadcaster
        }
    }

    /// The number of connected clients.
    public var clientCount: Int { broadcasters.reduce(0) { $0 + $1.count } }

    /// What the stream has queued and dropped since start, all shards together.
    var traffic: StreamTraffic { broadcasters.reduce(StreamTraffic()) { $0 + $1.traffic } }

    /// Queues the change to every client (the fan-out stage's consumer); a client too far
    /// behind to take it (its queue would pass the bound) gets a fresh `data` of the new
    /// state instead of its backlog.
    func deliver(_ change: FanoutChange) {
        let patch = change.patchEvent
        let start = MonotonicTime.now()
        defer { onPublish?(MonotonicTime.now() &- start) }
        let publish: @Sendable (Broadcaster<Mode, FeedSnapshot>) -> Void = { broadcaster in
            broadcaster.publish(
                change.snapshot,
                encode: { mode, snapshot in
                    if mode == .patches, let patch { return patch }
                    return self.dataEvent(for: snapshot)
                },
                catchUp: { _, snapshot in self.dataEvent(for: snapshot) })
        }
        switch clients {
        case .sharded(let shards): EveryShard.run(shards, clients: shards.map(\.events.count)) { publish($0.events) }
        case .own(let broadcaster): publish(broadcaster)
        }
    }

    /// Subscribes `stream`, which the server handed `shard`, to this stream's events in
    /// `mode`; `lastEventID` is the client's resume point, if any.
    public func subscribe(_ stream: StreamConnection, on shard: Shard, mode: Mode, lastEventID: String?) {
        broadcaster(for: shard).subscribe(stream, to: mode) { current in
            var first: [[UInt8]] = [DocumentEvents.retry()]
            guard let current else { return first }
            if mode == .patches, let text = lastEventID, let id = EventID(parsing: text) {
                switch store.resume(after: id, through: current.id.seq) {
                case .upToDate:
                    return first
                case .patches(let entries):
                    for entry in entries {
                        first.append(
                            DocumentEvents.patch(
                                id: EventID(epoch: id.epoch, seq: entry.seq), encodedPatch: entry.encodedPatch))
                    }
                    return first
                case .needsSnapshot:
                    break
                }
            }
            first.append(dataEvent(for: current))
            return first
        }
    }

    /// Removes `stream`, subscribed on `shard`, from its broadcaster.
    public func unsubscribe(_ stream: StreamConnection, on shard: Shard) {
        broadcaster(for: shard).unsubscribe(stream)
    }

    /// The event every patch-mode client gets for `change`: its `patch`, or the `data` of
    /// its state (made now and cached, the same bytes the clients then get).
    func eventBytes(for change: FanoutChange) -> [UInt8] {
        change.patchEvent ?? dataEvent(for: change.snapshot)
    }

    /// The `data` event of `snapshot`: cached, or made now and cached.
    private func dataEvent(for snapshot: FeedSnapshot) -> [UInt8] {
        if let cached = dataEventCache.withLockedValue({ $0 }), cached.id == snapshot.id {
            return cached.bytes
        }
        let bytes = DocumentEvents.data(of: snapshot)
        dataEventCache.withLockedValue { $0 = (snapshot.id, bytes) }
        return bytes
    }
}
