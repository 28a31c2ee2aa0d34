import FeedCore
import Foundation

/// Reads a Server-Sent Events stream over a real socket, decoding the chunked body and
/// parsing events with feedweb's own ``SSEParser`` (which the conformance suite checks).
public final class SSETestClient {
    public let socket: RawSocket
    public let status: Int
    public let headers: [String: String]
    private var decoder = ChunkedDecoder()
    private var parser = SSEParser()
    private var pending: [SSEEvent] = []
    private let chunked: Bool
    /// Every body byte received so far (for tests that check the wire format).
    public private(set) var received: [UInt8] = []

    /// Opens `path` with `Accept: text/event-stream` plus `headers`.
    public init(port: UInt16, path: String = "/events", headers: [String: String] = [:], timeout: Double = 10) throws {
        socket = try RawSocket(port: port, timeout: timeout)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if headers["Accept"] == nil { request += "Accept: text/event-stream\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        try socket.send(request)
        (status, self.headers) = try HTTPTestClient.readHead(from: socket)
        chunked = self.headers["transfer-encoding"]?.lowercased().contains("chunked") == true
    }

    /// The next event, waiting at most until `deadline`.
    public func next(before deadline: Date) throws -> SSEEvent {
        while pending.isEmpty {
            guard Date() < deadline else { throw RawSocket.Failure.timeout }
            socket.setTimeout(max(0.05, deadline.timeIntervalSinceNow))
            let bytes: [UInt8]
            if chunked {
                bytes = try decoder.next(from: socket)
                if decoder.finished { throw RawSocket.Failure.closed }
            } else {
                try socket.fill()
                bytes = socket.takeBuffered()
            }
            received += bytes
            pending += try parser.parse(bytes)
        }
        return pending.removeFirst()
    }

    /// The next event of `type`, skipping others, waiting at most `seconds`.
    public func next(type: String, within seconds: Double) throws -> SSEEvent {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let event = try next(before: deadline)
            if event.type == type { return event }
        }
    }
}
