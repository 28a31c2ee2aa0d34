import CMicroHTTPD
import Glibc

/// An epoll set with a wake-up descriptor of its own (an `eventfd`, token
/// ``wakeToken``), for a thread that sleeps in ``wait(into:timeout:)`` until a socket is
/// ready or another thread calls ``wake()``. Closes both descriptors when released.
final class WakeableEpoll: @unchecked Sendable {
    /// The token under which ``wake()`` is reported.
    static let wakeToken: UInt64 = 0

    private let epollFD: Int32
    private let wakeFD: Int32

    /// `nil` when the system refuses an epoll set or an `eventfd`.
    init?() {
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        let wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeToken
        guard epollFD >= 0, wakeFD >= 0, epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
            if epollFD >= 0 { close(epollFD) }
            if wakeFD >= 0 { close(wakeFD) }
            return nil
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
    }

    deinit {
        close(epollFD)
        close(wakeFD)
    }

    /// Makes the sleeping (or next) ``wait(into:timeout:)`` report ``wakeToken``.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Clears the wake-up once it has been reported.
    func clearWake() {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, MemoryLayout<UInt64>.size)
    }

    /// Registers `fd` for `events` under `token`; `false` when the system refuses.
    func add(_ fd: Int32, events: UInt32, token: UInt64) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        return epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0
    }

    /// Changes what `fd` (registered under `token`) is watched for.
    func modify(_ fd: Int32, events: UInt32, token: UInt64) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Stops watching `fd`.
    func remove(_ fd: Int32) {
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
    }

    /// Waits at most `timeout` milliseconds (-1: without limit) for events; returns how
    /// many were stored in `events`, or -1 with `errno` set.
    func wait(into events: inout [epoll_event], timeout: Int32) -> Int32 {
        events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), timeout)
        }
    }
}
