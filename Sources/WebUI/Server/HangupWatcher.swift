import CMicroHTTPD
import Foundation
import Glibc
import NIOConcurrencyHelpers

/// Notices stream clients that hang up while their stream is suspended.
///
/// libmicrohttpd takes a suspended connection out of its own epoll set, so a client that
/// closes a quiet stream would go unnoticed until the next bytes are sent to it (a
/// heartbeat, up to ``FeedwebConfiguration/Streams/heartbeatInterval`` later), holding its
/// queue and its `--max-clients` slot until then. This watcher keeps every stream socket in
/// an epoll set of its own, for hang-ups only (`EPOLLRDHUP`, and `EPOLLHUP`/`EPOLLERR`,
/// which are always reported): one thread blocked in `epoll_wait` for the whole server, no
/// polling, one `epoll_ctl` when a stream starts and one when it ends. On a hang-up the
/// stream is ended at once (``StreamConnection/peerClosed()``), which resumes it so
/// libmicrohttpd closes it.
///
/// A client that only shuts down its sending side after the request looks the same as
/// one that closed (a FIN is all either sends), so it is ended too, as nginx ends a
/// request whose client "prematurely closed connection". SSE clients never half-close.
///
/// Invariants: a socket is registered only between ``watch(_:fd:)`` and
/// ``unwatch(token:fd:)``, both called on the daemon thread while libmicrohttpd still owns
/// the open socket (the request-completed callback runs before it closes it), so a reused
/// descriptor number is never confused with an old one; tokens are never reused.
final class HangupWatcher: @unchecked Sendable {
    private let epoll: WakeableEpoll
    /// Guards `streams`, `nextToken` and `running` (and the epoll set's
    /// registrations). A leaf: no other lock is taken while it is held; a hung-up stream is
    /// ended (its own lock) after it is released.
    private let lock = NIOLock()
    private var streams: [UInt64: StreamConnection] = [:]
    private var nextToken: UInt64 = 1
    private var running = false
    private let thread = OwnedThread()

    /// Creates the epoll set; `nil` when the system refuses one (streams then work without
    /// early hang-up detection).
    init?() {
        guard let epoll = WakeableEpoll() else { return nil }
        self.epoll = epoll
    }

    /// Starts the watching thread.
    func start() {
        lock.withLock { running = true }
        thread.start(name: "feedweb-hangups", stackSize: 256 * 1024) { [self] in run() }
    }

    /// Stops the thread (after the daemon has stopped, so no stream is registered any
    /// more); the epoll set is closed when the watcher is released.
    func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        epoll.wake()
        // The thread only waits in epoll_wait, so it ends at once.
        thread.waitForExit(within: .seconds(2))
    }

    /// Watches socket `fd` of `stream`; returns the token for ``unwatch(token:fd:)``, or
    /// `nil` when it could not be registered.
    func watch(_ stream: StreamConnection, fd: Int32) -> UInt64? {
        guard fd >= 0 else { return nil }
        return lock.withLock { () -> UInt64? in
            guard running else { return nil }
            let token = nextToken
            // One report is enough: the stream ends on it.
            guard epoll.add(fd, events: EPOLLRDHUP.rawValue | EPOLLONESHOT.rawValue, token: token) else { return nil }
            nextToken += 1
            streams[token] = stream
            return token
        }
    }

    /// Stops watching (when the request completes, before libmicrohttpd closes `fd`).
    func unwatch(token: UInt64, fd: Int32) {
        lock.withLock {
            guard streams.removeValue(forKey: token) != nil else { return }
            epoll.remove(fd)
        }
    }

    /// The number of sockets watched.
    var count: Int {
        lock.withLock { streams.count }
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = epoll.wait(into: &events, timeout: -1)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            for index in 0..<Int(count) {
                let token = events[index].data.u64
                if token == WakeableEpoll.wakeToken { return }
                let stream = lock.withLock { streams[token] }
                stream?.peerClosed()
            }
        }
    }
}
