import FeedCore
import Foundation
import Glibc

/// A TCP connection to 127.0.0.1 for tests that need to see exactly what goes over the
/// wire. The socket is non-blocking: every wait is `async` and bounded (by the socket's
/// `timeout` per operation unless a deadline is given), and is done by
/// ``SocketReadiness``, never by holding a thread of Swift's cooperative pool.
public final class RawSocket: @unchecked Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case connect(Int32)
        case timeout
        case closed
        public var description: String {
            switch self {
            case .connect(let code): return "connect failed: \(String(cString: strerror(code))) (errno \(code))"
            case .timeout: return "timed out waiting for data"
            case .closed: return "connection closed"
            }
        }
    }

    public let fd: Int32
    /// How long one operation (a connect, a send, a read) may wait, in seconds.
    public var timeout: Double
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; `receiveBuffer` (bytes) is set before connecting, so
    /// the window the peer sees stays that small (a slow reader). `maxSegment` (bytes) is
    /// the TCP segment size this end announces: the peer's kernel sizes its send buffer
    /// from it (about 20 segments), so with a small one few bytes wait in kernel buffers
    /// on the way, and a slow reader's backlog stays in the server's own queue.
    public init(port: UInt16, timeout: Double = 5, receiveBuffer: Int32? = nil, maxSegment: Int32? = nil)
        async throws
    {
        self.timeout = timeout
        // The descriptor becomes this object's only once connected: on every failure it is
        // closed here, exactly once (`deinit` must not close it again — in a process that
        // also runs feedweb's server, a second close could hit a socket the server was
        // just given that number for).
        let descriptor = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.connect(errno) }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if var size = maxSegment {
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_MAXSEG, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            var code = errno
            if code == EINPROGRESS {
                if await SocketReadiness.shared.wait(descriptor, for: .writable, until: .now + .seconds(timeout)) {
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
                } else {
                    code = ETIMEDOUT
                }
            }
            if code != 0 {
                close(descriptor)
                throw Failure.connect(code)
            }
        }
        fd = descriptor
    }

    deinit {
        close(fd)
    }

    /// Sends all of `text` (UTF-8).
    public func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Sends all of `bytes`, waiting for room in the socket's buffer as needed.
    public func send(_ bytes: [UInt8]) async throws {
        var offset = 0
        let deadline = ContinuousClock.now + .seconds(timeout)
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                guard await SocketReadiness.shared.wait(fd, for: .writable, until: deadline) else {
                    throw Failure.timeout
                }
            } else {
                throw Failure.closed
            }
        }
    }

    /// Reads what the socket holds now (at most `limit` bytes), without waiting: the bytes
    /// (empty when nothing was there); throws ``Failure/closed`` at the end of the stream
    /// or on an error.
    public func readAvailable(atMost limit: Int = 65536) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: max(1, limit))
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n > 0 { return Array(chunk[0..<n]) }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return [] }
        throw Failure.closed
    }

    /// Waits (until `deadline`, or the socket's timeout from now) for bytes and returns
    /// them (at most `limit`); throws ``Failure/timeout`` or ``Failure/closed``.
    public func receive(before deadline: ContinuousClock.Instant? = nil, atMost limit: Int = 65536) async throws
        -> [UInt8]
    {
        let deadline = deadline ?? .now + .seconds(timeout)
        while true {
            let bytes = try readAvailable(atMost: limit)
            if !bytes.isEmpty { return bytes }
            guard ContinuousClock.now < deadline,
                await SocketReadiness.shared.wait(fd, for: .readable, until: deadline)
            else {
                // One last look: the data may have come with the deadline.
                let last = try readAvailable(atMost: limit)
                if !last.isEmpty { return last }
                throw Failure.timeout
            }
        }
    }

    /// Reads more bytes into the line buffer; throws on timeout or close.
    private func fill(before deadline: ContinuousClock.Instant) async throws {
        buffer += try await receive(before: deadline)
    }

    /// Reads through the next CRLF and returns the line without it.
    public func readLine() async throws -> String {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            if let index = crlfIndex() {
                let line = String(decoding: buffer[0..<index], as: UTF8.self)
                buffer.removeFirst(index + 2)
                return line
            }
            try await fill(before: deadline)
        }
    }

    /// Reads exactly `count` bytes.
    public func read(count: Int) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while buffer.count < count { try await fill(before: deadline) }
        let out = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return out
    }

    /// Reads until the peer closes the connection.
    public func readToEnd() async throws -> [UInt8] {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            do { try await fill(before: deadline) } catch Failure.closed { break }
        }
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whatever is buffered, taken.
    public func takeBuffered() -> [UInt8] {
        defer { buffer.removeAll() }
        return buffer
    }

    /// Bytes the kernel holds unread for this socket.
    public var unreadBytes: Int {
        var count: Int32 = 0
        _ = ioctl(fd, UInt(FIONREAD), &count)
        return Int(count)
    }

    /// Shuts the connection down in both directions now (the descriptor stays open until
    /// the socket is released).
    public func shutdown() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    private func crlfIndex() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for i in 0..<(buffer.count - 1) where buffer[i] == 13 && buffer[i + 1] == 10 { return i }
        return nil
    }
}
