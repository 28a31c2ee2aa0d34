import FeedCore
import NIOConcurrencyHelpers

/// `/events` (and the demo's `/demo/upstream`): the mirror re-broadcast in the document
/// protocol it was received in.
///
/// A new client gets `retry:`, then either a `data` event with the whole document or, when
/// it resumes with an id of this epoch still in the history, only the patches it missed.
/// Then one `patch` per accepted change. Ids are `EPOCH-SEQ`. In snapshot-only mode
/// (`Accept: application/json`) every change is a full `data` event. A client too far
/// behind (its unsent bytes would pass the per-client bound,
/// ``FeedwebConfiguration/Streams/maxQueuedBytesPerClient``) gets a fresh `data` in place of
/// its backlog: every patch, or the newest state, never a silent gap.
public final class DocumentEventStream: Sendable {
    /// The two encodings clients can ask for.
    public enum Mode: Hashable, Sendable {
        case patches
        case snapshots
    }

    /// The reconnection time sent to clients, in milliseconds.
    public static let retryMilliseconds = 2000

    /// One broadcaster per shard: a client is subscribed to its shard's, and each change is
    /// queued by every shard at once (``EveryShard``).
    let broadcasters: [Broadcaster<Mode, FeedSnapshot>]
    private let store: FeedStore
    /// The `data` event of the newest snapshot, encoded once for every client that needs it.
    ///
    /// Guards only that pair; taken holding no lock (a publish, a new client's first bytes)
    /// and a leaf: nothing is taken while it is held, and the event is encoded between a
    /// miss and the store, outside it.
    private let dataEventCache = NIOLockedValueBox<(id: EventID, bytes: [UInt8])?>(nil)

    /// Told how long each change took to reach every shard's clients, in nanoseconds.
    private let onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)?

    /// - Parameters:
    ///   - shards: how many shards the clients are spread over (at least 1).
    ///   - onPublish: told, once per change, how long it took from the start of its fan-out
    ///     to the last client's bytes queued in the slowest shard (encoding included).
    public init(store: FeedStore, shards: Int = 1, onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil) {
        self.store = store
        self.onPublish = onPublish
        self.broadcasters = (0..<max(1, shards)).map { _ in Broadcaster(initial: store.snapshot) }
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
        let start = StreamConnection.now()
        defer { onPublish?(StreamConnection.now() &- start) }
        EveryShard.run(broadcasters.count) { shard in
            broadcasters[shard].publish(
                change.snapshot,
                encode: { mode, snapshot in
                    if mode == .patches, let patch { return patch }
                    return self.dataEvent(for: snapshot)
                },
                catchUp: { _, snapshot in self.dataEvent(for: snapshot) })
        }
    }

    /// Subscribes `stream` to the broadcaster of `shard`; `lastEventID` is the client's
    /// resume point, if any.
    public func subscribe(_ stream: StreamConnection, shard: Int = 0, mode: Mode, lastEventID: String?) {
        broadcasters[shard % broadcasters.count].subscribe(stream, to: mode) { current in
            var first: [[UInt8]] = [SSEEncoder.retry(milliseconds: Self.retryMilliseconds)]
            guard let current else { return first }
            if mode == .patches, let text = lastEventID, let id = EventID(parsing: text) {
                switch store.resume(after: id, through: current.id.seq) {
                case .upToDate:
                    return first
                case .patches(let entries):
                    for entry in entries {
                        first.append(
                            Self.patchEvent(
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

    public func unsubscribe(_ stream: StreamConnection, shard: Int = 0) {
        broadcasters[shard % broadcasters.count].unsubscribe(stream)
    }

    /// The event every patch-mode client gets for `change`: its `patch`, or the `data` of
    /// its state (made now and cached, the same bytes the clients then get).
    func eventBytes(for change: FanoutChange) -> [UInt8] {
        change.patchEvent ?? dataEvent(for: change.snapshot)
    }

    private func dataEvent(for snapshot: FeedSnapshot) -> [UInt8] {
        if let cached = dataEventCache.withLockedValue({ $0 }), cached.id == snapshot.id {
            return cached.bytes
        }
        let id = snapshot.id.description
        let bytes: [UInt8]
        if let encoded = snapshot.encodedDocumentIfMade {
            bytes = SSEEncoder.event(type: "data", utf8Data: encoded, id: id)
        } else {
            // Encoded straight into the event, which is then the only copy of the document's
            // bytes this stream keeps (not a second one in the snapshot).
            bytes = SSEEncoder.event(type: "data", id: id, dataByteCount: snapshot.encodedByteCount) {
                snapshot.encodeDocument(into: &$0)
            }
        }
        dataEventCache.withLockedValue { $0 = (snapshot.id, bytes) }
        return bytes
    }

    static func patchEvent(id: EventID, encodedPatch: [UInt8]) -> [UInt8] {
        SSEEncoder.event(type: "patch", utf8Data: encodedPatch, id: id.description)
    }
}
