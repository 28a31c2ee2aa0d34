import NIOConcurrencyHelpers

/// What the timers need of every broadcaster, whatever its channel and state types.
public protocol StreamSweeping: Sendable {
    func broadcastToAll(_ bytes: [UInt8])
    func dropStalled(olderThan nanoseconds: UInt64)
    var count: Int { get }
}

/// Fans events out to the clients of one kind of stream, grouped in channels (for
/// example one per `?section=` filter, or one per page view). A client may be in several
/// channels at once (a page stream serving several views) and then gets each one's events.
///
/// Invariants (under one lock):
/// - `current` is the state whose events were last published; a new client's first
///   bytes are computed from it, so a client never misses nor repeats an event across
///   its subscription.
/// - Each event is encoded once per channel per publish, and the same `[UInt8]` is queued
///   to every client of that channel.
/// - `subscriptions` holds every client once, with the channels it is in; `channels`
///   holds the same clients by channel.
public final class Broadcaster<Channel: Hashable & Sendable, State: Sendable>: StreamSweeping, @unchecked Sendable {
    /// Guards `current`, `channels`, `subscriptions`, `channelSubscriptions` and `totals`.
    ///
    /// WebUI's lock order, outermost first, in one place; it extends ``FeedStore``'s
    /// (`writeLock → deliveryLock → mirror → state`, written at `FeedStore.writeLock`):
    ///
    ///     FeedStore.deliveryLock → FanoutStage's pending count (a leaf: the change is
    ///       queued; the consumers run on the stage's queue, holding no lock of the store)
    ///     PageEventStream.publishLock → Broadcaster.lock → StreamConnection.lock
    ///       → libmicrohttpd's own (MHD_resume_connection) and DaemonLoop's wake-up
    ///     Broadcaster.lock → StreamSender.lock (a leaf: the clients a fan-out made
    ///       ready, handed over in batches after each client's lock is released)
    ///     EventLog's state → WriteMarks' (each sender's marks, leaves), for `/inspect`
    ///
    /// `/inspect`'s frame (``Inspector/frame(now:)``) is taken holding nothing: it reads the
    /// event log, then each broadcaster's clients (``clients()``, releasing this lock
    /// before each client's own is taken), never under this lock.
    ///
    /// - Taken holding nothing (a fan-out consumer publishing `/events` or `/events/items`,
    ///   one broadcaster per shard, shards in parallel; subscribe and unsubscribe on a
    ///   daemon's thread; heartbeats; sweeps), or `PageEventStream.publishLock` (a page
    ///   frame). No two broadcasters' locks are ever held together.
    /// - While it is held: each client's `StreamConnection.lock` (to queue); the `initial`
    ///   closures, and the encoding of a channel whose first client came during a publish,
    ///   which may read `FeedStore`'s `state` (a resuming client's history) and the leaf
    ///   caches of encoded bytes (`DocumentEventStream`'s `dataEventCache`,
    ///   `PageEventStream`'s `initialCache` and `fragmentRenders`, `FeedSnapshot`'s and
    ///   `PublishedView`'s). Never any other lock of the store.
    /// - `onPublish` (metrics) runs after it is released.
    ///
    /// Every other WebUI lock is a leaf: nothing is taken while it is held (the page and
    /// API caches, the static files, the refused-stream count, `PageFramePacer`,
    /// `StatsRecorder`, `FeedwebMetrics`, `HTTPServer`'s state, `DaemonLoop`'s state,
    /// `UpstreamExchanges`, the `Inspector`'s screens, the `InspectFrameSource`,
    /// `HangupWatcher`, `ConnectionReaper`'s state and its `sockets` lock, which it takes
    /// only after releasing its state). libmicrohttpd is called holding no feedweb lock but
    /// a stream's (`MHD_resume_connection`, above, and `MHD_suspend_connection` in its
    /// content reader); `MHD_add_connection` and `MHD_run` on a `DaemonLoop`'s thread
    /// holding none.
    private let lock = NIOLock()
    private var current: State?
    private var channels: [Channel: [ObjectIdentifier: StreamConnection]] = [:]
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]
    /// The number of (client, channel) pairs.
    private var channelSubscriptions = 0
    private var totals = StreamTraffic()

    /// One client and the channels it is in.
    private struct Subscription {
        let stream: StreamConnection
        let channels: [Channel]
    }
    private let onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)?

    /// - Parameter onPublish: told how long each ``publish(_:encode:)`` took, in
    ///   nanoseconds from entry to the last client's bytes queued (encoding included); called
    ///   after the lock is released.
    public init(initial: State? = nil, onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil) {
        current = initial
        self.onPublish = onPublish
    }

    /// The number of connected clients (each counted once, whatever its channels).
    public var count: Int {
        lock.withLock { subscriptions.count }
    }

    /// The number of clients of `channel`.
    public func count(in channel: Channel) -> Int {
        lock.withLock { channels[channel]?.count ?? 0 }
    }

    /// The number of channels served to clients, summed over the clients (a client in
    /// three channels counts three).
    public var channelCount: Int {
        lock.withLock { channelSubscriptions }
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
        subscribe(stream, to: [channel], initial: initial)
    }

    /// Adds `stream` to each of `channels` (at least one; a repeated one counts once) and
    /// queues its first bytes, computed from the current state under the same lock that
    /// publishing takes. A stream is subscribed once.
    public func subscribe(_ stream: StreamConnection, to channels: [Channel], initial: (State?) -> [[UInt8]]) {
        var distinct: [Channel] = []
        for channel in channels where !distinct.contains(channel) { distinct.append(channel) }
        let id = ObjectIdentifier(stream)
        lock.withLock {
            guard subscriptions[id] == nil else { return }
            let chunks = initial(current)
            if stream.enqueue(contentsOf: chunks) {
                totals.count(chunks)
            }
            for channel in distinct { self.channels[channel, default: [:]][id] = stream }
            subscriptions[id] = Subscription(stream: stream, channels: distinct)
            channelSubscriptions += distinct.count
        }
    }

    /// Removes `stream` from every channel it is in (when its request completes).
    public func unsubscribe(_ stream: StreamConnection) {
        let id = ObjectIdentifier(stream)
        lock.withLock {
            guard let subscription = subscriptions.removeValue(forKey: id) else { return }
            for channel in subscription.channels {
                channels[channel]?.removeValue(forKey: id)
                if channels[channel]?.isEmpty == true { channels[channel] = nil }
            }
            channelSubscriptions -= subscription.channels.count
        }
    }

    /// Makes `state` current and queues, to each channel with clients, the bytes `encode`
    /// returns for it (`nil`: nothing for that channel).
    ///
    /// The bytes are encoded (and a page's fragments rendered) before the lock is taken, for
    /// the channels that have clients then; under the lock only the queuing happens (a
    /// channel whose first client came in between is encoded there, once). Each client's
    /// own lock is taken only to queue.
    ///
    /// With `catchUp`, a client whose queue these bytes would pass the bound is not
    /// dropped: its unsent queue is replaced by what `catchUp` returns for its channels
    /// (one event each with the whole of `state`, computed at most once per channel), and
    /// it gets nothing more from this publish. Without it, such a client is dropped.
    public func publish(
        _ state: State, encode: (Channel, State) -> [UInt8]?, catchUp: ((Channel, State) -> [UInt8])? = nil
    ) {
        let start = StreamConnection.now()
        let channelsBefore = lock.withLock { Array(channels.keys) }
        var encoded: [Channel: [UInt8]] = [:]
        for channel in channelsBefore {
            if let bytes = encode(channel, state), !bytes.isEmpty { encoded[channel] = bytes }
        }
        lock.withLock {
            current = state
            var publish = Publish(catchUp: catchUp.map { make in { channel in make(channel, state) } })
            var wakes = SenderWakes()
            defer { wakes.flush() }
            for (channel, clients) in channels {
                let bytes = encoded[channel] ?? (channelsBefore.contains(channel) ? nil : encode(channel, state))
                guard let bytes, !bytes.isEmpty else { continue }
                for client in clients.values {
                    queueLocked(bytes, to: client, in: &publish, wakes: &wakes)
                }
            }
        }
        onPublish?(StreamConnection.now() &- start)
    }

    /// Queues `bytes` to every client once (heartbeats, `reload`).
    public func broadcastToAll(_ bytes: [UInt8]) {
        lock.withLock {
            var publish = Publish(catchUp: nil)
            var wakes = SenderWakes()
            defer { wakes.flush() }
            for subscription in subscriptions.values {
                queueLocked(bytes, to: subscription.stream, in: &publish, wakes: &wakes)
            }
        }
    }

    /// Queues `bytes` once to every client in a channel that `included` accepts (a page
    /// stream's `reload`, for the clients of feedweb's own dialect).
    public func broadcast(_ bytes: [UInt8], toClientsOf included: (Channel) -> Bool) {
        lock.withLock {
            var publish = Publish(catchUp: nil)
            var wakes = SenderWakes()
            defer { wakes.flush() }
            for subscription in subscriptions.values where subscription.channels.contains(where: included) {
                queueLocked(bytes, to: subscription.stream, in: &publish, wakes: &wakes)
            }
        }
    }

    /// What one publish remembers across its clients: the catch-up events it made (once
    /// per channel) and the clients it caught up (they get nothing more from it).
    private struct Publish {
        let catchUp: ((Channel) -> [UInt8])?
        var made: [Channel: [UInt8]] = [:]
        var caughtUp: Set<ObjectIdentifier> = []
    }

    private func queueLocked(
        _ bytes: [UInt8], to client: StreamConnection, in publish: inout Publish, wakes: inout SenderWakes
    ) {
        let id = ObjectIdentifier(client)
        guard publish.caughtUp.isEmpty || !publish.caughtUp.contains(id) else { return }
        let (result, sender) = client.enqueue(bytes, whenFull: publish.catchUp == nil ? .drop : .report, wakes: ())
        if let sender { wakes.add(client, for: sender) }
        switch result {
        case .queued: totals.count(bytes)
        case .dropped: totals.droppedClients += 1
        case .notOpen: break
        case .full:
            guard let make = publish.catchUp, let channels = subscriptions[id]?.channels else { break }
            var event: [UInt8] = []
            for channel in channels {
                let whole = publish.made[channel] ?? make(channel)
                publish.made[channel] = whole
                event += whole
            }
            publish.caughtUp.insert(id)
            if client.catchUp(with: event) {
                totals.count(event)
                totals.catchUps += 1
            }
        }
    }

    /// Every client now, with the channels it is subscribed to (for `/inspect`; each
    /// stream is then read under its own lock, after this one is released).
    func clients() -> [(stream: StreamConnection, channels: [Channel])] {
        lock.withLock { subscriptions.values.map { ($0.stream, $0.channels) } }
    }

    /// Drops clients that have had bytes waiting for longer than `nanoseconds`.
    public func dropStalled(olderThan nanoseconds: UInt64) {
        let now = StreamConnection.now()
        lock.withLock {
            for subscription in subscriptions.values
            where subscription.stream.dropIfStalled(olderThan: nanoseconds, now: now) {
                totals.droppedClients += 1
            }
        }
    }
}
