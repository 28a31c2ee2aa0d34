import Foundation
import Glibc

/// A blocking TCP connection to 127.0.0.1 with a receive timeout, for tests that need
/// to see exactly what goes over the wire.
public final class RawSocket {
    public enum Failure: Error, CustomStringConvertible {
        case connect(Int32)
        case timeout
        case closed
        public var description: String {
            switch self {
            case .connect(let code): return "connect failed: errno \(code)"
            case .timeout: return "timed out waiting for data"
            case .closed: return "connection closed"
            }
        }
    }

    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; reads wait at most `timeout` seconds each.
    public init(port: UInt16, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure.connect(code)
        }
        setTimeout(timeout)
    }

    deinit {
        close(fd)
    }

    /// Sets the per-read timeout in seconds.
    public func setTimeout(_ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sets a small receive buffer (before connecting traffic), to make a slow reader.
    public func setReceiveBuffer(_ bytes: Int32) {
        var size = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure.closed }
            offset += n
        }
    }

    /// Reads more bytes into the buffer; throws on timeout or close.
    @discardableResult
    public func fill() throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure.timeout }
            throw Failure.closed
        }
        if n == 0 { throw Failure.closed }
        buffer.append(contentsOf: chunk[0..<n])
        return n
    }

    /// Reads through the next CRLF and returns the line without it.
    public func readLine() throws -> String {
        while true {
            if let index = crlfIndex() {
                let line = String(decoding: buffer[0..<index], as: UTF8.self)
                buffer.removeFirst(index + 2)
                return line
            }
            try fill()
        }
    }

    /// Reads exactly `count` bytes.
    public func read(count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        let out = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return out
    }

    /// Reads until the peer closes the connection.
    public func readToEnd() throws -> [UInt8] {
        while true {
            do { try fill() } catch Failure.closed { break }
        }
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whatever is buffered, taken.
    public func takeBuffered() -> [UInt8] {
        defer { buffer.removeAll() }
        return buffer
    }

    private func crlfIndex() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for i in 0..<(buffer.count - 1) where buffer[i] == 13 && buffer[i + 1] == 10 { return i }
        return nil
    }
}
