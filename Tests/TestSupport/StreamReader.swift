import FeedCore
import Foundation
import Glibc

/// An SSE client over a raw socket whose chunked decoding is incremental, so a read that
/// times out in the middle of a chunk loses nothing (the waits in stream tests are short
/// and many). Events are parsed by feedweb's own ``SSEParser``.
public final class StreamReader {
    public let socket: RawSocket
    public let status: Int
    /// Header names lower-cased.
    public let headers: [String: String]
    /// Every body byte received so far, after chunked decoding.
    public private(set) var received: [UInt8] = []
    private var decoder: IncrementalChunkDecoder?
    private var parser = SSEParser()
    private var pending: [SSEEvent] = []
    private var ended = false

    /// Opens `path` with `Accept: text/event-stream` (unless `headers` has an `Accept`).
    public init(port: UInt16, path: String = "/events", headers: [String: String] = [:], timeout: Double = 5) throws {
        socket = try RawSocket(port: port, timeout: timeout)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if headers["Accept"] == nil { request += "Accept: text/event-stream\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        try socket.send(request)
        (status, self.headers) = try HTTPTestClient.readHead(from: socket)
        if self.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            decoder = IncrementalChunkDecoder()
        }
        try consume(socket.takeBuffered())
    }

    // The waits below are `async` and poll the socket without blocking, sleeping between
    // tries: a test that waits must not hold one of the few threads of Swift's cooperative
    // pool, which the scripted upstream and an in-process feedweb need to make progress.

    /// The next event, waiting at most until `deadline`; throws `RawSocket.Failure.timeout`
    /// or `.closed`.
    public func next(before deadline: Date) async throws -> SSEEvent {
        while pending.isEmpty {
            if ended { throw RawSocket.Failure.closed }
            if try readAvailable() { continue }
            guard Date() < deadline else { throw RawSocket.Failure.timeout }
            try await Task.sleep(for: .milliseconds(2))
        }
        return pending.removeFirst()
    }

    /// The next event, blocking the calling thread (for readers on threads of their own).
    public func nextBlocking(before deadline: Date) throws -> SSEEvent {
        while pending.isEmpty {
            if ended { throw RawSocket.Failure.closed }
            if try readAvailable() { continue }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw RawSocket.Failure.timeout }
            var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1)
        }
        return pending.removeFirst()
    }

    /// The next event, which must be of `type`, within `seconds`.
    public func expectNext(_ type: String, within seconds: Double = 5) async throws -> SSEEvent {
        let event = try await next(before: Date().addingTimeInterval(seconds))
        guard event.type == type else { throw UnexpectedEvent(expected: type, event: event) }
        return event
    }

    /// The next event of `type`, skipping others, within `seconds`.
    public func next(type: String, within seconds: Double) async throws -> SSEEvent {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let event = try await next(before: deadline)
            if event.type == type { return event }
        }
    }

    /// Every event until none arrives for `quiet` seconds.
    public func events(untilQuietFor quiet: Double) async throws -> [SSEEvent] {
        var out: [SSEEvent] = []
        while true {
            do {
                out.append(try await next(before: Date().addingTimeInterval(quiet)))
            } catch RawSocket.Failure.timeout {
                return out
            }
        }
    }

    /// Every event for `seconds`, however many arrive.
    public func events(for seconds: Double) async throws -> [SSEEvent] {
        let deadline = Date().addingTimeInterval(seconds)
        var out: [SSEEvent] = []
        while true {
            do {
                out.append(try await next(before: deadline))
            } catch RawSocket.Failure.timeout {
                return out
            }
        }
    }

    /// Waits until the server ends the stream (with its last chunk or by closing),
    /// ignoring events; `false` if it is still open after `seconds`.
    public func waitForEnd(within seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                _ = try await next(before: deadline)
            } catch RawSocket.Failure.timeout {
                return false
            } catch {
                return true
            }
        }
    }

    /// Closes the connection now.
    public func close() {
        shutdown(socket.fd, Int32(SHUT_RDWR))
    }

    public struct UnexpectedEvent: Error, CustomStringConvertible {
        public let expected: String
        public let event: SSEEvent
        public var description: String {
            "expected event \(expected), got \(event.type) (id \(event.id)): \(event.data.prefix(200))"
        }
    }

    /// Takes whatever the socket holds now, without waiting; `false` if it held nothing.
    private func readAvailable() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n > 0 {
            try consume(Array(chunk[0..<n]))
            return true
        }
        if n == 0 {
            ended = true
            return true
        }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return false }
        ended = true
        return true
    }

    private func consume(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let body: [UInt8]
        if decoder != nil {
            body = try decoder!.feed(bytes)
            if decoder!.finished { ended = true }
        } else {
            body = bytes
        }
        received += body
        pending += try parser.parse(body)
    }
}

/// `Transfer-Encoding: chunked`, decoded from whatever pieces arrive.
public struct IncrementalChunkDecoder {
    private enum Phase {
        case size
        case data(remaining: Int)
        case dataEnd(remaining: Int)
        case trailer
        case done
    }

    public struct Malformed: Error {}

    private var phase = Phase.size
    private var line: [UInt8] = []

    public init() {}

    public var finished: Bool {
        if case .done = phase { return true }
        return false
    }

    /// Feeds raw bytes; returns the body bytes they complete.
    public mutating func feed(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            switch phase {
            case .size, .trailer:
                let byte = bytes[index]
                index += 1
                if byte != 10 {
                    if byte != 13 { line.append(byte) }
                    continue
                }
                let text = String(decoding: line, as: UTF8.self)
                line.removeAll()
                if case .trailer = phase {
                    if text.isEmpty { phase = .done }
                    continue
                }
                guard let size = Int(text.split(separator: ";").first.map(String.init) ?? "", radix: 16) else {
                    throw Malformed()
                }
                phase = size == 0 ? .trailer : .data(remaining: size)
            case .data(let remaining):
                let count = min(remaining, bytes.count - index)
                out += bytes[index..<(index + count)]
                index += count
                phase = remaining == count ? .dataEnd(remaining: 2) : .data(remaining: remaining - count)
            case .dataEnd(let remaining):
                index += 1
                phase = remaining == 1 ? .size : .dataEnd(remaining: remaining - 1)
            case .done:
                return out
            }
        }
        return out
    }
}
