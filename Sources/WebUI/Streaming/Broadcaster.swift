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
    private let lock = NIOLock()
    private var current: State?
    private var channels: [Channel: [ObjectIdentifier: StreamConnection]] = [:]
    private var clientCount = 0
    private var dropped: UInt64 = 0

    public init(initial: State? = nil) {
        current = initial
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
        lock.withLock { dropped }
    }

    /// The state last published.
    public var state: State? {
        lock.withLock { current }
    }

    /// Adds `stream` to `channel` and queues its first bytes, computed from the current
    /// state under the same lock that publishing takes.
    public func subscribe(_ stream: StreamConnection, to channel: Channel, initial: (State?) -> [[UInt8]]) {
        lock.withLock {
            stream.enqueue(contentsOf: initial(current))
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
    public func publish(_ state: State, encode: (Channel, State) -> [UInt8]?) {
        lock.withLock {
            current = state
            for (channel, clients) in channels {
                guard let bytes = encode(channel, state), !bytes.isEmpty else { continue }
                for client in clients.values where client.enqueue(bytes) == .dropped {
                    dropped += 1
                }
            }
        }
    }

    /// Queues `bytes` to every client (heartbeats, `reload`).
    public func broadcastToAll(_ bytes: [UInt8]) {
        lock.withLock {
            for clients in channels.values {
                for client in clients.values { client.enqueue(bytes) }
            }
        }
    }

    /// Drops clients that have had bytes waiting for longer than `nanoseconds`.
    public func dropStalled(olderThan nanoseconds: UInt64) {
        let now = StreamConnection.now()
        lock.withLock {
            for clients in channels.values {
                for client in clients.values where client.dropIfStalled(olderThan: nanoseconds, now: now) {
                    dropped += 1
                }
            }
        }
    }
}
