import Foundation
import HTTPTypes
import NIOCore
import NIOSSL
import NIOWebSocket
import WSClient

/// A WebSocket upstream (`--upstream ws://…` or `wss://…`, swift-websocket's
/// `WebSocketClient`): one attempt is one handshake and the reading of its messages until
/// the socket closes. Where a message goes: the socket → ``MessageProtocol`` (an
/// ``UpstreamCommand``) → ``UpstreamCommitter`` → ``FeedStore``.
///
/// - Once open, the configured messages go out (`--send`, a subscription), in order, before
///   any is read; so a reconnect subscribes again. A Socket.IO server
///   (``MessageProtocol/Framing/socketIO``) is first sent the join of its default namespace
///   (`40`) unless a message given joins it, and each of its pings (`2`) is answered (`3`).
///   An Engine.IO 3 server (`?EIO=3`, Socket.IO 2) joins the client by itself, so it is
///   not sent the join; it is pinged (`2`) every `pingInterval` its handshake names.
/// - What a message asks for is sent as ``MessageProtocol`` reads it
///   (``MessageProtocol/Reading``): a reply at once (a Pusher server's ping answered), and
///   from the first message that asks, a heartbeat every half `--read-timeout`, at most
///   every 30 s for a Phoenix server, 15 s for a SignalR hub, beside the reading. What is
///   sent to a SignalR hub is framed as its records (``SignalRMessage/framed(_:)``).
/// - The handshake carries every configured header (`--header`); a user name and password
///   in the URL become `Authorization: Basic …` unless one is configured, and never go
///   into the request line.
/// - `wss` is verified against the system's CA store plus `--ca-file`.
/// - A message may be up to `--max-event-bytes` (one frame or many); a larger one ends the
///   connection (the client closes with 1009) and is counted as an upstream error. One
///   frame more than twice the limit is not even read: swift-websocket drops the connection
///   (reported as a dropped WebSocket). Memory stays within twice the limit per connection.
/// - A ping goes out every half `--read-timeout`; one not answered before the next ends the
///   connection (swift-websocket closes with 1001), so a silent, dead peer is noticed.
/// - Upstream's close frame with a code other than 1000 or 1001 is counted as an upstream
///   error. Whatever ended the connection, the usual backoff and reconnect follow.
struct WebSocketTransport: UpstreamTransport {
    typealias Resources = Void

    let `protocol`: MessageProtocol
    let tls: TLSConfiguration

    /// `tls` with a short wait for upstream's TLS close: when the task is cancelled,
    /// swift-websocket closes the connection's input first, so upstream's `close_notify`
    /// can never be read and NIOSSL would wait its whole default (5 s) before closing;
    /// feedweb must stop within 2 s.
    init(protocol: MessageProtocol, tls: TLSConfiguration) {
        self.protocol = `protocol`
        var tls = tls
        tls.shutdownTimeout = .milliseconds(250)
        self.tls = tls
    }

    func attempt(with resources: Void, session: UpstreamSession) async -> UpstreamAttemptOutcome? {
        let limit = session.configuration.maxEventBytes
        let (url, authorization) = Self.requestURL(session.endpoint.url)
        // Frames up to twice the limit are read, so that one over it is told apart (and
        // closed with 1009 here); past that, swift-websocket drops the connection unsaid.
        var configuration = WebSocketClientConfiguration(
            maxFrameSize: Self.frameLimit(messageLimit: limit), closeTimeout: .seconds(2),
            autoPing: .enabled(timePeriod: max(session.configuration.readTimeout / 2, .milliseconds(25))))
        var configured = session.endpoint.headers
        if let authorization, !configured.contains(where: { $0.name.lowercased() == "authorization" }) {
            configured.append(("Authorization", authorization))
        }
        for header in configured {
            // Checked by UpstreamEndpoint: every name is a token, so this never skips one.
            guard let name = HTTPField.Name(header.name) else { continue }
            configuration.additionalHeaders.append(HTTPField(name: name, value: header.value))
        }
        let messageProtocol = self.protocol
        let requestedAt = Date()
        let client = WebSocketClient(
            url: url, configuration: configuration, tlsConfiguration: tls, logger: session.libraryLogger
        ) { inbound, outbound, _ in
            session.publish(.answered(status: 101, requestedAt: requestedAt, at: Date()))
            session.publish(.opened(at: Date()))
            session.logger.info("upstream: connected to \(session.shownURL)")
            // A Socket.IO server's default namespace is joined first, so that a subscription
            // sent after it is heard, unless a message given joins it (with its `auth`).
            let socketIO = messageProtocol.framing == .socketIO
            let engineIO3 = socketIO && SocketIOPacket.isEngineIO3(query: session.endpoint.url.query)
            let sends = session.configuration.sendOnOpen
            if socketIO && !engineIO3 && !sends.contains(where: { $0.hasPrefix(SocketIOPacket.join) }) {
                try await outbound.write(.text(SocketIOPacket.join))
            }
            for text in sends {
                // A SignalR hub's records each end with its separator, which `--send` may leave out.
                try await outbound.write(
                    .text(messageProtocol.framing == .signalR ? SignalRMessage.framed(text) : text))
            }
            if !sends.isEmpty { session.logger.info("upstream: sent \(sends.count) message(s) (--send)") }
            // Heartbeats (Engine.IO 3's pings, a Phoenix server's heartbeats, a SignalR hub's
            // pings) go out from the first message that asks for them on, beside the reading.
            let (heartbeats, heartbeat) = AsyncStream.makeStream(
                of: Heartbeat.self, bufferingPolicy: .bufferingNewest(1))
            let heartbeatInterval = max(session.configuration.readTimeout / 2, .milliseconds(25))
            try await withThrowingTaskGroup(of: Void.self) { pinger in
                pinger.addTask { try await Self.send(heartbeats, on: outbound) }
                try await Self.read(
                    inbound, answering: outbound, protocol: messageProtocol, session: session, limit: limit,
                    heartbeat: heartbeat, every: heartbeatInterval, engineIO3: engineIO3)
                pinger.cancelAll()
            }
        }
        let error: UpstreamError
        do {
            let close = try await client.run()
            error = Self.error(closedWith: close)
        } catch let failure {
            error = Self.error(failure, limit: limit, url: session.endpoint.url)
        }
        guard !Task.isCancelled else { return nil }
        switch error {
        case .eventTooLarge, .webSocketClosed:
            // Bad input from upstream: counted as an upstream error, as well as ending the
            // connection.
            session.publish(.upstreamError(message: error.description))
        default:
            break
        }
        return .ended(error)
    }

    /// A text the client sends every `interval`: Engine.IO 3's ping, a Phoenix heartbeat, a
    /// SignalR ping.
    struct Heartbeat: Sendable {
        let text: String
        let interval: Duration
    }

    /// Reads `inbound`'s messages into the committer until the socket closes: each through
    /// `protocol`, its reply (a server's ping answered) written to `outbound`, a message over
    /// `limit` closed with 1009. The first heartbeat a message asks for goes to `heartbeat`,
    /// sent every `interval` or its own longest interval, whichever is shorter; with
    /// `engineIO3`, the ping every interval of the handshake.
    private static func read(
        _ inbound: WebSocketInboundStream, answering outbound: WebSocketOutboundWriter,
        protocol messageProtocol: MessageProtocol, session: UpstreamSession, limit: Int,
        heartbeat: AsyncStream<Heartbeat>.Continuation, every interval: Duration, engineIO3: Bool
    ) async throws {
        try await UpstreamCommitter(session: session).run { queue in
            var beating = false
            for try await message in inbound.messages(maxSize: limit) {
                let received = MonotonicTime.now()
                let byteCount: Int
                switch message {
                case .text(let text): byteCount = text.utf8.count
                case .binary(let buffer): byteCount = buffer.readableBytes
                }
                session.publish(.received(bytes: UInt64(byteCount)))
                guard byteCount <= limit else {
                    try? await outbound.close(.messageTooLarge, reason: "message too large")
                    throw UpstreamError.eventTooLarge(limit: limit)
                }
                let event: SSEEvent
                let reading: MessageProtocol.Reading
                switch message {
                case .text(let text):
                    event = SSEEvent(type: "message", data: text)
                    reading = messageProtocol.read(.text(text))
                    // A server's ping must be answered, or the server drops the client.
                    if let reply = reading.reply { try await outbound.write(.text(reply)) }
                    if !beating, engineIO3, let every = SocketIOPacket.pingInterval(handshake: text) {
                        beating = true
                        heartbeat.yield(Heartbeat(text: SocketIOPacket.pingText, interval: every))
                    }
                case .binary:
                    event = SSEEvent(type: "binary", data: "")
                    reading = messageProtocol.read(.binary(byteCount: byteCount))
                }
                if !beating, let asked = reading.heartbeat {
                    beating = true
                    heartbeat.yield(Heartbeat(text: asked.text, interval: min(interval, asked.longestInterval)))
                }
                let read = UpstreamReadQueue.Read(
                    events: reading.commands.map { (event, $0) }, lastEventID: "", reconnectionTime: nil,
                    byteCount: byteCount,
                    arrival: UpstreamArrival(received: received, parsed: MonotonicTime.now()))
                guard await queue.put(read) else { return }  // the committer stopped
            }
        }
    }

    /// Sends the heartbeat `heartbeats` gives first, every its interval, until cancelled or
    /// the socket refuses the write.
    private static func send(_ heartbeats: AsyncStream<Heartbeat>, on outbound: WebSocketOutboundWriter)
        async throws
    {
        for await heartbeat in heartbeats {
            while true {
                try await Task.sleep(for: heartbeat.interval)
                try await outbound.write(.text(heartbeat.text))
            }
        }
    }

    /// The largest frame read: twice the message limit (at least 16 KiB), within what
    /// NIOWebSocket takes.
    static func frameLimit(messageLimit: Int) -> Int {
        min(max(messageLimit, 8 * 1024) * 2, Int(UInt32.max))
    }

    /// What upstream's close frame (`nil`: none came) says about how the connection ended.
    static func error(closedWith close: WebSocketCloseFrame?) -> UpstreamError {
        guard let close else { return .webSocketDropped }
        switch close.closeCode {
        case .normalClosure, .goingAway: return .endOfStream
        default: return .webSocketClosed(code: UInt16(webSocketErrorCode: close.closeCode), reason: close.reason)
        }
    }

    /// What a failure of the client means.
    static func error(_ failure: any Error, limit: Int, url: URL) -> UpstreamError {
        if let failure = failure as? WebSocketClientError {
            if failure == .serverSentMessageTooLarge { return .eventTooLarge(limit: limit) }
            if failure == .webSocketUpgradeFailed {
                // swift-websocket's own `Origin`, which a `--header Origin:` goes beside.
                return .webSocketUpgradeRefused(origin: "\(url.scheme ?? "ws")://\(url.host ?? "")")
            }
            if failure == .serverSentDataInconsistentWithMessage {
                return .transport("upstream sent a text message that is not UTF-8")
            }
            if failure == .serverProtocolError { return .transport("upstream broke the WebSocket protocol") }
        }
        if let failure = failure as? NIOWebSocketError, failure == .invalidFrameLength {
            return .eventTooLarge(limit: limit)
        }
        return TransportFailure.upstreamError(failure, url: url)
    }

    /// The URL to ask, without user information (swift-websocket would take it for the
    /// host), and the `Authorization: Basic` value for that user information, if any.
    static func requestURL(_ url: URL) -> (url: String, authorization: String?) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.user != nil || components.password != nil
        else { return (url.absoluteString, nil) }
        let credentials = "\(components.user ?? ""):\(components.password ?? "")"
        components.user = nil
        components.password = nil
        return (components.string ?? url.absoluteString, "Basic " + Data(credentials.utf8).base64EncodedString())
    }
}
