import FeedCore
import Foundation
import Glibc

/// Bounded waiting for end-to-end tests.
public enum Eventually {
    public struct TimedOut: Error, CustomStringConvertible {
        public let what: String
        public var description: String { "timed out waiting for \(what)" }
    }

    /// Polls `condition` every `poll` seconds until it returns a value or `seconds` pass
    /// (a thrown error counts as "not yet"). Sleeps between polls without holding a thread.
    @discardableResult
    public static func value<T>(
        _ what: String, within seconds: Double, poll: Double = 0.02, _ condition: () async throws -> T?
    ) async throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let value = try? await condition() { return value }
            guard Date() < deadline else { throw TimedOut(what: what) }
            try await Task.sleep(for: .milliseconds(Int(poll * 1000)))
        }
    }

    /// Polls until `condition` holds or `seconds` pass.
    public static func check(
        _ what: String, within seconds: Double, poll: Double = 0.02, _ condition: () async throws -> Bool
    ) async throws {
        try await value(what, within: seconds, poll: poll) { try await condition() ? true : nil }
    }
}

/// What a test reads from a feedweb over plain HTTP.
public enum FeedwebProbe {
    /// Waits until `/readyz` answers 200.
    public static func waitUntilReady(port: UInt16, within seconds: Double = 20) async throws {
        try await Eventually.check("feedweb on port \(port) to be ready", within: seconds, poll: 0.05) {
            try HTTPTestClient.get(port: port, "/readyz", timeout: 2).status == 200
        }
    }

    /// `/api/state`: the mirror and its ETag without quotes (the `EPOCH-SEQ` id).
    public static func state(port: UInt16) throws -> (document: JSONValue, id: String) {
        let response = try HTTPTestClient.get(port: port, "/api/state", timeout: 5)
        guard response.status == 200, let etag = response.headers["etag"] else { throw RawSocket.Failure.closed }
        return (try JSONValue(parsing: response.body), etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
    }

    /// `/api/items`: the normalised items of the published view.
    public static func items(port: UInt16) throws -> [JSONValue] {
        let response = try HTTPTestClient.get(port: port, "/api/items", timeout: 5)
        return try JSONValue(parsing: response.body).arrayValue ?? []
    }

    /// Waits until the mirror equals `document`; returns its id.
    @discardableResult
    public static func waitForState(_ document: JSONValue, port: UInt16, within seconds: Double = 5) async throws
        -> String
    {
        try await Eventually.value("the mirror on port \(port) to reach the expected document", within: seconds) {
            let state = try state(port: port)
            return state.document == document ? state.id : nil
        }
    }
}

/// A stream client that never reads: a socket with a tiny receive buffer (set before
/// connecting, so the advertised window stays small) that sends its request and then
/// leaves every byte in the kernel.
public final class StalledStreamClient {
    public let fd: Int32

    /// Connects to `127.0.0.1:port` and requests `path`.
    public init(port: UInt16, path: String = "/events", receiveBuffer: Int32 = 2048) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size = receiveBuffer
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
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
            throw RawSocket.Failure.connect(code)
        }
        let request = Array(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else {
            close(fd)
            throw RawSocket.Failure.closed
        }
    }

    deinit {
        close(fd)
    }

    /// Bytes waiting unread in this socket's receive queue.
    public var unreadBytes: Int {
        var count: Int32 = 0
        _ = ioctl(fd, UInt(FIONREAD), &count)
        return Int(count)
    }

    /// Reads everything until the server closes the connection (or `seconds` pass):
    /// returns the bytes and whether the end was a close (`false`: timed out while open).
    public func drain(within seconds: Double) async throws -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                bytes += chunk[0..<n]
            } else if n == 0 {
                return (bytes, true)
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try await Task.sleep(for: .milliseconds(5))
            } else {
                return (bytes, true)  // reset by the server: closed as well
            }
        }
        return (bytes, false)
    }
}
