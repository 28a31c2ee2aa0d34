import FeedCore
import Foundation
import Glibc
import NIOConcurrencyHelpers

/// Thousands of connections to `127.0.0.1:port` that each send the start of a request head
/// and then nothing, as a slow-head attack does, and the moment the server closes each.
///
/// One thread of its own does everything (so a busy cooperative pool cannot slow the
/// flood, and none of the pool's threads is held): it connects in batches (each batch
/// connected before the next, so the listen backlog never overflows), sends each socket
/// `head`, then watches every socket with `poll(2)` until the server closes it (end of
/// stream or reset), when it closes its own end. Every wait is bounded. Call ``stop()``
/// when done: the thread (which holds the flood) runs until then.
public final class SlowHeadFlood: @unchecked Sendable {
    private struct Socket {
        let fd: Int32
        let openedAt: ContinuousClock.Instant
    }

    private struct State {
        var opened = 0
        var failures: [String] = []
        var openingSeconds = 0.0
        /// Seconds from each closed socket's connect to its close by the server, in the order
        /// seen.
        var lifetimes: [Double] = []
        /// Sockets that got bytes from the server before it closed them.
        var answered = 0
        var stopping = false
    }

    private let state = NIOLockedValueBox(State())
    private let exited = DispatchSemaphore(value: 0)

    /// Connections connected with their head sent.
    public var opened: Int { state.withLockedValue { $0.opened } }
    /// Connections that could not be made (at most the first 20 reasons).
    public var failures: [String] { state.withLockedValue { $0.failures } }
    /// How long connecting them all took.
    public var openingSeconds: Double { state.withLockedValue { $0.openingSeconds } }
    /// Connections the server has closed so far.
    public var closed: Int { state.withLockedValue { $0.lifetimes.count } }
    /// Seconds from each closed connection's connect (just before the call) to its close by
    /// the server.
    public var lifetimes: [Double] { state.withLockedValue { $0.lifetimes } }
    /// Connections the server sent bytes to (an answer) before closing them.
    public var answered: Int { state.withLockedValue { $0.answered } }

    private init() {}

    /// Opens `count` connections to `port`, `batch` at a time (each connect given at most
    /// `connectTimeout` seconds), each sending `head`; returns once all are connected (or
    /// failed). The flood then watches them until ``stop()``.
    public static func open(
        port: UInt16, count: Int, head: String = "GET / HTTP/1.1\r\nHost: x\r\n", batch: Int = 500,
        connectTimeout: Double = 5
    ) async -> SlowHeadFlood {
        let flood = SlowHeadFlood()
        await withCheckedContinuation { (opened: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                flood.run(
                    port: port, count: count, head: Array(head.utf8), batch: max(1, batch),
                    connectTimeout: connectTimeout, opened: opened)
                flood.exited.signal()
            }
            thread.name = "test-slow-heads"
            thread.start()
        }
        return flood
    }

    /// Waits (bounded) until the server has closed every opened connection; `false` if some
    /// are still open after `seconds`.
    public func waitUntilAllClosed(within seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if state.withLockedValue({ $0.lifetimes.count >= $0.opened }) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return state.withLockedValue { $0.lifetimes.count >= $0.opened }
    }

    /// Stops watching and closes every connection still open (waits at most 2 s).
    public func stop() {
        let already = state.withLockedValue { state in
            defer { state.stopping = true }
            return state.stopping
        }
        if !already { _ = exited.wait(timeout: .now() + 2) }
    }

    private var stopping: Bool { state.withLockedValue { $0.stopping } }

    private func run(
        port: UInt16, count: Int, head: [UInt8], batch: Int, connectTimeout: Double,
        opened: CheckedContinuation<Void, Never>
    ) {
        var open: [Socket] = []
        let start = ContinuousClock.now
        var remaining = count
        while remaining > 0 && !stopping {
            let size = min(batch, remaining)
            remaining -= size
            open += connect(size, port: port, head: head, timeout: connectTimeout)
            watch(&open, timeout: 0)
        }
        state.withLockedValue { $0.openingSeconds = (ContinuousClock.now - start).timeInterval }
        opened.resume()
        while !stopping { watch(&open, timeout: 50) }
        for socket in open { close(socket.fd) }
    }

    /// Connects `count` sockets at once and sends each `head`; returns those that made it.
    private func connect(_ count: Int, port: UInt16, head: [UInt8], timeout: Double) -> [Socket] {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var pending: [(fd: Int32, since: ContinuousClock.Instant)] = []
        for _ in 0..<count {
            let fd = socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                fail("socket: \(String(cString: strerror(errno)))")
                continue
            }
            // A connection's life counts from before its connect: the server cannot have
            // started its clock earlier.
            let since = ContinuousClock.now
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == 0 || errno == EINPROGRESS {
                pending.append((fd, since))
            } else {
                fail("connect: \(String(cString: strerror(errno)))")
                close(fd)
            }
        }
        var connected: [Socket] = []
        let deadline = ContinuousClock.now + .seconds(timeout)
        while !pending.isEmpty {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                for socket in pending { close(socket.fd) }
                fail("\(pending.count) connects timed out")
                break
            }
            var descriptors = pending.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), Int32(min(100, left.milliseconds + 1)))
            var still: [(fd: Int32, since: ContinuousClock.Instant)] = []
            for (index, descriptor) in descriptors.enumerated() {
                guard descriptor.revents != 0 else {
                    still.append(pending[index])
                    continue
                }
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor.fd, SOL_SOCKET, SO_ERROR, &code, &length)
                let sent = head.withUnsafeBytes {
                    Glibc.send(descriptor.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if code != 0 || sent != head.count {
                    fail(code != 0 ? "connect: \(String(cString: strerror(code)))" : "send: \(sent)")
                    close(descriptor.fd)
                    continue
                }
                connected.append(Socket(fd: descriptor.fd, openedAt: pending[index].since))
            }
            pending = still
        }
        state.withLockedValue { $0.opened += connected.count }
        return connected
    }

    /// Polls `open` for at most `timeout` ms; closes and forgets those the server closed.
    private func watch(_ open: inout [Socket], timeout: Int32) {
        guard !open.isEmpty else {
            if timeout > 0 { usleep(UInt32(timeout) * 1000) }
            return
        }
        var descriptors = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        guard poll(&descriptors, nfds_t(descriptors.count), timeout) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var kept: [Socket] = []
        var lifetimes: [Double] = []
        var answered = 0
        for (index, socket) in open.enumerated() {
            guard descriptors[index].revents != 0 else {
                kept.append(socket)
                continue
            }
            var got = false
            var ended = false
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 {
                    got = true
                    continue
                }
                ended = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                break
            }
            if got { answered += 1 }
            if ended {
                lifetimes.append((ContinuousClock.now - socket.openedAt).timeInterval)
                close(socket.fd)
            } else {
                kept.append(socket)
            }
        }
        open = kept
        state.withLockedValue {
            $0.lifetimes += lifetimes
            $0.answered += answered
        }
    }

    private func fail(_ reason: String) {
        state.withLockedValue { if $0.failures.count < 20 { $0.failures.append(reason) } }
    }
}
