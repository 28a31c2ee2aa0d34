import NIOConcurrencyHelpers

/// Fans events out to the clients of one kind of stream, grouped in channels (for
/// example one per `?section=` filter).
///
/// Invariants (under one lock):
/// - `current` is the state whose events were last published; a new client's first
///   bytes are computed from it, so a client never misses nor repeats an event across
///   its subscription.
/// - Each event is encoded once per channel per publish, and the same `[UInt8]` is queued
///   to every client of that channel.
/// What the timers need of every broadcaster, whatever its channel and state types.
public protocol StreamSweeping: Sendable {
    func broadcastToAll(_ bytes: [UInt8])
    func dropStalled(olderThan nanoseconds: UInt64)
    var count: Int { get }
}

public final class Broadcaster<Channel: Hashable & Sendable, State: Sendable>: StreamSweeping, @unchecked Sendable {
    /// Guards `current`, `channels`, `clientCount` and `totals`.
    ///
    /// WebUI's lock order, outermost first; it extends ``FeedStore``'s (`writeLock →
    /// deliveryLock → mirror → state`, written at `FeedStore.writeLock`):
    ///
    ///     FeedStore.deliveryLock → PageEventStream.publishLock → Broadcaster.lock
    ///       → StreamConnection.lock → libmicrohttpd's own (MHD_resume_connection)
    ///     Broadcaster.lock → StreamSender.lock (a leaf: the clients a fan-out made
    ///       ready, handed over in batches after each client's lock is released)
    ///
    /// - Taken holding `FeedStore.deliveryLock` (store observers publish: `/events`,
    ///   `/events/items`) or `PageEventStream.publishLock` (a page frame), or nothing
    ///   (subscribe and unsubscribe on the daemon thread, heartbeats, sweeps).
    /// - While it is held: each client's `StreamConnection.lock` (to queue); the `initial`
    ///   and `encode` closures, which may read `FeedStore`'s `state` (a resuming client's
    ///   history) and the leaf caches of the encoded bytes (`DocumentEventStream`'s
    ///   `dataEventCache`, `PageEventStream`'s `initialCache` and `fragmentRenders`,
    ///   `FeedSnapshot`'s and `PublishedView`'s). Never the store's `writeLock` or
    ///   `deliveryLock`, nor any lock to its left.
    /// - `onPublish` (metrics) runs after it is released.
    ///
    /// Every other WebUI lock is a leaf: nothing is taken while it is held (the page and
    /// API caches, the static files, the refused-stream count, `PageFramePacer`,
    /// `StatsRecorder`, `FeedwebMetrics`, `HTTPServer`'s state, `HangupWatcher`,
    /// `ConnectionReaper`'s state and its `sockets` lock, which it takes only after
    /// releasing its state), but one:
    ///
    ///     HTTPServer.handoverTarget → libmicrohttpd's own (MHD_add_connection)
    ///       → ConnectionReaper's state (if libmicrohttpd reports the new connection
    ///       from inside the hand-over)
    ///
    /// `handoverTarget` is taken holding nothing, by the front door's thread and by
    /// `HTTPServer.stop`.
    private let lock = NIOLock()
    private var current: State?
    private var channels: [Channel: [ObjectIdentifier: StreamConnection]] = [:]
    private var clientCount = 0
    private var totals = StreamTraffic()
    private let onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)?

    /// - Parameter onPublish: told how long each ``publish(_:encode:)`` took, in
    ///   nanoseconds from entry to the last client's bytes queued (encoding included); called
    ///   after the lock is released.
    public init(initial: State? = nil, onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil) {
        current = initial
        self.onPublish = onPublish
    }

    /// The number of connected clients across channels.
    public var count: Int {
        lock.withLock { clientCount }
    }

    /// The number of clients of `channel`.
    public func count(in channel: Channel) -> Int {
        lock.withLock { channels[channel]?.count ?? 0 }
    }

    /// Clients dropped because they stopped reading, since start.
    public var droppedCount: UInt64 {
        lock.withLock { totals.droppedClients }
    }

    /// What this broadcaster has queued and dropped since start.
    public var traffic: StreamTraffic {
        lock.withLock { totals }
    }

    /// The state last published.
    public var state: State? {
        lock.withLock { current }
    }

    /// Adds `stream` to `channel` and queues its first bytes, computed from the current
    /// state under the same lock that publishing takes.
    public func subscribe(_ stream: StreamConnection, to channel: Channel, initial: (State?) -> [[UInt8]]) {
        lock.withLock {
            let chunks = initial(current)
            if stream.enqueue(contentsOf: chunks) {
                totals.count(chunks)
            }
            channels[channel, default: [:]][ObjectIdentifier(stream)] = stream
            clientCount += 1
        }
    }

    /// Removes `stream` (when its request completes).
    public func unsubscribe(_ stream: StreamConnection, from channel: Channel) {
        lock.withLock {
            guard channels[channel]?.removeValue(forKey: ObjectIdentifier(stream)) != nil else { return }
            clientCount -= 1
            if channels[channel]?.isEmpty == true { channels[channel] = nil }
        }
    }

    /// Makes `state` current and queues, to each channel with clients, the bytes `encode`
    /// returns for it (`nil`: nothing for that channel).
    ///
    /// With `catchUp`, a client whose queue these bytes would pass the bound is not
    /// dropped: its unsent queue is replaced by what `catchUp` returns for its channel (one
    /// event with the whole of `state`), computed at most once per channel. Without it,
    /// such a client is dropped.
    public func publish(
        _ state: State, encode: (Channel, State) -> [UInt8]?, catchUp: ((Channel, State) -> [UInt8])? = nil
    ) {
        let start = StreamConnection.now()
        lock.withLock {
            current = state
            for (channel, clients) in channels {
                guard let bytes = encode(channel, state), !bytes.isEmpty else { continue }
                queueLocked(bytes, to: clients.values, catchUp: catchUp.map { make in { make(channel, state) } })
            }
        }
        onPublish?(StreamConnection.now() &- start)
    }

    /// Queues `bytes` to every client (heartbeats, `reload`).
    public func broadcastToAll(_ bytes: [UInt8]) {
        lock.withLock {
            for clients in channels.values {
                queueLocked(bytes, to: clients.values)
            }
        }
    }

    private func queueLocked(
        _ bytes: [UInt8], to clients: Dictionary<ObjectIdentifier, StreamConnection>.Values,
        catchUp: (() -> [UInt8])? = nil
    ) {
        var fresh: [UInt8]?
        var wakes = SenderWakes()
        defer { wakes.flush() }
        for client in clients {
            let (result, sender) = client.enqueue(bytes, whenFull: catchUp == nil ? .drop : .report, wakes: ())
            if let sender { wakes.add(client, for: sender) }
            switch result {
            case .queued: totals.count(bytes)
            case .dropped: totals.droppedClients += 1
            case .notOpen: break
            case .full:
                guard let catchUp else { break }
                let event = fresh ?? catchUp()
                fresh = event
                if client.catchUp(with: event) {
                    totals.count(event)
                    totals.catchUps += 1
                }
            }
        }
    }

    /// Drops clients that have had bytes waiting for longer than `nanoseconds`.
    public func dropStalled(olderThan nanoseconds: UInt64) {
        let now = StreamConnection.now()
        lock.withLock {
            for clients in channels.values {
                for client in clients.values where client.dropIfStalled(olderThan: nanoseconds, now: now) {
                    totals.droppedClients += 1
                }
            }
        }
    }
}
