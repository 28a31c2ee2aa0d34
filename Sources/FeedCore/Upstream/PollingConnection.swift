import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// How to poll a JSON REST API (`--poll URL --interval SECONDS`).
public struct PollingConfiguration: Sendable {
    /// The absolute http(s) URL of the JSON document.
    public var url: String
    /// The time between the end of one successful poll and the next request.
    public var interval: Duration
    /// Extra request headers (`--header "Name: value"`), in order.
    public var headers: [(name: String, value: String)]
    /// The largest body accepted (`--max-event-bytes`).
    public var maxBodyBytes: Int
    /// The cap on retry delays after failures (`--max-backoff`).
    public var maxBackoff: Duration
    /// Connect and read timeout, and the bound on one whole request (`--read-timeout`).
    public var readTimeout: Duration
    /// A PEM file of extra trusted CA certificates (`--ca-file`).
    public var caFile: String?

    public init(
        url: String, interval: Duration = .seconds(5), headers: [(name: String, value: String)] = [],
        maxBodyBytes: Int = 16 * 1024 * 1024, maxBackoff: Duration = .seconds(30), readTimeout: Duration = .seconds(45),
        caFile: String? = nil
    ) {
        self.url = url
        self.interval = interval
        self.headers = headers
        self.maxBodyBytes = maxBodyBytes
        self.maxBackoff = maxBackoff
        self.readTimeout = readTimeout
        self.caFile = caFile
    }
}

/// Polling mode: GETs a JSON document every ``PollingConfiguration/interval`` with
/// conditional requests and hands every document to ``FeedStore/replaceDocument(_:)``, which
/// turns a changed one into the diff patch. The decisions are ``PollingProtocol``'s.
///
/// Status, as the same ``UpstreamEvent``s the SSE connection publishes (so `/readyz`, the
/// badge, `/stats` and the metrics work unchanged): ``UpstreamEvent/connecting`` on the
/// first attempt and ``UpstreamEvent/reconnecting(reason:)`` on each retry after a failure,
/// ``UpstreamEvent/opened(at:)`` on the first successful answer (`200` with JSON, or `304`)
/// after none or a failure, ``UpstreamEvent/backingOff(until:error:at:)`` after a failure.
/// Each successful answer is one ``UpstreamEvent/eventHandled(at:)``; each answer's body is
/// one ``UpstreamEvent/received(bytes:)``. Failures
/// are retried per ``ReconnectPolicy``, starting at the interval and doubling up to
/// `--max-backoff` (or the interval, if longer); the state and the validators are kept.
///
/// Redirects (at most 5) are followed here; configured `Authorization`,
/// `Proxy-Authorization` and `Cookie` headers are not sent to another origin.
public final class PollingConnection: UpstreamSource {
    public let configuration: PollingConfiguration
    private let store: FeedStore
    private let logger: Logger
    private let clientConfiguration: HTTPClient.Configuration
    /// Where what happens to the poller is published, and the status it folds to.
    public let statusPublisher: UpstreamStatusPublisher
    private let session: NIOLockedValueBox<Session>

    private struct Session: Sendable {
        var policy: ReconnectPolicy
        var validators = PollingProtocol.Validators()
    }

    /// What one poll came to.
    private enum Result {
        case success
        case failure(String)
    }

    /// Prepares the poller; throws if the URL, a header or the CA file is unusable.
    public init(configuration: PollingConfiguration, store: FeedStore, logger: Logger) throws(UpstreamError) {
        guard UpstreamConnection.absoluteHTTPURL(configuration.url) != nil else {
            throw .invalidURL(configuration.url)
        }
        for header in configuration.headers
        where UpstreamSettings.problemWithHeader(name: header.name, value: header.value) != nil {
            throw .transport("invalid request header \"\(header.name)\"")
        }
        clientConfiguration = try UpstreamSettings.clientConfiguration(
            caFile: configuration.caFile, readTimeout: configuration.readTimeout)
        self.configuration = configuration
        self.store = store
        self.logger = logger
        statusPublisher = UpstreamStatusPublisher(source: configuration.url)
        let policy = ReconnectPolicy(
            retryInterval: configuration.interval, maxBackoff: max(configuration.maxBackoff, configuration.interval))
        session = NIOLockedValueBox(Session(policy: policy))
    }

    /// Polls until the task is cancelled; then releases the HTTP client and publishes
    /// ``UpstreamEvent/stopped``.
    public func run() async {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        var lastFailure: String?
        var first = true
        while !Task.isCancelled {
            if first {
                statusPublisher.publish(.connecting)
            } else if let failure = lastFailure {
                statusPublisher.publish(.reconnecting(reason: failure))
            }
            first = false
            guard let result = await pollOnce(client), !Task.isCancelled else { break }
            let delay: Duration
            switch result {
            case .success:
                let wasOpen = statusPublisher.status.isConnected
                session.withLockedValue { $0.policy.reset() }
                let now = Date()
                if !wasOpen {
                    statusPublisher.publish(.opened(at: now))
                    logger.info("upstream: polling \(configuration.url) every \(configuration.interval)")
                }
                statusPublisher.publish(.eventHandled(at: now))
                lastFailure = nil
                delay = configuration.interval
            case .failure(let message):
                delay = session.withLockedValue { $0.policy.nextDelay(random: .random(in: 0..<1)) }
                let now = Date()
                statusPublisher.publish(.backingOff(until: now + delay.timeInterval, error: message, at: now))
                lastFailure = message
                logger.warning(
                    "upstream: \(message); next attempt in \(String(format: "%.2f", delay.timeInterval)) s")
            }
            try? await Task.sleep(for: delay)
        }
        statusPublisher.publish(.stopped)
        try? await client.shutdown()
    }

    /// One poll (following redirects); a new document goes to the store. `nil` when the
    /// task was cancelled.
    private func pollOnce(_ client: HTTPClient) async -> Result? {
        guard var url = UpstreamConnection.absoluteHTTPURL(configuration.url) else {
            return .failure(UpstreamError.invalidURL(configuration.url).description)
        }
        let origin = UpstreamConnection.origin(of: url)
        let sent = session.withLockedValue { $0.validators }
        do {
            for hop in 0...5 {
                var request = HTTPClientRequest(url: url.absoluteString)
                let sameOrigin = UpstreamConnection.origin(of: url) == origin
                let configured = configuration.headers.filter {
                    sameOrigin || !UpstreamConnection.credentialHeaders.contains($0.name.lowercased())
                }
                for header in PollingProtocol.requestHeaders(configured: configured, validators: sent)
                where UpstreamConnection.isValidHeaderValue(header.value) {
                    request.headers.add(name: header.name, value: header.value)
                }
                let deadline = NIODeadline.now() + UpstreamConnection.timeAmount(configuration.readTimeout)
                let response = try await client.execute(request, deadline: deadline, logger: logger)
                let code = Int(response.status.code)
                var body: [UInt8] = []
                if PollingProtocol.wantsBody(status: code) {
                    let buffer: ByteBuffer
                    do {
                        buffer = try await response.body.collect(upTo: configuration.maxBodyBytes)
                    } catch is NIOTooManyBytesError {
                        return .failure("upstream's answer exceeded \(configuration.maxBodyBytes) bytes")
                    }
                    body = Array(buffer.readableBytesView)
                    statusPublisher.publish(.received(bytes: UInt64(body.count)))
                }
                let headers = response.headers.map { (name: $0.name, value: $0.value) }
                switch PollingProtocol.interpret(status: code, headers: headers, body: body, sent: sent) {
                case .notModified:
                    logger.debug("upstream: 304 not modified")
                    return .success
                case .document(let document, let validators):
                    session.withLockedValue { $0.validators = validators }
                    if let change = store.replaceDocument(document) {
                        logger.debug("upstream: new document, change \(change.snapshot.id.seq)")
                    }
                    return .success
                case .redirect(let location):
                    guard hop < 5 else { return .failure(UpstreamError.tooManyRedirects.description) }
                    guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                        let checked = UpstreamConnection.absoluteHTTPURL(next.absoluteString)
                    else { return .failure(UpstreamError.invalidURL(location).description) }
                    logger.debug("upstream: redirect \(code) to \(checked.absoluteString)")
                    url = checked
                case .failure(let message):
                    return .failure(message)
                }
            }
            return .failure(UpstreamError.tooManyRedirects.description)
        } catch _ where Task.isCancelled {
            return nil
        } catch let error as HTTPClientError where error == .readTimeout || error == .deadlineExceeded {
            return .failure(UpstreamError.readTimeout.description)
        } catch {
            return .failure(UpstreamConnection.describeTransport(error))
        }
    }
}
