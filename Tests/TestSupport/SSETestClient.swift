import FeedCore
import Foundation

/// A Server-Sent Events client over a real socket: sends one `GET`, reads the response
/// head, then decodes the body (chunked or close-delimited) incrementally and parses it
/// with feedweb's own ``SSEParser`` (which the conformance suite checks). A wait that
/// times out in the middle of a chunk loses nothing.
///
/// Every wait is `async` and bounded; none holds a thread of Swift's cooperative pool.
public final class SSETestClient: @unchecked Sendable {
    public let socket: RawSocket
    public let status: Int
    /// Header names lower-cased.
    public let headers: [String: String]
    /// Every body byte received so far, after chunked decoding.
    public private(set) var received: [UInt8] = []
    private var decoder: ChunkedDecoder?
    private var parser = SSEParser()
    private var pending: [SSEEvent] = []
    private var ended = false
    /// Whether the body ended properly: the last chunk of a chunked body was read.
    public private(set) var endedCleanly = false

    public struct UnexpectedEvent: Error, CustomStringConvertible {
        public let expected: String
        public let event: SSEEvent
        public var description: String {
            "expected event \(expected), got \(event.type) (id \(event.id)): \(event.data.prefix(200))"
        }
    }

    /// Opens `path` with `Accept: text/event-stream` (unless `headers` has an `Accept`)
    /// plus `headers`; waits at most `timeout` seconds for the response head.
    /// `receiveBuffer` and `maxSegment` make a slow reader (see
    /// ``RawSocket/init(port:timeout:receiveBuffer:maxSegment:)``).
    public init(
        port: UInt16, path: String = "/events", headers: [String: String] = [:], timeout: Double = 10,
        receiveBuffer: Int32? = nil, maxSegment: Int32? = nil
    ) async throws {
        socket = try await RawSocket(
            port: port, timeout: timeout, receiveBuffer: receiveBuffer, maxSegment: maxSegment)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if headers["Accept"] == nil { request += "Accept: text/event-stream\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        try await socket.send(request)
        (status, self.headers) = try await HTTPTestClient.readHead(from: socket)
        if self.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            decoder = ChunkedDecoder()
        }
        try consume(socket.takeBuffered())
    }

    /// The next event, waiting at most until `deadline`; throws `RawSocket.Failure.timeout`
    /// or `.closed` (the server ended the stream).
    public func next(before deadline: Date) async throws -> SSEEvent {
        let limit = ContinuousClock.now + .seconds(max(0, deadline.timeIntervalSinceNow))
        while pending.isEmpty {
            if ended { throw RawSocket.Failure.closed }
            do {
                try consume(try await socket.receive(before: limit))
            } catch RawSocket.Failure.closed {
                ended = true
            }
        }
        return pending.removeFirst()
    }

    /// Reads once, at most `limit` bytes (waiting until `deadline` for some), and returns
    /// every event complete so far: for a client that takes the stream at its own pace.
    /// Throws `RawSocket.Failure.timeout`, or `.closed` once the server has ended the
    /// stream and every event was returned.
    public func take(atMost limit: Int, before deadline: Date) async throws -> [SSEEvent] {
        if pending.isEmpty {
            if ended { throw RawSocket.Failure.closed }
            do {
                let until = ContinuousClock.now + .seconds(max(0, deadline.timeIntervalSinceNow))
                try consume(try await socket.receive(before: until, atMost: limit))
            } catch RawSocket.Failure.closed {
                ended = true
            }
        }
        defer { pending.removeAll() }
        return pending
    }

    /// The next event, which must be of `type`, within `seconds`.
    @discardableResult
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

    /// The events that arrive until none has for `quiet` seconds; the first may take up to
    /// `firstWithin` seconds (a loaded machine can be slow to send it: a quiet time is no
    /// bound on the first answer). A test that expects none passes its quiet time there too.
    public func events(untilQuietFor quiet: Double, firstWithin: Double = 10) async throws -> [SSEEvent] {
        var out: [SSEEvent] = []
        while true {
            do {
                let wait = out.isEmpty ? max(quiet, firstWithin) : quiet
                out.append(try await next(before: Date().addingTimeInterval(wait)))
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

    /// Whether the server has ended the stream (as far as read so far).
    public var isEnded: Bool { ended && pending.isEmpty }

    /// Closes the connection now.
    public func close() {
        socket.shutdown()
    }

    private func consume(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let body: [UInt8]
        if var chunked = decoder {
            body = try chunked.feed(bytes)
            if chunked.finished {
                ended = true
                endedCleanly = true
            }
            decoder = chunked
        } else {
            body = bytes
        }
        received += body
        pending += try parser.parse(body)
    }
}
