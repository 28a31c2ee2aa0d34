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
/// `Last-Event-ID` when an id is known, then every configured header (a configured
/// `Accept` or `Cache-Control` replaces the default). Redirects (at most
/// 5) are followed here so that each hop is checked and reported; a redirect to another
/// origin (scheme, host or port) drops the configured `Authorization`,
/// `Proxy-Authorization` and `Cookie` headers, as curl and browsers do, so credentials
/// meant for upstream never reach a third party.
///
/// ``run()`` owns the HTTP client: it makes one when it starts and shuts it down when the
/// task is cancelled, so an `UpstreamConnection` that is never run holds no resources.
/// Call ``run()`` once at a time.
public final class UpstreamConnection: Sendable {
    /// Request headers that are not forwarded across origins on a redirect.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    public let configuration: UpstreamConfiguration
    private let store: FeedStore
    private let interpret: @Sendable (SSEEvent) -> UpstreamCommand
    private let logger: Logger
    private let clientConfiguration: HTTPClient.Configuration
    /// Where what happens to the subscription is published, and the status it folds to.
    public let statusPublisher: UpstreamStatusPublisher
    private let session: NIOLockedValueBox<Session>

    private struct Session: Sendable {
        var policy: ReconnectPolicy
        /// Sent as `Last-Event-ID`; cleared after a rejected event so a resuming upstream
        /// answers with a snapshot.
        var lastEventID = ""
    }

    /// Prepares the connection; throws if the URL, a header or the CA file is unusable.
    public init(
        configuration: UpstreamConfiguration, store: FeedStore, logger: Logger,
        interpret: @escaping @Sendable (SSEEvent) -> UpstreamCommand = DocumentProtocol.interpret
    ) throws(UpstreamError) {
        guard Self.absoluteHTTPURL(configuration.url) != nil else { throw .invalidURL(configuration.url) }
        for header in configuration.headers {
            guard Self.isToken(header.name), Self.isValidHeaderValue(header.value) else {
                throw .transport("invalid request header \"\(header.name)\"")
            }
        }
        // TLS with the system CA store plus --ca-file, timeouts from --read-timeout, HTTP/1.1,
        // no redirects (followed and checked here), no silent connection retries.
        self.clientConfiguration = try UpstreamSettings.clientConfiguration(
            caFile: configuration.caFile, readTimeout: configuration.readTimeout)
        self.configuration = configuration
        self.store = store
        self.interpret = interpret
        self.logger = logger
        self.statusPublisher = UpstreamStatusPublisher(source: configuration.url)
        self.session = NIOLockedValueBox(Session(policy: ReconnectPolicy(maxBackoff: configuration.maxBackoff)))
    }

    /// Connects and reconnects until the task is cancelled; then releases the HTTP client
    /// and publishes ``UpstreamEvent/stopped``.
    ///
    /// Each connection's end is published as one event: ``UpstreamEvent/backingOff(until:error:at:)``,
    /// or ``UpstreamEvent/stoppedByUpstream(until:error:at:)`` after a 204, with the error
    /// and the time of the next attempt; the next attempt starts with
    /// ``UpstreamEvent/reconnecting(reason:)`` carrying the same error.
    public func run() async {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        var previousEnd: UpstreamError?
        var first = true
        while !Task.isCancelled {
            statusPublisher.publish(first ? .connecting : .reconnecting(reason: previousEnd?.description))
            first = false
            guard let error = await connectOnce(client), !Task.isCancelled else { break }
            previousEnd = error
            let stopRequested = error == .noContent
            let delay = session.withLockedValue {
                stopRequested ? $0.policy.delayAfterStopRequest() : $0.policy.nextDelay(random: .random(in: 0..<1))
            }
            let now = Date()
            let wake = now + delay.timeInterval
            statusPublisher.publish(
                stopRequested
                    ? .stoppedByUpstream(until: wake, error: error.description, at: now)
                    : .backingOff(until: wake, error: error.description, at: now))
            logger.warning("upstream: \(error); next attempt in \(delay.timeInterval.formatted2) s")
            try? await Task.sleep(for: delay)
        }
        statusPublisher.publish(.stopped)
        try? await client.shutdown()
    }

    /// One connection: request (following redirects), then read events until the stream
    /// ends or fails. Returns how it ended, or `nil` when the task was cancelled.
    private func connectOnce(_ client: HTTPClient) async -> UpstreamError? {
        guard var url = Self.absoluteHTTPURL(configuration.url) else {
            return .invalidURL(configuration.url)
        }
        let origin = Self.origin(of: url)
        let configuredNames = Set(configuration.headers.map { $0.name.lowercased() })
        var deliveredEvent = false
        defer {
            if deliveredEvent { session.withLockedValue { $0.policy.reset() } }
        }
        do {
            for hop in 0...5 {
                var request = HTTPClientRequest(url: url.absoluteString)
                // A configured Accept or Cache-Control replaces the default one.
                if !configuredNames.contains("accept") {
                    request.headers.add(name: "Accept", value: "text/event-stream")
                }
                if !configuredNames.contains("cache-control") {
                    request.headers.add(name: "Cache-Control", value: "no-cache")
                }
                let lastEventID = session.withLockedValue { $0.lastEventID }
                if !lastEventID.isEmpty {
                    if Self.isValidHeaderValue(lastEventID) {
                        request.headers.add(name: "Last-Event-ID", value: lastEventID)
                    } else {
                        // An id with control characters cannot be sent; without one,
                        // upstream starts over with a snapshot.
                        logger.warning("upstream: the last event id has control characters; not sending it")
                    }
                }
                let sameOrigin = Self.origin(of: url) == origin
                for header in configuration.headers
                where sameOrigin || !Self.credentialHeaders.contains(header.name.lowercased()) {
                    request.headers.add(name: header.name, value: header.value)
                }
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
                    guard Self.isEventStream(contentType) else {
                        throw UpstreamError.wrongContentType(contentType)
                    }
                    statusPublisher.publish(.opened(at: Date()))
                    logger.info("upstream: connected to \(url.absoluteString)")
                    try await readEvents(from: response.body, deliveredEvent: &deliveredEvent)
                    throw UpstreamError.endOfStream
                default:
                    throw UpstreamError.httpStatus(code)
                }
            }
            throw UpstreamError.tooManyRedirects
        } catch _ where Task.isCancelled {
            // Stopping: how the connection ended is not an error worth reporting.
            return nil
        } catch let error as UpstreamError {
            return error
        } catch let error as HTTPClientError where error == .readTimeout {
            return .readTimeout
        } catch {
            return .transport(Self.describeTransport(error))
        }
    }

    /// Reads the stream and commits what it carries, in two stages that overlap: the
    /// reader (a child task) parses each read into events and their commands; the
    /// committer (this task) takes everything parsed so far at once and commits it, items
    /// that arrived together as one change. Between them an ``UpstreamEventQueue``
    /// bounded at 4 MiB (or one maximal event). A failure of the reader reaches the caller
    /// after every event parsed before it has been committed; a resync from the committer
    /// ends the reader.
    private func readEvents(from body: HTTPClientResponse.Body, deliveredEvent: inout Bool) async throws {
        let queue = UpstreamEventQueue(limitBytes: max(4 * 1024 * 1024, configuration.maxEventBytes))
        let startID = session.withLockedValue { $0.lastEventID }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                defer { queue.finish() }
                try await parse(body, from: startID, into: queue)
            }
            do {
                while let reads = await queue.takeAll() {
                    try commit(reads, deliveredEvent: &deliveredEvent)
                }
            } catch {
                queue.finish()
                group.cancelAll()
                throw error
            }
            try await group.waitForAll()
        }
    }

    /// The reader: parses each read of `body` and queues its events with their commands.
    private func parse(_ body: HTTPClientResponse.Body, from lastEventID: String, into queue: UpstreamEventQueue)
        async throws
    {
        var parser = SSEParser(maxEventBytes: configuration.maxEventBytes)
        parser.resume(lastEventID: lastEventID)
        var events: [SSEEvent] = []
        for try await buffer in body {
            let count = buffer.readableBytes
            events.removeAll(keepingCapacity: true)
            // Events completed before an oversized one in the same read still count.
            var failure: SSEParserError?
            buffer.withUnsafeReadableBytes { raw in
                do {
                    try parser.parse(raw, into: &events)
                } catch let error as SSEParserError {
                    failure = error
                } catch {
                    failure = .eventTooLarge(limit: configuration.maxEventBytes)
                }
            }
            statusPublisher.publish(.received(bytes: UInt64(count)))
            let read = UpstreamEventQueue.Read(
                events: events.map { ($0, interpret($0)) }, lastEventID: parser.lastEventID,
                reconnectionTime: parser.reconnectionTime, byteCount: count)
            guard await queue.put(read) else { return }  // the committer stopped
            if failure != nil { throw UpstreamError.eventTooLarge(limit: configuration.maxEventBytes) }
        }
    }

    /// The committer: carries out `reads` in order, the items among them as one change.
    /// The stream's position (last event id, retry) becomes theirs first; a resync clears
    /// the id again.
    private func commit(_ reads: [UpstreamEventQueue.Read], deliveredEvent: inout Bool) throws(UpstreamError) {
        guard let last = reads.last else { return }
        session.withLockedValue { session in
            session.lastEventID = last.lastEventID
            if let retry = reads.lazy.compactMap(\.reconnectionTime).last {
                session.policy.retryInterval = .milliseconds(retry)
            }
        }
        // Counted once handled, so whoever sees the count also sees the events' effect.
        var handled = 0
        defer { if handled > 0 { statusPublisher.publish(.eventHandled(count: handled, at: Date())) } }
        var items: [JSONValue] = []
        var keep = 0
        func commitItems() {
            guard !items.isEmpty else { return }
            store.prependItems(items, keep: keep)
            handled += items.count
            deliveredEvent = true
            items.removeAll(keepingCapacity: true)
        }
        for read in reads {
            for (event, command) in read.events {
                if case .prependItem(let item, let itemKeep) = command {
                    items.append(item)
                    keep = itemKeep
                    continue
                }
                commitItems()
                handled += 1  // a rejected event counts too: rejecting it is handling it
                try handle(command, of: event)
                deliveredEvent = true
            }
        }
        commitItems()
    }

    /// Carries out one event's command; throws ``UpstreamError/resync(_:)`` to end the
    /// connection when the state may have drifted.
    private func handle(_ command: UpstreamCommand, of event: SSEEvent) throws(UpstreamError) {
        switch command {
        case .replaceDocument(let document):
            store.replaceDocument(document)
        case .applyPatch(let patch):
            do {
                try store.apply(patch)
            } catch {
                try rejectAndResync("\(error)")
            }
        case .prependItem(let item, let keep):
            store.prependItem(item, keep: keep)
        case .reportError(let message):
            logger.warning("upstream sent an error event: \(message)")
            statusPublisher.publish(.upstreamError(message: message))
        case .ignore(let reason, let counted):
            if counted {
                logger.debug("upstream: ignored \(event.type) event: \(reason)")
                statusPublisher.publish(.ignored)
            } else {
                logger.debug("upstream: \(event.type) \(event.data.prefix(200))")
            }
        case .reject(let reason):
            try rejectAndResync(reason)
        }
    }

    private func rejectAndResync(_ reason: String) throws(UpstreamError) {
        logger.error("upstream: \(reason); keeping the last good state and reconnecting for a snapshot")
        statusPublisher.publish(.rejected(reason: reason))
        session.withLockedValue { $0.lastEventID = "" }
        throw .resync(reason)
    }

    /// A network or TLS failure in words, without file paths or internals: it is shown on
    /// pages and in `/readyz`.
    static func describeTransport(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            if error == .connectTimeout { return "connecting to upstream timed out" }
            if error == .remoteConnectionClosed { return "upstream closed the connection" }
        }
        if let error = error as? NIOSSLError, case .handshakeFailed(let reason) = error {
            // BoringSSL's reasons are the upper-case words, e.g. CERTIFICATE_VERIFY_FAILED.
            let words = withoutFileLocations(String(describing: reason))
                .split(whereSeparator: { ":[]() ,".contains($0) })
                .filter { $0.count > 3 && $0.allSatisfy { $0.isUppercase || $0 == "_" } }
            return "TLS handshake failed" + (words.isEmpty ? "" : ": " + words.joined(separator: ", "))
        }
        return String(withoutFileLocations(String(describing: error)).prefix(300))
    }

    /// `text` without ` at /some/file.c:123` source locations.
    static func withoutFileLocations(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let range = rest.range(of: " at /") {
            out += rest[..<range.lowerBound]
            rest = rest[range.upperBound...].drop { !" ])\n,".contains($0) }
        }
        return out + rest
    }

    /// Whether `name` is an HTTP header name (an RFC 9110 token).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || "!#$%&'*+-.^_`|~".utf8.contains(b)
            }
    }

    /// Whether `value` may be sent as a header value: no control characters but tab.
    static func isValidHeaderValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// Whether a `Content-Type` value names `text/event-stream` (parameters allowed).
    static func isEventStream(_ contentType: String?) -> Bool {
        guard let contentType, let media = contentType.split(separator: ";", omittingEmptySubsequences: false).first
        else { return false }
        return media.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
    }

    /// Scheme, host and effective port: what "the same origin" compares.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// A duration as NIO's `TimeAmount`, between 1 ns and one year (no overflow for huge
    /// values).
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let year = Duration.seconds(365 * 24 * 3600)
        let clamped = min(max(duration, .nanoseconds(1)), year)
        let (seconds, attoseconds) = clamped.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
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
