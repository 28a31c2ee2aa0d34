import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// An MQTT broker (`--upstream mqtt://HOST[:PORT]/TOPIC-FILTER`, `mqtts://` over TLS; MQTT
/// 3.1.1): one attempt is one TCP connection, from CONNECT to its end. Where a message
/// goes: the socket → ``MQTTPacketReader`` (a ``MQTTPacket``) → ``MQTTMessages`` (an
/// ``UpstreamCommand``) → ``UpstreamCommitter`` → ``FeedStore``.
///
/// - CONNECT asks for a clean session with a random client id, and the URL's user name and
///   password when it has them; a CONNACK that refuses is shown as upstream's error, in
///   words ("bad user name or password").
/// - Then one SUBSCRIBE of the URL's topic filter (``MQTTMessages/topicFilter(of:)``) at
///   QoS 0; a refused one (an ACL) is shown as upstream's error.
/// - A PINGREQ goes out every half `--read-timeout` (the keep-alive CONNECT names); nothing
///   read for a whole read timeout ends the connection, so a silent, dead broker is noticed.
/// - A packet longer than `--max-event-bytes` ends the connection before it is read, and
///   is counted as an upstream error.
/// - `mqtts` is verified against the system's CA store plus `--ca-file`.
struct MQTTTransport: UpstreamTransport {
    typealias Resources = Void

    let messages: MQTTMessages
    let tls: TLSConfiguration

    /// The default ports of `mqtt` and `mqtts`.
    static let defaultPorts = (plain: 1883, secure: 8883)

    func attempt(with resources: Void, session: UpstreamSession) async -> UpstreamAttemptOutcome? {
        let url = session.endpoint.url
        let secure = url.scheme?.lowercased() == "mqtts"
        let host = url.host(percentEncoded: false) ?? ""
        let port = url.port ?? (secure ? Self.defaultPorts.secure : Self.defaultPorts.plain)
        let error: UpstreamError
        do {
            let tls = self.tls
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(10))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if secure {
                            let context = try NIOSSLContext(configuration: tls)
                            let name = Self.isIPAddress(host) ? nil : host
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: context, serverHostname: name))
                        }
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            try await channel.executeThenClose { inbound, outbound in
                try await Self.converse(inbound, outbound, messages: messages, session: session)
            }
            error = .endOfStream
        } catch let failure {
            error = TransportFailure.upstreamError(failure, url: url)
        }
        guard !Task.isCancelled else { return nil }
        switch error {
        case .eventTooLarge, .unusableAnswer:
            // Bad input, or a refusal: counted as an upstream error as well as ending the
            // connection.
            session.publish(.upstreamError(message: error.description))
        default:
            break
        }
        return .ended(error)
    }

    /// One connection: CONNECT, SUBSCRIBE, then the broker's packets into the committer,
    /// beside the pings, until either side ends it.
    private static func converse(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        messages: MQTTMessages, session: UpstreamSession
    ) async throws {
        let url = session.endpoint.url
        let readTimeout = session.configuration.readTimeout
        let pingEvery = max(readTimeout / 2, .milliseconds(25))
        let keepAlive = UInt16(clamping: max(1, Int(ceil(Double(readTimeout.components.seconds) * 0.75))))
        let clientID = "feedweb-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try await outbound.write(
            ByteBuffer(
                bytes: MQTTPacket.connect(
                    clientID: clientID, keepAliveSeconds: keepAlive, username: url.user(percentEncoded: false),
                    password: url.password(percentEncoded: false))))
        let filter = MQTTMessages.topicFilter(of: url)
        let lastRead = NIOLockedValueBox(MonotonicTime.now())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    try await Task.sleep(for: pingEvery)
                    let quiet = MonotonicTime.now() &- lastRead.withLockedValue { $0 }
                    if quiet > UInt64(readTimeout.components.seconds) * 1_000_000_000
                        + UInt64(readTimeout.components.attoseconds / 1_000_000_000)
                    {
                        throw UpstreamError.readTimeout
                    }
                    try await outbound.write(ByteBuffer(bytes: MQTTPacket.pingRequest))
                }
            }
            group.addTask {
                try await read(
                    inbound, answering: outbound, messages: messages, filter: filter, session: session,
                    lastRead: lastRead)
            }
            // Whichever ends first (the broker closed, a ping unanswered) ends the other.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Reads the broker's packets until it closes: the CONNACK, then SUBSCRIBE and its
    /// SUBACK, then each PUBLISH through `messages` into the committer.
    private static func read(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        answering outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        messages: MQTTMessages, filter: String, session: UpstreamSession, lastRead: NIOLockedValueBox<UInt64>
    ) async throws {
        let limit = session.configuration.maxEventBytes
        try await UpstreamCommitter(session: session).run { queue in
            var reader = MQTTPacketReader(limit: limit)
            var connected = false
            for try await buffer in inbound {
                let received = MonotonicTime.now()
                lastRead.withLockedValue { $0 = received }
                session.publish(.received(bytes: UInt64(buffer.readableBytes)))
                reader.append(buffer.readableBytesView)
                var events: [(event: SSEEvent, command: UpstreamCommand)] = []
                while let packet = try Self.next(&reader) {
                    switch packet {
                    case .connectAcknowledged(let code):
                        guard code == 0 else {
                            throw UpstreamError.unusableAnswer(
                                "the MQTT broker refused the connection: \(MQTTPacket.refusal(code))")
                        }
                        connected = true
                        session.publish(.opened(at: Date()))
                        try await outbound.write(
                            ByteBuffer(bytes: MQTTPacket.subscribe(packetID: 1, filters: [filter])))
                        session.logger.info("upstream: connected to \(session.shownURL); subscribed to \(filter)")
                    case .subscribeAcknowledged(_, let codes):
                        if codes.contains(MQTTPacket.refused) {
                            throw UpstreamError.unusableAnswer(
                                "the MQTT broker refused the subscription to \(filter) (not allowed for this user?)")
                        }
                    case .publish(let topic, let payload, let qos, let packetID, _):
                        guard connected else {
                            throw UpstreamError.unusableAnswer("the MQTT broker sent a message before its CONNACK")
                        }
                        if qos == 1, let packetID {
                            try await outbound.write(ByteBuffer(bytes: MQTTPacket.publishAcknowledgement(packetID)))
                        }
                        let data = String(validating: payload, as: UTF8.self) ?? "(\(payload.count) bytes)"
                        events.append(
                            (SSEEvent(type: "message", data: data), messages.command(topic: topic, payload: payload)))
                    case .pingResponse, .other:
                        break
                    }
                }
                guard !events.isEmpty else { continue }
                let read = UpstreamReadQueue.Read(
                    events: events, lastEventID: "", reconnectionTime: nil, byteCount: buffer.readableBytes,
                    arrival: UpstreamArrival(received: received, parsed: MonotonicTime.now()))
                guard await queue.put(read) else { return }  // the committer stopped
            }
        }
    }

    /// The next packet of `reader`, its protocol errors as upstream's.
    private static func next(_ reader: inout MQTTPacketReader) throws(UpstreamError) -> MQTTPacket? {
        do {
            return try reader.next()
        } catch .tooLarge(let limit) {
            throw .eventTooLarge(limit: limit)
        } catch {
            throw .unusableAnswer(error.description)
        }
    }

    /// Whether `host` is an IP address (TLS names no IP address in SNI).
    private static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
