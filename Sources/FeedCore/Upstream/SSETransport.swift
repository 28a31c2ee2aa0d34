import AsyncHTTPClient
import Foundation
import NIOCore

/// An SSE stream over HTTP: one attempt is one request (following redirects) and the
/// reading of its body until it ends. Where a byte goes: the body → ``SSEParser`` → an
/// ``SSEEvent`` → the connection's ``SSEDialect`` (an ``UpstreamCommand``) →
/// ``UpstreamCommitter`` → ``FeedStore``.
///
/// Request headers: `Accept: text/event-stream`, `Cache-Control: no-cache`,
/// `Last-Event-ID` when an id is known, then every configured header (a configured
/// `Accept` or `Cache-Control` replaces the default; credentials stay on the configured
/// origin, see ``UpstreamRedirects``). A 2xx answer other than 204 must be
/// `text/event-stream`; 204 asks clients to stop.
struct SSETransport: HTTPTransport {
    let clientConfiguration: HTTPClient.Configuration
    let makeDialect: @Sendable () -> any SSEDialect

    func attempt(with client: HTTPClient, session: UpstreamSession) async -> UpstreamAttemptOutcome? {
        let configured = session.endpoint.headers
        let configuredNames = Set(configured.map { $0.name.lowercased() })
        var redirects = UpstreamRedirects(start: session.endpoint.url)
        let requestedAt = Date()
        do {
            let response = try await HTTPUpstream.get(
                client, redirects: &redirects, deadline: .distantFuture, session: session
            ) { redirects in
                var headers: [(name: String, value: String)] = []
                if !configuredNames.contains("accept") { headers.append(("Accept", "text/event-stream")) }
                if !configuredNames.contains("cache-control") { headers.append(("Cache-Control", "no-cache")) }
                let lastEventID = session.lastEventID
                if !lastEventID.isEmpty {
                    if UpstreamEndpoint.isValidHeaderValue(lastEventID) {
                        headers.append(("Last-Event-ID", lastEventID))
                    } else {
                        // An id with control characters cannot be sent; without one,
                        // upstream starts over with a snapshot.
                        session.logger.warning("upstream: the last event id has control characters; not sending it")
                    }
                }
                return headers + redirects.headers(configured)
            }
            let code = Int(response.status.code)
            session.publish(.answered(status: code, requestedAt: requestedAt, at: Date()))
            switch code {
            case 204:
                throw UpstreamError.noContent
            case 200..<300:
                let contentType = response.headers.first(name: "Content-Type")
                guard Self.isEventStream(contentType) else { throw UpstreamError.wrongContentType(contentType) }
                session.publish(.opened(at: Date()))
                session.logger.info("upstream: connected to \(URLRedaction.redacted(redirects.url.absoluteString))")
                try await read(response.body, session: session)
                throw UpstreamError.endOfStream
            default:
                guard PollingProtocol.wantsReason(status: code) else { throw UpstreamError.httpStatus(code) }
                let (reason, bytes) = await HTTPUpstream.reason(of: response, session: session)
                session.publish(.received(bytes: UInt64(bytes)))
                throw UpstreamError.httpStatus(code, reason: reason)
            }
        } catch {
            return TransportFailure.outcome(of: error, url: redirects.url)
        }
    }

    /// Reads the body through the committer: the reader parses each read into events and
    /// their commands.
    private func read(_ body: HTTPClientResponse.Body, session: UpstreamSession) async throws {
        let maxEventBytes = session.configuration.maxEventBytes
        let startID = session.lastEventID
        let makeDialect = self.makeDialect
        try await UpstreamCommitter(session: session).run { queue in
            var parser = SSEParser(maxEventBytes: maxEventBytes)
            parser.resume(lastEventID: startID)
            var dialect = makeDialect()
            var events: [SSEEvent] = []
            for try await buffer in body {
                let received = MonotonicTime.now()
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
                        failure = .eventTooLarge(limit: maxEventBytes)
                    }
                }
                session.publish(.received(bytes: UInt64(count)))
                let interpreted = events.map { ($0, dialect.interpret($0)) }
                let read = UpstreamReadQueue.Read(
                    events: interpreted, lastEventID: parser.lastEventID, reconnectionTime: parser.reconnectionTime,
                    byteCount: count, arrival: UpstreamArrival(received: received, parsed: MonotonicTime.now()))
                guard await queue.put(read) else { return }  // the committer stopped
                if failure != nil { throw UpstreamError.eventTooLarge(limit: maxEventBytes) }
            }
        }
    }

    /// Whether a `Content-Type` value names `text/event-stream` (parameters allowed).
    static func isEventStream(_ contentType: String?) -> Bool {
        guard let contentType, let media = contentType.split(separator: ";", omittingEmptySubsequences: false).first
        else { return false }
        return media.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
    }
}
