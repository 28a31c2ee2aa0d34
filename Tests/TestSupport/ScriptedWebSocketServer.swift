import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A real WebSocket server on `127.0.0.1` (port 0, so a free one; NIOWebSocket's upgrader)
/// for testing WebSocket clients: feedweb's upstream connection in unit tests, the
/// `feedweb` binary (`--upstream ws://…`) in end-to-end tests.
///
/// - **Records** every handshake (request target and headers, in order) and every
///   connection (open or closed, the close code the client sent, the text messages it sent).
/// - **Plays** a script on each connection once the client has sent its first ping (so the
///   client must ping: give it a short read timeout): the responder picks the
///   ``Action``s for the n-th connection (text and binary messages, pauses, a close frame
///   with a code, a dropped connection). ``send(_:toConnection:)`` sends more later.
/// - Answers pings with pongs unless ``answersPings`` is off (to test a silent peer).
/// - Optionally speaks TLS (`wss`) with a certificate chain and key from PEM files.
///
/// Why scripts wait for a ping: swift-websocket 1.6.2 can lose frames, and the end of the
/// connection, that arrive while it is still switching its pipeline from HTTP to WebSocket
/// (feedweb notices such a lost end by its pings). The client's first ping proves it has
/// switched, so no script races it: the tests check feedweb, not that race.
///
/// Every wait is bounded. Scripts play on the server's event loop. Thread-safe.
public final class ScriptedWebSocketServer: Sendable {
    /// One step of a script.
    public enum Action: Sendable {
        /// A text message, one frame.
        case text(String)
        /// A binary message, one frame.
        case binary([UInt8])
        /// A text message split into frames of at most `frameSize` bytes.
        case fragmentedText(String, frameSize: Int)
        /// Wait before the next step.
        case pause(Duration)
        /// A close frame with `code` and `reason`, then the connection is closed.
        case close(code: UInt16, reason: String)
        /// The TCP connection is closed without a close frame: its sending side first (a FIN
        /// after the last message), then the whole of it once the client closes its own or
        /// a second later. A plain close could reset the connection (the client's pings
        /// still unread here) and take the last message with it, under load.
        case drop
    }

    /// One upgrade request as it arrived.
    public struct Handshake: Sendable {
        /// The request target (path and query).
        public let uri: String
        /// Headers in order, names as sent.
        public let headers: [(name: String, value: String)]

        /// The first value of header `name` (case-insensitive), or `nil`.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// One upgraded connection.
    public struct ConnectionRecord: Sendable {
        public let handshake: Handshake
        public internal(set) var isOpen = true
        /// The code of the close frame the client sent, if it sent one.
        public internal(set) var clientCloseCode: UInt16?
        /// Pings received from the client.
        public internal(set) var pingsReceived = 0
        /// The text messages the client sent (each one frame), in order.
        public internal(set) var textsReceived: [String] = []
    }

    private struct State {
        var connections: [ConnectionRecord] = []
        var channels: [Channel] = []
        /// Each connection's script, until its first ping starts it.
        var pendingScripts: [[Action]?] = []
        var answersPings = true
        var shutDown = false
    }

    /// Picks the script of the n-th connection (from 0).
    public typealias Responder = @Sendable (Int) -> [Action]

    public let port: Int
    /// Whether it speaks TLS (`wss`).
    public let usesTLS: Bool
    private let responder: Responder
    private let state = NIOLockedValueBox(State())
    private let serverChannel = NIOLockedValueBox<Channel?>(nil)

    private init(port: Int, usesTLS: Bool, responder: @escaping Responder) {
        self.port = port
        self.usesTLS = usesTLS
        self.responder = responder
    }

    /// Starts a server (with `tls`: a `wss` one) that plays `responder(n)` on the n-th
    /// connection.
    public static func start(
        tls: ScriptedSSEServer.TLS? = nil, responder: @escaping Responder
    ) async throws -> ScriptedWebSocketServer {
        let sslContext: NIOSSLContext?
        if let tls {
            let chain = try NIOSSLCertificate.fromPEMFile(tls.certificateChainPEMFile).map {
                NIOSSLCertificateSource.certificate($0)
            }
            let key = try NIOSSLPrivateKey(file: tls.privateKeyPEMFile, format: .pem)
            sslContext = try NIOSSLContext(
                configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
        } else {
            sslContext = nil
        }
        let box = NIOLockedValueBox<ScriptedWebSocketServer?>(nil)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let pending = NIOLockedValueBox<Handshake?>(nil)
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: 1 << 20,
                    shouldUpgrade: { channel, head in
                        pending.withLockedValue {
                            $0 = Handshake(uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
                        }
                        return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
                    },
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            guard let server = box.withLockedValue({ $0 }),
                                let handshake = pending.withLockedValue({ $0 })
                            else { throw ChannelError.ioOnClosedChannel }
                            let id = server.opened(channel, handshake: handshake)
                            try channel.pipeline.syncOperations.addHandler(FrameHandler(server: server, connection: id))
                        }
                    })
                if let sslContext {
                    do {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    } catch {
                        return channel.eventLoop.makeFailedFuture(error)
                    }
                }
                return channel.pipeline.configureHTTPServerPipeline(
                    withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw ChannelError.ioOnClosedChannel
        }
        let server = ScriptedWebSocketServer(port: port, usesTLS: sslContext != nil, responder: responder)
        server.serverChannel.withLockedValue { $0 = channel }
        box.withLockedValue { $0 = server }
        return server
    }

    /// Starts a server that plays `script` on the first connection and `then` on every
    /// later one.
    public static func start(
        script: [Action], then later: [Action] = [], tls: ScriptedSSEServer.TLS? = nil
    ) async throws -> ScriptedWebSocketServer {
        try await start(tls: tls) { $0 == 0 ? script : later }
    }

    deinit {
        shutdownNow()
    }

    /// `ws://127.0.0.1:PORT` (`wss://` with TLS) followed by `path`.
    public func url(_ path: String = "/") -> String {
        "\(usesTLS ? "wss" : "ws")://127.0.0.1:\(port)\(path)"
    }

    /// Whether pings are answered (on by default).
    public var answersPings: Bool {
        get { state.withLockedValue { $0.answersPings } }
        set { state.withLockedValue { $0.answersPings = newValue } }
    }

    /// Every connection so far, in order.
    public var connections: [ConnectionRecord] {
        state.withLockedValue { $0.connections }
    }

    /// Waits (at most `timeout`) until at least `count` connections were upgraded.
    @discardableResult
    public func waitForConnections(_ count: Int, timeout: Duration = .seconds(10)) async throws -> [ConnectionRecord] {
        try await Eventually.value(
            "\(count) WebSocket connections", within: timeout.timeInterval, poll: .milliseconds(5)
        ) {
            let all = connections
            return all.count >= count ? all : nil
        }
    }

    /// Plays `actions` on connection `index` (by default the newest one).
    public func send(_ actions: [Action], toConnection index: Int? = nil) throws {
        let target = state.withLockedValue { state -> (Channel, Int)? in
            let i = index ?? state.channels.count - 1
            return state.channels.indices.contains(i) ? (state.channels[i], i) : nil
        }
        guard let (channel, id) = target else { throw ChannelError.ioOnClosedChannel }
        play(actions, on: channel, connection: id)
    }

    /// Stops listening and closes every connection; waits until the listener is closed.
    public func shutdown() async {
        let channel = serverChannel.withLockedValue { $0 }
        shutdownNow()
        try? await channel?.closeFuture.get()
    }

    /// Stops listening and closes every connection, without waiting.
    public func shutdownNow() {
        let (listener, open) = (
            serverChannel.withLockedValue { $0 },
            state.withLockedValue { state -> [Channel] in
                state.shutDown = true
                return state.channels
            }
        )
        listener?.close(promise: nil)
        for channel in open { channel.close(promise: nil) }
    }

    // MARK: - Connection events

    fileprivate func opened(_ channel: Channel, handshake: Handshake) -> Int {
        let (id, shutDown) = state.withLockedValue { state -> (Int, Bool) in
            state.connections.append(ConnectionRecord(handshake: handshake))
            state.channels.append(channel)
            state.pendingScripts.append(responder(state.connections.count - 1))
            return (state.connections.count - 1, state.shutDown)
        }
        channel.closeFuture.whenComplete { _ in
            self.state.withLockedValue { $0.connections[id].isOpen = false }
        }
        if shutDown { channel.close(promise: nil) }
        return id
    }

    /// Counts a ping; returns whether to answer it, and the connection's script when this
    /// is its first ping.
    fileprivate func receivedPing(connection id: Int) -> (answer: Bool, script: [Action]?) {
        state.withLockedValue { state in
            state.connections[id].pingsReceived += 1
            defer { state.pendingScripts[id] = nil }
            return (state.answersPings, state.pendingScripts[id])
        }
    }

    /// Records a text message from the client.
    fileprivate func receivedText(_ text: String, connection id: Int) {
        state.withLockedValue { $0.connections[id].textsReceived.append(text) }
    }

    /// Plays connection `id`'s script on `channel` (after its first ping).
    fileprivate func start(_ script: [Action], on channel: Channel, connection id: Int) {
        play(script, on: channel, connection: id)
    }

    /// Records the client's close; returns whether to answer it (not while pings go
    /// unanswered: a dead peer answers nothing).
    fileprivate func receivedClose(connection id: Int, code: UInt16?) -> Bool {
        state.withLockedValue { state in
            state.connections[id].clientCloseCode = code
            return state.answersPings
        }
    }

    /// Plays `actions` on the channel's event loop, each after the previous write completed.
    private func play(_ actions: [Action], on channel: Channel, connection id: Int) {
        @Sendable func run(_ steps: ArraySlice<Action>) {
            guard let step = steps.first, channel.isActive else { return }
            let next = steps.dropFirst()
            func write(_ frame: WebSocketFrame) {
                channel.writeAndFlush(frame).whenSuccess { run(next) }
            }
            switch step {
            case .text(let text):
                write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
            case .binary(let bytes):
                write(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: bytes)))
            case .fragmentedText(let text, let frameSize):
                let bytes = Array(text.utf8)
                let chunks = stride(from: 0, to: bytes.count, by: max(1, frameSize)).map {
                    Array(bytes[$0..<min($0 + max(1, frameSize), bytes.count)])
                }
                for (offset, chunk) in chunks.enumerated() {
                    let frame = WebSocketFrame(
                        fin: offset == chunks.count - 1, opcode: offset == 0 ? .text : .continuation,
                        data: ByteBuffer(bytes: chunk))
                    if offset == chunks.count - 1 {
                        write(frame)
                    } else {
                        channel.write(frame, promise: nil)
                    }
                }
            case .pause(let duration):
                channel.eventLoop.scheduleTask(in: .nanoseconds(duration.nanoseconds)) { run(next) }
            case .close(let code, let reason):
                var data = ByteBuffer()
                data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: Int(code)))
                data.writeString(reason)
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
                    .whenComplete { _ in channel.close(promise: nil) }
            case .drop:
                channel.close(mode: .output, promise: nil)
                channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            }
        }
        channel.eventLoop.execute { run(actions[...]) }
    }
}

/// Answers pings, records the client's close, and closes the connection after it.
private final class FrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let server: ScriptedWebSocketServer
    private let connection: Int

    init(server: ScriptedWebSocketServer, connection: Int) {
        self.server = server
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .ping:
            let (answer, script) = server.receivedPing(connection: connection)
            if answer {
                let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            }
            if let script { server.start(script, on: context.channel, connection: connection) }
        case .text:
            var data = frame.unmaskedData
            server.receivedText(data.readString(length: data.readableBytes) ?? "", connection: connection)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode().map { UInt16(webSocketErrorCode: $0) }
            guard server.receivedClose(connection: connection, code: code) else { return }
            // Answer the close, then end the connection (the server closes TCP).
            var reply = ByteBuffer()
            reply.write(webSocketErrorCode: .normalClosure)
            let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: reply)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in channel.close(promise: nil) }
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
