import FeedCore
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A real HTTP/1.1 server on `127.0.0.1` (port 0, so a free one) that answers each request
/// from a script, for testing SSE clients — feedweb's ``FeedCore/UpstreamConnection`` in
/// unit tests, the `feedweb` binary (`--upstream`) in end-to-end tests.
///
/// What it does:
/// - **Records** every connection (when it opened and closed, and who closed it) and every
///   request (method, target, headers, arrival time), in order.
/// - **Answers** each request with the ``Response`` the responder returns for it — by
///   default the next one of a fixed script, then a fallback for every later request. A
///   response is a status, headers, and a body made of ``Step``s (bytes to send, pauses),
///   then an ``Ending``: close, stay open (for ``push(_:toConnection:timeout:)``), abort (drop the
///   connection without ending the body, like a network failure), or keep-alive. A response
///   can also be ``Response/silent`` (never answer), to test read timeouts.
/// - Writes the response bytes itself (no HTTP encoder), so the test controls the exact
///   framing: chunked (the default), close-delimited, or `Content-Length`.
/// - Optionally speaks TLS (NIOSSL) with a certificate chain and key from PEM files.
///
/// ```swift
/// let server = try await ScriptedSSEServer.start(script: [
///     .stream([.text(SSEText.event("data", data: #"{"n":1}"#, id: "1"))], ending: .close),
///     .status(503),
/// ])
/// defer { server.shutdownNow() }
/// // … point a client at server.url("/feed") …
/// let requests = try await server.waitForRequests(2, timeout: .seconds(5))
/// #expect(requests[1].header("Last-Event-ID") == "1")
/// await server.shutdown()
/// ```
///
/// Every wait is bounded: the `waitFor…` methods throw ``Eventually/TimedOut``. Scripts
/// play on the server's own event loop, never on Swift's cooperative pool.
/// Thread-safe; all methods may be called from any task or thread.
public final class ScriptedSSEServer: Sendable {
    // MARK: - Scripts

    /// One piece of a response body.
    public enum Step: Sendable {
        /// Send these body bytes now (framed per the response's ``Framing``).
        case send([UInt8])
        /// Wait before the next step.
        case pause(Duration)

        /// Send this text as UTF-8.
        public static func text(_ text: String) -> Step {
            .send(Array(text.utf8))
        }
    }

    /// How the body is delimited on the wire.
    public enum Framing: Sendable, Equatable {
        /// `Transfer-Encoding: chunked`; each send is one chunk.
        case chunked
        /// No length: the body ends when the server closes the connection.
        case closeDelimited
        /// `Content-Length` set to the total of the scripted sends (pushes are not allowed).
        case contentLength
    }

    /// What happens after the scripted body.
    public enum Ending: Sendable, Equatable {
        /// End the body properly (the last chunk when chunked) and close the connection.
        case close
        /// Keep the connection and the body open; ``push(_:toConnection:timeout:)`` sends more,
        /// ``finish(connection:)`` or ``abort(connection:)`` ends it.
        case stayOpen
        /// Close the connection without ending the body (no last chunk): a dropped stream.
        case abort
        /// End the body properly and wait for another request on the same connection.
        case keepAlive
    }

    /// The answer to one request.
    public struct Response: Sendable {
        public var status: Int
        /// Response headers, in order. `Transfer-Encoding`, `Content-Length` and
        /// `Connection` are added per ``framing`` and ``ending`` unless given here.
        public var headers: [(name: String, value: String)]
        public var framing: Framing
        public var body: [Step]
        public var ending: Ending
        /// A pause before the status line is sent.
        public var headDelay: Duration
        /// `false`: read the request and never answer (the connection stays open).
        public var answers: Bool

        public init(
            status: Int, headers: [(name: String, value: String)] = [], framing: Framing = .chunked,
            body: [Step] = [], ending: Ending = .close, headDelay: Duration = .zero, answers: Bool = true
        ) {
            self.status = status
            self.headers = headers
            self.framing = framing
            self.body = body
            self.ending = ending
            self.headDelay = headDelay
            self.answers = answers
        }

        /// A `200 text/event-stream` response with `body`, then `ending`. `contentType`
        /// replaces the media type (to test a wrong one); `extraHeaders` are added.
        public static func stream(
            _ body: [Step], ending: Ending = .close, contentType: String? = "text/event-stream; charset=utf-8",
            framing: Framing = .chunked, extraHeaders: [(name: String, value: String)] = []
        ) -> Response {
            var headers: [(name: String, value: String)] = [("Cache-Control", "no-cache")]
            if let contentType { headers.insert(("Content-Type", contentType), at: 0) }
            return Response(status: 200, headers: headers + extraHeaders, framing: framing, body: body, ending: ending)
        }

        /// A `200 text/event-stream` response whose body is `events` (SSE text), each sent
        /// as one write, then `ending`.
        public static func events(_ events: String..., ending: Ending = .close) -> Response {
            stream(events.map(Step.text), ending: ending)
        }

        /// A response with a status and a small fixed body (`Content-Length`).
        public static func status(
            _ status: Int, headers: [(name: String, value: String)] = [], body: String = ""
        ) -> Response {
            var all = headers
            if !body.isEmpty && !all.contains(where: { $0.name.lowercased() == "content-type" }) {
                all.append(("Content-Type", "text/plain; charset=utf-8"))
            }
            return Response(
                status: status, headers: all, framing: .contentLength, body: body.isEmpty ? [] : [.text(body)])
        }

        /// A redirect to `location` (`nil`: a redirect without a `Location` header).
        public static func redirect(_ status: Int = 302, to location: String?) -> Response {
            .status(status, headers: location.map { [("Location", $0)] } ?? [])
        }

        /// Reads the request and never answers; the connection stays open.
        public static var silent: Response {
            Response(status: 0, answers: false)
        }
    }

    /// TLS settings: a certificate chain (leaf first) and its private key, both PEM files.
    public struct TLS: Sendable {
        public var certificateChainPEMFile: String
        public var privateKeyPEMFile: String

        public init(certificateChainPEMFile: String, privateKeyPEMFile: String) {
            self.certificateChainPEMFile = certificateChainPEMFile
            self.privateKeyPEMFile = privateKeyPEMFile
        }
    }

    // MARK: - Records

    /// One request as it arrived.
    public struct RecordedRequest: Sendable {
        /// The order of arrival over all connections, from 0.
        public let index: Int
        /// The connection it came on (an index into ``connections``).
        public let connection: Int
        public let method: String
        /// The request target as sent (path and query).
        public let uri: String
        /// Headers in order, names as sent.
        public let headers: [(name: String, value: String)]
        /// The request's body, as UTF-8 text (empty: none).
        public let body: String
        /// When the end of the request arrived.
        public let receivedAt: ContinuousClock.Instant

        /// The path without the query.
        public var path: String {
            uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? uri
        }

        /// The first value of header `name` (case-insensitive), or `nil`.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// Every value of header `name` (case-insensitive), in order.
        public func headerValues(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    /// One accepted TCP connection.
    public struct ConnectionRecord: Sendable {
        public let index: Int
        public let openedAt: ContinuousClock.Instant
        /// When it closed, or `nil` while open.
        public internal(set) var closedAt: ContinuousClock.Instant?
        /// Whether the client closed it (or it failed) before the server's script ended it.
        public internal(set) var closedByClient = false
        /// Body bytes written so far (framing excluded), scripted and pushed.
        public internal(set) var bodyBytesSent = 0
        /// The requests that came on it, as indices into ``requests``.
        public internal(set) var requests: [Int] = []

        public var isOpen: Bool { closedAt == nil }
    }

    /// Why a call failed.
    public enum Failure: Error, CustomStringConvertible {
        case noOpenStream
        case tls(String)

        public var description: String {
            switch self {
            case .noOpenStream: return "no open streaming response to push to"
            case .tls(let message): return "TLS setup failed: \(message)"
            }
        }
    }

    // MARK: - State

    private struct Connection {
        var record: ConnectionRecord
        let channel: Channel
        /// The framing of the response being streamed (pushes use it), or `nil` when no
        /// body is open.
        var openBody: Framing?
        var closingByServer = false
        /// Set when the connection is ended: a script still playing stops at its next step.
        var scriptCancelled = false
    }

    private struct State {
        var connections: [Connection] = []
        var requests: [RecordedRequest] = []
        var shutDown = false
    }

    /// Picks the response for each request.
    public typealias Responder = @Sendable (RecordedRequest) -> Response

    /// The port it listens on.
    public let port: Int
    /// Whether it speaks TLS.
    public let usesTLS: Bool
    private let responder: Responder
    private let state = NIOLockedValueBox(State())
    private let serverChannel = NIOLockedValueBox<Channel?>(nil)

    private init(port: Int, usesTLS: Bool, responder: @escaping Responder) {
        self.port = port
        self.usesTLS = usesTLS
        self.responder = responder
    }

    /// Starts a server that answers the n-th request with `script[n]`, and every request
    /// after the script with `fallback` (by default `503`).
    public static func start(
        script: [Response], then fallback: Response = .status(503, body: "script exhausted"), tls: TLS? = nil
    ) async throws -> ScriptedSSEServer {
        try await start(tls: tls) { request in
            request.index < script.count ? script[request.index] : fallback
        }
    }

    /// Starts a server that answers each request with what `responder` returns for it.
    public static func start(tls: TLS? = nil, responder: @escaping Responder) async throws -> ScriptedSSEServer {
        let sslContext: NIOSSLContext?
        if let tls {
            do {
                let chain = try NIOSSLCertificate.fromPEMFile(tls.certificateChainPEMFile).map {
                    NIOSSLCertificateSource.certificate($0)
                }
                let key = try NIOSSLPrivateKey(file: tls.privateKeyPEMFile, format: .pem)
                let configuration = TLSConfiguration.makeServerConfiguration(
                    certificateChain: chain, privateKey: .privateKey(key))
                sslContext = try NIOSSLContext(configuration: configuration)
            } catch {
                throw Failure.tls(String(describing: error))
            }
        } else {
            sslContext = nil
        }
        let box = NIOLockedValueBox<ScriptedSSEServer?>(nil)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let server = box.withLockedValue({ $0 }) else {
                        throw Failure.noOpenStream
                    }
                    let id = server.accepted(channel)
                    let sync = channel.pipeline.syncOperations
                    if let sslContext {
                        try sync.addHandler(NIOSSLServerHandler(context: sslContext))
                    }
                    try sync.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try sync.addHandler(RequestHandler(server: server, connection: id))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw Failure.noOpenStream
        }
        let server = ScriptedSSEServer(port: port, usesTLS: sslContext != nil, responder: responder)
        server.serverChannel.withLockedValue { $0 = channel }
        box.withLockedValue { $0 = server }
        return server
    }

    deinit {
        shutdownNow()
    }

    /// `http(s)://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String = "/") -> String {
        "\(usesTLS ? "https" : "http")://127.0.0.1:\(port)\(path)"
    }

    /// Stops listening and closes every connection; waits until the listener is closed.
    public func shutdown() async {
        let channel = serverChannel.withLockedValue { $0 }
        shutdownNow()
        try? await channel?.closeFuture.get()
    }

    /// Stops listening and closes every connection, without waiting.
    public func shutdownNow() {
        let channel = serverChannel.withLockedValue { $0 }
        let open = state.withLockedValue { state -> [Connection] in
            state.shutDown = true
            for i in state.connections.indices where state.connections[i].record.isOpen {
                state.connections[i].closingByServer = true
                state.connections[i].scriptCancelled = true
            }
            return state.connections.filter { $0.record.isOpen }
        }
        channel?.close(promise: nil)
        for connection in open {
            connection.channel.close(promise: nil)
        }
    }

    // MARK: - Reading the records

    /// Every request so far, in order of arrival.
    public var requests: [RecordedRequest] {
        state.withLockedValue { $0.requests }
    }

    /// Every connection so far, in order of acceptance.
    public var connections: [ConnectionRecord] {
        state.withLockedValue { $0.connections.map(\.record) }
    }

    /// Waits (at most `timeout`) until at least `count` requests arrived; returns them all.
    @discardableResult
    public func waitForRequests(_ count: Int, timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        try await waitFor("\(count) requests (have \(requests.count))", timeout: timeout) {
            let all = self.requests
            return all.count >= count ? all : nil
        }
    }

    /// Waits (at most `timeout`) until connection `index` is closed; returns its record.
    @discardableResult
    public func waitForClose(ofConnection index: Int, timeout: Duration = .seconds(10)) async throws
        -> ConnectionRecord
    {
        try await waitFor("connection \(index) to close", timeout: timeout) {
            let all = self.connections
            guard index < all.count, !all[index].isOpen else { return nil }
            return all[index]
        }
    }

    /// Waits (at most `timeout`) until `condition` returns a value; returns it.
    @discardableResult
    public func waitFor<T>(
        _ what: String, timeout: Duration, poll: Duration = .milliseconds(5), _ condition: () -> T?
    ) async throws -> T {
        try await Eventually.value(what, within: timeout.timeInterval, poll: poll) { condition() }
    }

    /// The time between the arrivals of consecutive requests.
    public static func gaps(between requests: [RecordedRequest]) -> [Duration] {
        zip(requests, requests.dropFirst()).map { $1.receivedAt - $0.receivedAt }
    }

    // MARK: - Live streams

    /// Sends `text` as more body bytes on connection `index` (by default the newest one
    /// with an open body), framed like its response. When there is no such connection yet
    /// (its response head may still be on its way), waits for one at most `timeout`, then
    /// throws ``Failure/noOpenStream``.
    public func push(_ text: String, toConnection index: Int? = nil, timeout: Duration = .seconds(5)) async throws {
        try await push(bytes: Array(text.utf8), toConnection: index, timeout: timeout)
    }

    /// Sends `bytes` as more body bytes; see ``push(_:toConnection:timeout:)``.
    public func push(bytes: [UInt8], toConnection index: Int? = nil, timeout: Duration = .seconds(5)) async throws {
        let target: (Channel, Framing)
        do {
            target = try await waitFor("an open stream", timeout: timeout) {
                state.withLockedValue { state -> (Channel, Framing)? in
                    let candidates = state.connections.indices.filter {
                        state.connections[$0].record.isOpen && state.connections[$0].openBody != nil
                            && state.connections[$0].openBody != .contentLength
                    }
                    guard let i = index.map({ candidates.contains($0) ? $0 : -1 }) ?? candidates.last, i >= 0,
                        let framing = state.connections[i].openBody
                    else { return nil }
                    state.connections[i].record.bodyBytesSent += bytes.count
                    return (state.connections[i].channel, framing)
                }
            }
        } catch {
            throw Failure.noOpenStream
        }
        try await target.0.writeAndFlush(ByteBuffer(bytes: Self.frame(bytes, target.1)))
    }

    /// Ends the open body of connection `index` (by default every open one) properly and
    /// closes the connection.
    public func finish(connection index: Int? = nil) {
        end(connection: index, abruptly: false)
    }

    /// Closes connection `index` (by default every open one) without ending its body.
    public func abort(connection index: Int? = nil) {
        end(connection: index, abruptly: true)
    }

    private func end(connection index: Int?, abruptly: Bool) {
        let targets = state.withLockedValue { state -> [(Channel, Framing?)] in
            var out: [(Channel, Framing?)] = []
            for i in state.connections.indices where state.connections[i].record.isOpen && (index == nil || index == i)
            {
                state.connections[i].closingByServer = true
                out.append((state.connections[i].channel, state.connections[i].openBody))
                state.connections[i].openBody = nil
                state.connections[i].scriptCancelled = true
            }
            return out
        }
        for (channel, framing) in targets {
            if !abruptly, framing == .chunked {
                channel.writeAndFlush(ByteBuffer(string: "0\r\n\r\n")).whenComplete { _ in channel.close(promise: nil) }
            } else {
                channel.close(promise: nil)
            }
        }
    }

    // MARK: - Connection events (called by the handler)

    fileprivate func accepted(_ channel: Channel) -> Int {
        let (id, shutDown) = state.withLockedValue { state -> (Int, Bool) in
            let id = state.connections.count
            state.connections.append(
                Connection(record: ConnectionRecord(index: id, openedAt: .now), channel: channel, openBody: nil))
            return (id, state.shutDown)
        }
        channel.closeFuture.whenComplete { _ in self.closed(id) }
        if shutDown { channel.close(promise: nil) }
        return id
    }

    private func closed(_ id: Int) {
        state.withLockedValue { state in
            guard id < state.connections.count else { return }
            state.connections[id].record.closedAt = .now
            state.connections[id].record.closedByClient = !state.connections[id].closingByServer
            state.connections[id].openBody = nil
            state.connections[id].scriptCancelled = true
        }
    }

    fileprivate func received(
        connection id: Int, method: String, uri: String, headers: [(name: String, value: String)], body: [UInt8]
    ) {
        let (request, channel) = state.withLockedValue { state -> (RecordedRequest, Channel) in
            let request = RecordedRequest(
                index: state.requests.count, connection: id, method: method, uri: uri, headers: headers,
                body: String(decoding: body, as: UTF8.self), receivedAt: .now)
            state.requests.append(request)
            state.connections[id].record.requests.append(request.index)
            return (request, state.connections[id].channel)
        }
        let response = responder(request)
        guard response.answers else { return }
        play(response, on: channel, connection: id)
    }

    /// Plays one response's script on the channel's own event loop (never on Swift's
    /// cooperative pool, which the code under test and the tests' waits need): each step
    /// runs when the previous write has completed or its pause has passed, and the script
    /// stops as soon as the connection is ended.
    private func play(_ response: Response, on channel: Channel, connection id: Int) {
        let loop = channel.eventLoop
        let total = response.body.reduce(0) { sum, step in
            if case .send(let bytes) = step { return sum + bytes.count }
            return sum
        }
        @Sendable func live() -> Bool {
            state.withLockedValue { !$0.connections[id].scriptCancelled && $0.connections[id].record.isOpen }
        }
        @Sendable func finish() {
            guard live() else { return }
            switch response.ending {
            case .stayOpen:
                return
            case .keepAlive:
                state.withLockedValue { $0.connections[id].openBody = nil }
                if response.framing == .chunked {
                    channel.writeAndFlush(ByteBuffer(string: "0\r\n\r\n"), promise: nil)
                }
                if response.framing == .closeDelimited { end(connection: id, abruptly: false) }
            case .close:
                end(connection: id, abruptly: false)
            case .abort:
                end(connection: id, abruptly: true)
            }
        }
        @Sendable func run(_ steps: ArraySlice<Step>) {
            guard live() else { return }
            guard let step = steps.first else { return finish() }
            switch step {
            case .pause(let duration):
                loop.scheduleTask(in: .nanoseconds(duration.nanoseconds)) { run(steps.dropFirst()) }
            case .send(let bytes):
                state.withLockedValue { $0.connections[id].record.bodyBytesSent += bytes.count }
                channel.writeAndFlush(ByteBuffer(bytes: Self.frame(bytes, response.framing))).whenComplete { result in
                    if case .success = result { run(steps.dropFirst()) }
                }
            }
        }
        @Sendable func start() {
            guard live() else { return }
            channel.writeAndFlush(ByteBuffer(bytes: Self.head(of: response, contentLength: total))).whenComplete {
                result in
                guard case .success = result else { return }
                self.state.withLockedValue { $0.connections[id].openBody = response.framing }
                run(response.body[...])
            }
        }
        if response.headDelay > .zero {
            loop.scheduleTask(in: .nanoseconds(response.headDelay.nanoseconds)) { start() }
        } else {
            loop.execute { start() }
        }
    }

    private static func head(of response: Response, contentLength: Int) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        func has(_ name: String) -> Bool { response.headers.contains { $0.name.lowercased() == name } }
        for header in response.headers { text += "\(header.name): \(header.value)\r\n" }
        let bodyless = response.status == 204 || response.status == 304 || (100..<200).contains(response.status)
        if !bodyless {
            switch response.framing {
            case .chunked where !has("transfer-encoding"): text += "Transfer-Encoding: chunked\r\n"
            case .contentLength where !has("content-length"): text += "Content-Length: \(contentLength)\r\n"
            default: break
            }
        }
        if response.ending != .keepAlive && !has("connection") { text += "Connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    private static func frame(_ bytes: [UInt8], _ framing: Framing) -> [UInt8] {
        guard framing == .chunked else { return bytes }
        guard !bytes.isEmpty else { return [] }
        return Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10]
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}

/// Reads requests off one connection and hands them to the server.
private final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let server: ScriptedSSEServer
    private let connection: Int
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(server: ScriptedSSEServer, connection: Int) {
        self.server = server
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let bytes):
            body += bytes.readableBytesView
        case .end:
            guard let head else { return }
            self.head = nil
            server.received(
                connection: connection, method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { (name: $0.name, value: $0.value) }, body: body)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A TLS handshake the client refused, a malformed request, a reset: drop it.
        context.close(promise: nil)
    }
}

/// Builds Server-Sent Events text for scripts.
public enum SSEText {
    /// One event: `event:` (when `type` is given), `id:`, `retry:`, one `data:` line per
    /// line of `data`, then the blank line.
    public static func event(_ type: String? = nil, data: String, id: String? = nil, retry: Int? = nil) -> String {
        var text = ""
        if let type { text += "event: \(type)\n" }
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(retry)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return text + "\n"
    }

    /// A comment line (a heartbeat).
    public static func comment(_ text: String = "") -> String {
        ": \(text)\n"
    }

    /// A lone `retry:` field followed by a blank line (which dispatches nothing).
    public static func retry(_ milliseconds: Int) -> String {
        "retry: \(milliseconds)\n\n"
    }
}
