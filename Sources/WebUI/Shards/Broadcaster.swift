import FeedCore
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
/// Decides under its lock, acts outside, as SwiftNIO's `NIOAsyncWriter` does: under the lock
/// only the state, the generation and the client lists are read or changed (and a new
/// client's first bytes queued); every event is encoded, every page frame rendered, every
/// client's bytes queued, and every resume, shutdown and sender wake-up carried out with
/// the lock released (``StreamConnection/Effect``).
///
/// Invariants:
/// - `current` is the state of the publish begun last, and `generation` counts the
///   publishes begun; both change together, under the lock. A client's first bytes are
///   computed from `current` and the client is subscribed only if `generation` is still
///   the one read with it, so a client never misses nor repeats an event across its
///   subscription: it gets an event exactly from the publishes begun after it subscribed.
/// - Each event is encoded once per channel per publish, and the same `[UInt8]` is queued
///   to every client of that channel.
/// - `subscriptions` holds every client once, with the channels it is in; `channels`
///   holds the same clients by channel.
/// - Publishes are serialised by the caller (the fan-out stage's queue for each shard's
///   broadcaster, a page stream's `publishLock`): one publish's clients have its bytes
///   queued before the next publish begins.
public final class Broadcaster<Channel: Hashable & Sendable, State: Sendable>: StreamSweeping, @unchecked Sendable {
    /// Guards `current`, `generation`, `channels`, `subscriptions`, `channelSubscriptions`
    /// and `totals`.
    ///
    /// WebUI's lock order, outermost first, written once, here (it extends ``FeedStore``'s,
    /// `writeLock → deliveryLock → mirror → state`, written at `FeedStore.writeLock`; every
    /// other WebUI lock points here):
    ///
    ///     HTTPServer.stopping (held through a whole stop) → every lock a stop takes
    ///     FeedStore.deliveryLock → FanoutStage's pending count (a leaf: the change is
    ///       queued; the consumers run on the stage's queue, holding no lock of the store)
    ///     PageEventStream.publishLock → Broadcaster.lock → StreamConnection.lock
    ///     PageEventStream.publishLock → StreamConnection.lock, StreamSender.lock, the
    ///       page stream's leaf caches (a page publish queues, wakes and renders under it)
    ///     EventLog's state → WriteMarks' (each sender's marks, leaves), for `/inspect`
    ///
    /// - This lock is taken holding nothing (a fan-out consumer publishing `/events` or
    ///   `/events/items`, one broadcaster per shard, shards in parallel; subscribe and
    ///   unsubscribe on a daemon's thread; heartbeats; sweeps; `/inspect`'s frame, which
    ///   reads ``clients()`` and each stream's own lock after releasing this one), or
    ///   `PageEventStream.publishLock` (a page frame, itself taken under
    ///   `PageStreamPublisher.frameLock`, the outermost: the store's and the stats' locks
    ///   are taken under it to read the frame's state). No two broadcasters' locks are
    ///   ever held together.
    /// - While it is held, only one other lock is taken: a subscribing client's
    ///   `StreamConnection.lock`, to queue its first bytes (so that no publish's bytes
    ///   come before them). No closure of the caller runs under it (`encode`, `initial`,
    ///   `catchUp`), nothing is encoded or rendered, no system call is made.
    /// - `StreamConnection.lock` is a leaf: under it bytes are queued or taken, and a
    ///   dropped client's socket shut down (``StreamConnection/Effect``).
    ///
    /// Every other WebUI lock is a leaf: nothing is taken while it is held (the page and
    /// API caches, `DocumentEventStream`'s and `ItemEventStream`'s event caches,
    /// `PageEventStream`'s `initialCache` and `fragmentRenders`, the static files, the
    /// refused-stream count, `PageFramePacer`, `StreamSender`'s lock, `StatsRecorder`,
    /// `FeedwebMetrics`, `HTTPServer`'s state, `DaemonLoop`'s state, `UpstreamExchanges`,
    /// the `Inspector`'s screens, the `InspectFrameSource`, `HangupWatcher`,
    /// `ConnectionReaper`'s state and its `sockets` lock, which it takes only after
    /// releasing its state). libmicrohttpd is called holding no feedweb lock
    /// (`MHD_resume_connection` by a stream's effect, `MHD_suspend_connection` in a
    /// stream's content reader after its lock is released, `MHD_add_connection` and
    /// `MHD_run` on a `DaemonLoop`'s thread), or only a page stream's `publishLock`.
    private let lock = NIOLock()
    private var current: State?
    /// The number of publishes begun (see the type's invariants).
    private var generation: UInt64 = 0
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

    /// - Parameter onPublish: told how long each ``publish(_:encode:catchUp:)`` took, in
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

    /// The state last published (its publish may still be queuing).
    public var state: State? {
        lock.withLock { current }
    }

    /// Adds `stream` to `channel` and queues its first bytes, computed from the current
    /// state, as the many-channel `subscribe` does.
    public func subscribe(_ stream: StreamConnection, to channel: Channel, initial: (State?) -> [[UInt8]]) {
        subscribe(stream, to: [channel], initial: initial)
    }

    /// Adds `stream` to each of `channels` (at least one; a repeated one counts once) and
    /// queues its first bytes, computed by `initial` from the current state. A stream is
    /// subscribed once.
    ///
    /// As `FeedStore.commit` does: `initial` runs outside the lock, on the state read under
    /// it, and the stream is subscribed only if no publish has begun meanwhile; else
    /// `initial` runs again on the newer state. Each retry follows a publish, whose bytes
    /// the callers' caches then hold for every other new client.
    public func subscribe(_ stream: StreamConnection, to channels: [Channel], initial: (State?) -> [[UInt8]]) {
        var distinct: [Channel] = []
        for channel in channels where !distinct.contains(channel) { distinct.append(channel) }
        let id = ObjectIdentifier(stream)
        var seen = lock.withLock { (state: current, generation: generation, subscribed: subscriptions[id] != nil) }
        while !seen.subscribed {
            let chunks = initial(seen.state)
            let now = MonotonicTime.now()
            let effect: StreamConnection.Effect? = lock.withLock {
                guard generation == seen.generation, subscriptions[id] == nil else {
                    seen = (current, generation, subscriptions[id] != nil)
                    return nil
                }
                let (queued, effect) = stream.enqueueDeferringEffect(contentsOf: chunks, now: now)
                if queued { totals.count(chunks) }
                for channel in distinct { self.channels[channel, default: [:]][id] = stream }
                subscriptions[id] = Subscription(stream: stream, channels: distinct)
                channelSubscriptions += distinct.count
                return effect
            }
            if let effect {
                effect.perform()
                return
            }
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

    /// Makes `state` current and queues, to each channel's clients, the bytes `encode`
    /// returns for it (`nil` or empty: nothing for that channel).
    ///
    /// Under the lock the publish only begins: `state` is made current, the generation
    /// advanced and the clients read (copies of the dictionaries, shared until the next
    /// change to them). Then, with the lock released, each channel's bytes are encoded
    /// (a page's fragments rendered) once and queued to its clients, each client's own
    /// lock taken only to queue, its sender's wake-ups handed over in batches. A client
    /// that subscribes meanwhile got its first bytes from `state` and is not among them.
    ///
    /// With `catchUp`, a client whose queue these bytes would pass the bound is not
    /// dropped: its unsent queue is replaced by what `catchUp` returns for its channels
    /// (one event each with the whole of `state`, computed at most once per channel), and
    /// it gets nothing more from this publish. Without it, such a client is dropped.
    public func publish(
        _ state: State, encode: (Channel, State) -> [UInt8]?, catchUp: ((Channel, State) -> [UInt8])? = nil
    ) {
        let start = MonotonicTime.now()
        let (members, subscribed) = lock.withLock {
            current = state
            generation &+= 1
            return (channels, subscriptions)
        }
        var queuing = Queuing(whenFull: catchUp == nil ? .drop : .report)
        var made: [Channel: [UInt8]] = [:]
        var caughtUp: Set<ObjectIdentifier> = []
        for (channel, clients) in members {
            guard let bytes = encode(channel, state), !bytes.isEmpty else { continue }
            var ahead = StreamPrefetcher(clients.keys)
            for (id, client) in clients where caughtUp.isEmpty || !caughtUp.contains(id) {
                ahead.advance()
                guard queuing.queue(bytes, to: client) == .full, let catchUp else { continue }
                var event: [UInt8] = []
                for channel in subscribed[id]?.channels ?? [] {
                    let whole = made[channel] ?? catchUp(channel, state)
                    made[channel] = whole
                    event += whole
                }
                caughtUp.insert(id)
                queuing.catchUp(client, with: event)
            }
        }
        finish(queuing)
        onPublish?(MonotonicTime.now() &- start)
    }

    /// Queues `bytes` to every client once (heartbeats, `reload`).
    public func broadcastToAll(_ bytes: [UInt8]) {
        let subscribed = lock.withLock { subscriptions }
        var queuing = Queuing(whenFull: .drop)
        for subscription in subscribed.values { queuing.queue(bytes, to: subscription.stream) }
        finish(queuing)
    }

    /// Queues `bytes` once to every client in a channel that `included` accepts (a page
    /// stream's `reload`, for the clients of feedweb's own dialect).
    public func broadcast(_ bytes: [UInt8], toClientsOf included: (Channel) -> Bool) {
        let subscribed = lock.withLock { subscriptions }
        var queuing = Queuing(whenFull: .drop)
        for subscription in subscribed.values where subscription.channels.contains(where: included) {
            queuing.queue(bytes, to: subscription.stream)
        }
        finish(queuing)
    }

    /// What one publish or broadcast does across its clients, the broadcaster's lock
    /// released: each client's bytes queued and its effect carried out (a sender's wake-up
    /// in a batch), the traffic counted.
    private struct Queuing {
        let whenFull: StreamFullQueue
        /// When the bytes were queued: read once for every client.
        let now = MonotonicTime.now()
        var wakes = SenderWakes()
        var traffic = StreamTraffic()

        /// Queues `bytes` to `client`; `.full` (with `whenFull` `.report`): the caller
        /// catches the client up.
        @discardableResult
        mutating func queue(_ bytes: [UInt8], to client: StreamConnection) -> StreamEnqueueResult {
            let (result, effect) = client.enqueueDeferringEffect(bytes, whenFull: whenFull, now: now)
            effect.perform(batchingWakeIn: &wakes)
            switch result {
            case .queued: traffic.count(bytes)
            case .dropped: traffic.droppedClients += 1
            case .notOpen, .full: break
            }
            return result
        }

        mutating func catchUp(_ client: StreamConnection, with event: [UInt8]) {
            let (caughtUp, effect) = client.catchUpDeferringEffect(with: event, now: now)
            effect.perform(batchingWakeIn: &wakes)
            guard caughtUp else { return }
            traffic.count(event)
            traffic.catchUps += 1
        }
    }

    /// Hands the last wake-ups over, then adds the traffic to the totals.
    private func finish(_ queuing: Queuing) {
        var wakes = queuing.wakes
        wakes.flush()
        lock.withLock { totals = totals + queuing.traffic }
    }

    /// Every client now, with the channels it is subscribed to (for `/inspect`; each
    /// stream is then read under its own lock, after this one is released).
    func clients() -> [(stream: StreamConnection, channels: [Channel])] {
        lock.withLock { subscriptions.values.map { ($0.stream, $0.channels) } }
    }

    /// Drops clients that have had bytes waiting for longer than `nanoseconds`.
    public func dropStalled(olderThan nanoseconds: UInt64) {
        let now = MonotonicTime.now()
        let subscribed = lock.withLock { subscriptions }
        var dropped: UInt64 = 0
        for subscription in subscribed.values
        where subscription.stream.dropIfStalled(olderThan: nanoseconds, now: now) {
            dropped += 1
        }
        guard dropped > 0 else { return }
        lock.withLock { totals.droppedClients += dropped }
    }
}
