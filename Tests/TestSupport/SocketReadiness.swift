import Foundation
import Glibc
import NIOConcurrencyHelpers

/// Waits for a socket to become readable or writable without holding a thread of Swift's
/// cooperative pool: one thread of its own runs `poll(2)` over every waiting socket of the
/// test process and resumes each waiter when its socket is ready or its deadline passes.
///
/// Every wait is bounded by its deadline. One waiter per descriptor at a time (a socket
/// belongs to one test task); a second wait on the same descriptor ends the first as not
/// ready.
public final class SocketReadiness: Sendable {
    /// The process's one instance; its thread starts on first use.
    public static let shared = SocketReadiness()

    public enum Interest: Sendable {
        case readable
        case writable

        var events: Int16 {
            switch self {
            case .readable: return Int16(POLLIN)
            case .writable: return Int16(POLLOUT)
            }
        }
    }

    private struct Waiter {
        let events: Int16
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// The waiters by descriptor. No other lock is taken while it is held, and
    /// continuations are resumed after it is released.
    private let waiters = NIOLockedValueBox<[Int32: Waiter]>([:])
    /// A pipe whose read end is in every poll: a byte written to it wakes the thread to
    /// take new waiters.
    private let wakeup: (read: Int32, write: Int32)

    private init() {
        var ends: [Int32] = [0, 0]
        pipe(&ends)
        for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        wakeup = (ends[0], ends[1])
        let thread = Thread { [self] in run() }
        thread.name = "test-socket-readiness"
        thread.start()
    }

    /// Waits until `fd` is ready for `interest` (`true`; also when it failed or was hung
    /// up, so the caller's own read or write sees why) or `deadline` passes (`false`).
    public func wait(_ fd: Int32, for interest: Interest, until deadline: ContinuousClock.Instant) async -> Bool {
        await withCheckedContinuation { continuation in
            let replaced = waiters.withLockedValue { waiters -> Waiter? in
                let old = waiters[fd]
                waiters[fd] = Waiter(events: interest.events, deadline: deadline, continuation: continuation)
                return old
            }
            replaced?.continuation.resume(returning: false)
            var byte: UInt8 = 1
            _ = Glibc.write(wakeup.write, &byte, 1)
        }
    }

    private func run() {
        var drain = [UInt8](repeating: 0, count: 256)
        while true {
            let snapshot = waiters.withLockedValue {
                $0.map { (fd: $0.key, events: $0.value.events, deadline: $0.value.deadline) }
            }
            var descriptors = [pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0)]
            descriptors += snapshot.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
            var timeout: Int32 = 1000
            if let nearest = snapshot.map(\.deadline).min() {
                let left = nearest - .now
                timeout = left <= .zero ? 0 : Int32(min(1000, left.milliseconds + 1))
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if descriptors[0].revents != 0 { _ = Glibc.read(wakeup.read, &drain, drain.count) }
            let readyDescriptors = Set(descriptors.dropFirst().filter { $0.revents != 0 }.map(\.fd))
            let now = ContinuousClock.now
            var finished: [(Waiter, Bool)] = []
            waiters.withLockedValue { waiters in
                for (fd, waiter) in waiters {
                    if readyDescriptors.contains(fd) {
                        finished.append((waiter, true))
                        waiters.removeValue(forKey: fd)
                    } else if waiter.deadline <= now {
                        finished.append((waiter, false))
                        waiters.removeValue(forKey: fd)
                    }
                }
            }
            for (waiter, ready) in finished { waiter.continuation.resume(returning: ready) }
        }
    }
}
