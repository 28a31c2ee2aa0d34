import Foundation
import Logging

/// The subscription to an upstream source, of any kind: connects, reads into the
/// ``FeedStore``, and reconnects per ``ReconnectPolicy`` for as long as it runs. The one
/// connection loop: the status, the backoff and the checks of the URL and headers are
/// here, once; what differs between SSE, polling, WebSocket and Firebase is each kind's
/// transport (the I/O) and protocol type (the decisions, without I/O):
///
/// | kind | transport | protocol |
/// | --- | --- | --- |
/// | SSE, document (`--upstream`) | `SSETransport` | ``DocumentProtocol`` |
/// | SSE, append (`--mode append`) | `SSETransport` | ``AppendProtocol`` |
/// | SSE, Firebase (`--mode firebase`) | `SSETransport` | ``FirebaseProtocol`` |
/// | a JSON stream (`--upstream`, NDJSON…) | `SSETransport` | ``JSONTextSplitter``, ``MessageProtocol`` |
/// | polling (`--poll`) | `PollTransport` | ``PollingProtocol`` |
/// | WebSocket (`--upstream ws://…`) | `WebSocketTransport` | ``MessageProtocol`` |
///
/// What happens is published as ``UpstreamEvent``s: ``UpstreamEvent/connecting`` first,
/// ``UpstreamEvent/reconnecting(reason:)`` (with what ended the last attempt) before each
/// attempt after a failure; each failure as one ``UpstreamEvent/backingOff(until:error:at:)``,
/// or ``UpstreamEvent/stoppedByUpstream(until:error:at:)`` after a 204, carrying the error
/// and the time of the next attempt; ``UpstreamEvent/stopped`` when the task is cancelled.
/// The delay is never shorter than upstream's `retry` (jitter only adds).
///
/// ``run()`` owns the transport's resources (an HTTP client): made when it starts, released
/// when the task is cancelled, so a connection that is never run holds none. Call
/// ``run()`` once at a time. Nothing logged or published carries a password, an API key or
/// a header value: URLs are redacted (``URLRedaction/redacted(_:)``).
public final class UpstreamConnection: UpstreamSource {
    public let configuration: UpstreamConfiguration
    /// Where what happens to the subscription is published, and the status it folds to.
    public var statusPublisher: UpstreamStatusPublisher { session.publisher }
    private let session: UpstreamSession
    private let transport: any UpstreamTransport

    /// Prepares a connection of `kind`; throws if the URL, a header or the CA file is
    /// unusable.
    public init(
        configuration: UpstreamConfiguration, kind: UpstreamKind, store: FeedStore, logger: Logger
    ) throws(UpstreamError) {
        let endpoint = try UpstreamEndpoint(
            url: configuration.url, headers: configuration.headers, transport: kind.transport)
        let tls = try UpstreamTrust.tlsConfiguration(caFile: configuration.caFile)
        let http = HTTPUpstream.clientConfiguration(tls: tls, readTimeout: configuration.readTimeout)
        var policy = ReconnectPolicy(maxBackoff: configuration.maxBackoff)
        switch kind {
        case .sse(let makeDialect, let jsonTexts):
            transport = SSETransport(clientConfiguration: http, makeDialect: makeDialect, jsonTexts: jsonTexts)
        case .poll(let interval):
            // Failures are retried from the interval, doubling up to the cap (or the
            // interval, if longer).
            policy = ReconnectPolicy(retryInterval: interval, maxBackoff: max(configuration.maxBackoff, interval))
            transport = PollTransport(clientConfiguration: http, interval: interval)
        case .webSocket(let messageProtocol):
            transport = WebSocketTransport(protocol: messageProtocol, tls: tls)
        case .mqtt(let mode):
            transport = MQTTTransport(messages: MQTTMessages(mode: mode), tls: tls)
        }
        self.configuration = configuration
        session = UpstreamSession(
            endpoint: endpoint, configuration: configuration, policy: policy, store: store, logger: logger)
    }

    /// Prepares an SSE connection in the document protocol (``DocumentProtocol``); throws
    /// if the URL, a header or the CA file is unusable.
    public convenience init(
        configuration: UpstreamConfiguration, store: FeedStore, logger: Logger
    ) throws(UpstreamError) {
        try self.init(configuration: configuration, kind: .document, store: store, logger: logger)
    }

    /// Makes the first attempt resume after `position` (``UpstreamPosition``; a cluster
    /// leader's stored one): call before ``run()``. An empty position changes nothing.
    public func resume(from position: String?) {
        guard let position, !position.isEmpty else { return }
        transport.resume(from: position, session: session)
    }

    /// Connects and reconnects until the task is cancelled; then releases the transport's
    /// resources and publishes ``UpstreamEvent/stopped``.
    public func run() async {
        await run(transport)
    }

    private func run<Transport: UpstreamTransport>(_ transport: Transport) async {
        let resources = transport.makeResources()
        var lastFailure: UpstreamError?
        var first = true
        while !Task.isCancelled {
            if first {
                session.publish(.connecting)
            } else if let lastFailure {
                session.publish(.reconnecting(reason: lastFailure.description))
            }
            first = false
            guard let outcome = await transport.attempt(with: resources, session: session), !Task.isCancelled else {
                break
            }
            let delay: Duration
            switch outcome {
            case .pollAgain(let after):
                lastFailure = nil
                delay = after
            case .ended(let error, let notBefore):
                lastFailure = error
                delay = session.delay(after: error, notBefore: notBefore)
                let now = Date()
                let wake = now + delay.timeInterval
                session.publish(
                    error == .noContent
                        ? .stoppedByUpstream(until: wake, error: error.description, at: now)
                        : .backingOff(until: wake, error: error.description, at: now))
                session.logger.warning(
                    "upstream: \(error); next attempt in \(String(format: "%.2f", delay.timeInterval)) s")
            }
            try? await Task.sleep(for: delay)
        }
        session.publish(.stopped)
        await transport.release(resources)
    }
}
