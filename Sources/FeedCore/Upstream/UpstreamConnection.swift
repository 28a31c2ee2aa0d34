import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOSSL

/// The subscription to the upstream SSE feed: connects, reads events into the
/// ``FeedStore``, and reconnects per ``ReconnectPolicy`` for as long as it runs.
///
/// Where a byte from upstream goes: the HTTP body (here) → ``SSEParser`` → an
/// ``SSEEvent`` → ``DocumentProtocol`` (an ``UpstreamCommand``) → ``FeedStore``.
///
/// Request headers: `Accept: text/event-stream`, `Cache-Control: no-cache`,
/// `Last-Event-ID` when an id is known, then every configured header. Redirects (at most
/// 5) are followed here so that each hop is checked and reported.
public final class UpstreamConnection: Sendable {
    public let configuration: UpstreamConfiguration
    private let store: FeedStore
    private let interpret: @Sendable (SSEEvent) -> UpstreamCommand
    private let logger: Logger
    private let client: HTTPClient
    private let statusBox: NIOLockedValueBox<UpstreamStatus>
    private let statusObservers = NIOLockedValueBox<[@Sendable (UpstreamStatus) -> Void]>([])
    private let session: NIOLockedValueBox<Session>

    private struct Session: Sendable {
        var policy: ReconnectPolicy
        /// Sent as `Last-Event-ID`; cleared after a rejected event so a resuming upstream
        /// answers with a snapshot.
        var lastEventID = ""
    }

    /// Prepares the connection; throws if the URL or the CA file is unusable.
    public init(
        configuration: UpstreamConfiguration, store: FeedStore, logger: Logger,
        interpret: @escaping @Sendable (SSEEvent) -> UpstreamCommand = DocumentProtocol.interpret
    ) throws(UpstreamError) {
        guard Self.absoluteHTTPURL(configuration.url) != nil else { throw .invalidURL(configuration.url) }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = configuration.caFile {
            do {
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))]
            } catch {
                throw .transport("cannot read CA file \(caFile): \(error)")
            }
        }
        let timeout = HTTPClient.Configuration.Timeout(
            connect: .seconds(10), read: .nanoseconds(Int64(configuration.readTimeout.components.seconds * 1_000_000_000
                + configuration.readTimeout.components.attoseconds / 1_000_000_000)))
        var clientConfiguration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: timeout)
        clientConfiguration.httpVersion = .http1Only
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        self.configuration = configuration
        self.store = store
        self.interpret = interpret
        self.logger = logger
        self.statusBox = NIOLockedValueBox(UpstreamStatus(source: configuration.url))
        self.session = NIOLockedValueBox(Session(policy: ReconnectPolicy(maxBackoff: configuration.maxBackoff)))
    }

    /// The current status.
    public var status: UpstreamStatus {
        statusBox.withLockedValue { $0 }
    }

    /// Calls `observer` after every status change (on the connection's task).
    public func observeStatus(_ observer: @escaping @Sendable (UpstreamStatus) -> Void) {
        statusObservers.withLockedValue { $0.append(observer) }
    }

    /// Connects and reconnects until the task is cancelled; then releases the HTTP client.
    public func run() async {
        var first = true
        while !Task.isCancelled {
            if !first { updateStatus { $0.reconnects += 1 } }
            first = false
            updateStatus { $0.phase = .connecting }
            let outcome = await connectOnce()
            if Task.isCancelled { break }
            let delay: Duration
            let wake: Date
            switch outcome {
            case .failure(.noContent):
                delay = session.withLockedValue { $0.policy.delayAfterStopRequest() }
                wake = Date() + delay.timeInterval
                updateStatus { $0.phase = .stoppedByUpstream(until: wake) }
            default:
                delay = session.withLockedValue { $0.policy.nextDelay(random: Double.random(in: 0..<1)) }
                wake = Date() + delay.timeInterval
                updateStatus { $0.phase = .backingOff(until: wake) }
            }
            if case .failure(let error) = outcome {
                logger.warning("upstream: \(error); next attempt in \(delay.timeInterval.formatted2) s")
            }
            try? await Task.sleep(for: delay)
        }
        updateStatus {
            $0.phase = .stopped
            $0.connectedSince = nil
        }
        try? await client.shutdown()
    }

    /// One connection: request (following redirects), then read events until the stream
    /// ends or fails. Returns how it ended.
    private func connectOnce() async -> Result<Void, UpstreamError> {
        guard var url = Self.absoluteHTTPURL(configuration.url) else {
            return .failure(.invalidURL(configuration.url))
        }
        var deliveredEvent = false
        defer {
            if deliveredEvent { session.withLockedValue { $0.policy.reset() } }
            updateStatus { $0.connectedSince = nil }
        }
        do {
            for hop in 0...5 {
                var request = HTTPClientRequest(url: url.absoluteString)
                request.headers.add(name: "Accept", value: "text/event-stream")
                request.headers.add(name: "Cache-Control", value: "no-cache")
                let lastEventID = session.withLockedValue { $0.lastEventID }
                if !lastEventID.isEmpty { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
                for header in configuration.headers { request.headers.add(name: header.name, value: header.value) }
                let response = try await client.execute(request, deadline: .distantFuture, logger: logger)
                let code = Int(response.status.code)
                switch code {
                case 301, 302, 303, 307, 308:
                    guard let location = response.headers.first(name: "Location") else {
                        throw UpstreamError.redirectWithoutLocation(status: code)
                    }
                    guard hop < 5 else { throw UpstreamError.tooManyRedirects }
                    guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                        let checked = Self.absoluteHTTPURL(next.absoluteString)
                    else { throw UpstreamError.invalidURL(location) }
                    logger.debug("upstream: redirect \(code) to \(checked.absoluteString)")
                    url = checked
                    continue
                case 204:
                    throw UpstreamError.noContent
                case 200..<300:
                    let contentType = response.headers.first(name: "Content-Type")
                    guard let contentType, contentType.lowercased().hasPrefix("text/event-stream") else {
                        throw UpstreamError.wrongContentType(contentType)
                    }
                    updateStatus {
                        $0.phase = .open
                        $0.connectedSince = Date()
                    }
                    logger.info("upstream: connected to \(url.absoluteString)")
                    try await readEvents(from: response.body, deliveredEvent: &deliveredEvent)
                    throw UpstreamError.endOfStream
                default:
                    throw UpstreamError.httpStatus(code)
                }
            }
            throw UpstreamError.tooManyRedirects
        } catch let error as UpstreamError {
            record(error)
            return .failure(error)
        } catch let error as HTTPClientError where error == .readTimeout {
            record(.readTimeout)
            return .failure(.readTimeout)
        } catch {
            let wrapped = UpstreamError.transport(String(describing: error))
            record(wrapped)
            return .failure(wrapped)
        }
    }

    private func readEvents(from body: HTTPClientResponse.Body, deliveredEvent: inout Bool) async throws {
        var parser = SSEParser(maxEventBytes: configuration.maxEventBytes)
        let startID = session.withLockedValue { $0.lastEventID }
        parser.resume(lastEventID: startID)
        for try await buffer in body {
            let count = buffer.readableBytes
            let events: [SSEEvent]
            do {
                events = try buffer.withUnsafeReadableBytes { raw in try parser.parse(raw) }
            } catch {
                throw UpstreamError.eventTooLarge(limit: configuration.maxEventBytes)
            }
            let now = Date()
            updateStatus {
                $0.bytesReceived += UInt64(count)
                if !events.isEmpty {
                    $0.eventsReceived += UInt64(events.count)
                    $0.lastEventAt = now
                }
            }
            session.withLockedValue { session in
                session.lastEventID = parser.lastEventID
                if let retry = parser.reconnectionTime { session.policy.retryInterval = .milliseconds(retry) }
            }
            for event in events {
                deliveredEvent = true
                try handle(event)
            }
        }
    }

    /// Carries out one event's command; throws ``UpstreamError/resync(_:)`` to end the
    /// connection when the state may have drifted.
    private func handle(_ event: SSEEvent) throws(UpstreamError) {
        switch interpret(event) {
        case .replaceDocument(let document):
            store.replaceDocument(document)
        case .applyPatch(let patch):
            do {
                try store.apply(patch)
            } catch {
                try rejectAndResync("\(error)")
            }
        case .reportError(let message):
            logger.warning("upstream sent an error event: \(message)")
            updateStatus {
                $0.upstreamErrors += 1
                $0.lastUpstreamError = message
            }
        case .ignore(let reason, let counted):
            if counted {
                logger.debug("upstream: ignored \(event.type) event: \(reason)")
                updateStatus { $0.ignoredEvents += 1 }
            } else {
                logger.debug("upstream: \(event.type) \(event.data.prefix(200))")
            }
        case .reject(let reason):
            try rejectAndResync(reason)
        }
    }

    private func rejectAndResync(_ reason: String) throws(UpstreamError) {
        logger.error("upstream: \(reason); keeping the last good state and reconnecting for a snapshot")
        updateStatus { $0.rejectedPatches += 1 }
        session.withLockedValue { $0.lastEventID = "" }
        throw .resync(reason)
    }

    private func record(_ error: UpstreamError) {
        updateStatus {
            $0.lastError = error.description
            $0.lastErrorAt = Date()
        }
    }

    private func updateStatus(_ change: (inout UpstreamStatus) -> Void) {
        let status = statusBox.withLockedValue { status -> UpstreamStatus in
            change(&status)
            return status
        }
        for observer in statusObservers.withLockedValue({ $0 }) { observer(status) }
    }

    /// `text` as an absolute http or https URL with a host, else `nil`.
    static func absoluteHTTPURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }
}

extension Duration {
    /// The duration in seconds.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension TimeInterval {
    fileprivate var formatted2: String {
        String(format: "%.2f", self)
    }
}
