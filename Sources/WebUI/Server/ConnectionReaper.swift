import FeedCore
import Foundation
import Glibc
import Logging
import NIOConcurrencyHelpers

/// Drops connections that hold the server without sending a request: the edge of
/// ``WaitingConnections``, which decides; this type tells it what libmicrohttpd reports
/// and shuts down the sockets it names.
///
/// libmicrohttpd reports each connection's start and close
/// (`MHD_OPTION_NOTIFY_CONNECTION`, on its own threads); the server reports when a request
/// has arrived whole (the access handler's answering call) and when its response is
/// complete (`MHD_OPTION_NOTIFY_COMPLETED`). A connection to drop is shut down from here
/// (`shutdown(fd, SHUT_RDWR)`): libmicrohttpd's next read on it returns 0 and it closes
/// the connection itself, as when a client leaves (measured against 0.9.75). Drops for
/// room happen at once, on the libmicrohttpd thread that reports the new connection;
/// drops at the deadline on one small thread of this type, which sleeps until the next
/// deadline (at most a second) — no thread or timer per connection.
///
/// Locks, in the order they may be taken (never the other way):
/// - `state`: the rules' value, the connections by id, the counters. Decisions are made
///   under it; no other lock is taken while it is held, and no socket is touched.
/// - `sockets`, a leaf: held only to shut a connection's socket down, or to mark it
///   closed, so that a socket libmicrohttpd has closed (and whose number it may have given
///   to a new client) is never shut down. One lock for all connections, not one each
///   (64 B of RSS per connection): it is taken only at a close or a drop, and for one
///   socket at a time.
final class ConnectionReaper: @unchecked Sendable {
    /// One connection libmicrohttpd holds, from its start to its close; kept in its socket
    /// context.
    final class Connection: @unchecked Sendable {
        let id: WaitingConnections.ID
        fileprivate let fd: Int32
        /// Whether libmicrohttpd still holds the socket; guarded by the reaper's `sockets`.
        fileprivate var open = true
        /// Whether the reaper shut the socket down (and gave its place back then); guarded
        /// by the reaper's `sockets`.
        fileprivate var dropped = false

        init(id: WaitingConnections.ID, fd: Int32) {
            self.id = id
            self.fd = fd
        }
    }

    /// Guards every ``Connection``'s `open` (see the lock order above).
    private let sockets = NIOLock()

    private struct State {
        var rules: WaitingConnections
        var connections: [WaitingConnections.ID: Connection] = [:]
        var nextID: WaitingConnections.ID = 1
        var running = false
        /// The drop counters when they were last logged.
        var logged = (deadline: 0, room: 0)
        var loggedAt: UInt64 = 0
    }

    /// How long a connection may wait for its request.
    let deadline: Duration
    private let logger: Logger
    /// Called once for each connection whose socket the reaper shuts down: its place is
    /// free from then on (libmicrohttpd closes it at its next read).
    private let placeFreed: @Sendable () -> Void
    /// The rules and the connections (see the type's lock order).
    private let state: NIOLockedValueBox<State>
    private let wake = DispatchSemaphore(value: 0)
    private let thread = OwnedThread()

    /// The longest the thread sleeps, so that a first waiting connection's deadline is
    /// never missed by more than this (nothing wakes it for a new one).
    private static let longestSleep: UInt64 = 1_000_000_000
    /// The least time between two log lines about drops.
    private static let logInterval: UInt64 = 60_000_000_000

    /// Drops connections that wait longer than `deadline` for a request, and the
    /// longest-waiting ones when more than `capacity` connections are held; calls
    /// `placeFreed` once for each connection it drops.
    init(deadline: Duration, capacity: Int, logger: Logger, placeFreed: @escaping @Sendable () -> Void = {}) {
        self.deadline = deadline
        self.logger = logger
        self.placeFreed = placeFreed
        state = NIOLockedValueBox(
            State(rules: WaitingConnections(deadline: max(1, deadline.saturatingNanoseconds), capacity: capacity)))
    }

    /// The connections held, those waiting for a request, and the drops since the start.
    var counts: ConnectionCounts {
        state.withLockedValue {
            ConnectionCounts(
                held: $0.rules.count, waiting: $0.rules.waitingCount, droppedAtDeadline: $0.rules.droppedAtDeadline,
                droppedForRoom: $0.rules.droppedForRoom)
        }
    }

    // MARK: - Reports (libmicrohttpd's threads)

    /// A new connection on socket `fd`: returns its record (for its socket context), after
    /// shutting down the connections the rules drop to make room for it.
    func connectionStarted(fd: Int32) -> Connection {
        let now = MonotonicTime.now()
        let (connection, drops) = state.withLockedValue { state -> (Connection, [Connection]) in
            let connection = Connection(id: state.nextID, fd: fd)
            state.nextID += 1
            state.connections[connection.id] = connection
            let drops = state.rules.opened(connection.id, at: now).compactMap { state.connections[$0] }
            return (connection, drops)
        }
        shutDown(drops)
        return connection
    }

    /// A stream the front door opened holds a connection from now until
    /// ``streamClosedElsewhere()``: busy, never dropped, but taking room, so the
    /// longest-waiting connections are shut down when it brings the count over the
    /// capacity, as for a new connection of libmicrohttpd's (front door's thread).
    func streamOpenedElsewhere() {
        let drops = state.withLockedValue { state in
            state.rules.openedElsewhere().compactMap { state.connections[$0] }
        }
        shutDown(drops)
    }

    /// A stream the front door opened has closed its socket (its sender's thread).
    func streamClosedElsewhere() {
        state.withLockedValue { $0.rules.closedElsewhere() }
    }

    /// A connection is about to be handed to libmicrohttpd and every place is held:
    /// shuts down the connection that has waited longest for a request, if any (on the
    /// front door's thread). Returns whether one was dropped and its place given back.
    func makeRoom() -> Bool {
        let drop = state.withLockedValue { state in state.rules.roomNeeded().flatMap { state.connections[$0] } }
        guard let drop else { return false }
        return shutDown([drop]) > 0
    }

    /// The connection's request has arrived whole.
    func requestArrived(_ connection: Connection) {
        state.withLockedValue { $0.rules.requestArrived(connection.id) }
    }

    /// The connection's response is complete: it waits for the next request.
    func requestAnswered(_ connection: Connection) {
        let now = MonotonicTime.now()
        state.withLockedValue { $0.rules.answered(connection.id, at: now) }
    }

    /// libmicrohttpd is closing the connection (before it closes the socket). Returns
    /// whether the reaper had dropped it (and so given its place back already).
    func connectionClosed(_ connection: Connection) -> Bool {
        let dropped = sockets.withLock {
            connection.open = false
            return connection.dropped
        }
        state.withLockedValue { state in
            state.rules.closed(connection.id)
            state.connections[connection.id] = nil
        }
        return dropped
    }

    /// Shuts each socket down in both directions, unless libmicrohttpd has closed it, and
    /// gives its place back. The `sockets` lock is taken once per connection, not across
    /// the batch, so that a close on a libmicrohttpd thread waits for at most one
    /// `shutdown(2)`.
    /// Returns how many it shut down.
    @discardableResult
    private func shutDown(_ drops: [Connection]) -> Int {
        var shutCount = 0
        for drop in drops where drop.fd >= 0 {
            let shut = sockets.withLock { () -> Bool in
                guard drop.open, !drop.dropped else { return false }
                drop.dropped = true
                _ = shutdown(drop.fd, Int32(SHUT_RDWR))
                return true
            }
            if shut {
                shutCount += 1
                placeFreed()
            }
        }
        return shutCount
    }

    // MARK: - The thread

    /// Starts the thread that drops connections at their deadline.
    func start() {
        let alreadyRunning = state.withLockedValue { state in
            defer { state.running = true }
            return state.running
        }
        guard !alreadyRunning else { return }
        thread.start(name: "feedweb-reaper", stackSize: 256 * 1024) { [self] in run() }
    }

    /// Stops the thread (waits at most 2 s for it).
    func stop() {
        let wasRunning = state.withLockedValue { state in
            defer { state.running = false }
            return state.running
        }
        guard wasRunning else { return }
        wake.signal()
        thread.waitForExit(within: .seconds(2))
    }

    private func run() {
        while true {
            let now = MonotonicTime.now()
            let (drops, next, running, report) = state.withLockedValue {
                state -> ([Connection], UInt64?, Bool, (deadline: Int, room: Int)?) in
                let drops = state.rules.expired(at: now).compactMap { state.connections[$0] }
                let counters = (deadline: state.rules.droppedAtDeadline, room: state.rules.droppedForRoom)
                var report: (deadline: Int, room: Int)?
                if counters != state.logged && now &- state.loggedAt >= Self.logInterval {
                    report = (counters.deadline - state.logged.deadline, counters.room - state.logged.room)
                    state.logged = counters
                    state.loggedAt = now
                }
                return (drops, state.rules.nextDeadline, state.running, report)
            }
            shutDown(drops)
            if let report { log(report) }
            guard running else { return }
            let sleep = min(Self.longestSleep, next.map { $0 > now ? $0 - now : 0 } ?? Self.longestSleep)
            // Woken early only by `stop()`; a millisecond more so the deadline has passed.
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(sleep) + 1_000_000))
        }
    }

    private func log(_ report: (deadline: Int, room: Int)) {
        let seconds = deadline.timeInterval
        var parts: [String] = []
        if report.deadline > 0 {
            parts.append(
                "\(report.deadline) connection(s) that sent no complete request within \(seconds.formatted()) s (--head-timeout)"
            )
        }
        if report.room > 0 {
            parts.append(
                "\(report.room) connection(s) that waited longest for a request, to make room for new connections")
        }
        logger.notice("closed \(parts.joined(separator: " and ")) (at most one such line a minute)")
    }
}
