import AsyncHTTPClient
import Foundation
import NIOCore

/// An SSE stream over HTTP, or a stream of JSON texts: one attempt is one request
/// (following redirects) and the reading of its body until it ends. Where a byte goes: the
/// body → ``SSEParser`` → an ``SSEEvent`` → the connection's ``SSEDialect`` (an
/// ``UpstreamCommand``) → ``UpstreamCommitter`` → ``FeedStore``; in a JSON stream, the body
/// → ``JSONTextSplitter`` → one text → ``MessageProtocol`` → the committer.
///
/// Request headers: `Accept: text/event-stream` (then the JSON streams' types, weighed
/// lower, where `jsonTexts` reads them: ``acceptingJSONStreams``), `Cache-Control:
/// no-cache`, `Last-Event-ID` when an id is known, then every configured header (a
/// configured `Accept` or `Cache-Control` replaces the default; credentials stay on the
/// configured origin, see ``UpstreamRedirects``). A 2xx answer other than 204 must be
/// `text/event-stream`, or a JSON stream (``jsonFraming(of:)``) where `jsonTexts` reads
/// one; 204 asks clients to stop.
struct SSETransport: HTTPTransport {
    let clientConfiguration: HTTPClient.Configuration
    let makeDialect: @Sendable () -> any SSEDialect
    /// How the texts of a JSON stream are read; `nil`: a JSON stream is refused.
    let jsonTexts: MessageProtocol?

    func attempt(with client: HTTPClient, session: UpstreamSession) async -> UpstreamAttemptOutcome? {
        let configured = session.endpoint.headers
        let configuredNames = Set(configured.map { $0.name.lowercased() })
        // A JSON stream resumes in its query (``StreamResume``), an SSE stream by its header.
        var lastEventID = session.lastEventID
        if case .append(let keep)? = jsonTexts?.mode, UpstreamPosition.resumeQuery(from: lastEventID) == nil,
            KubernetesList.isWatch(session.endpoint.url), session.store.keepsItems
        {
            // A watch that starts over while objects are kept: the list first, so that the
            // ones deleted meanwhile go, then the watch from the list's version.
            switch await KubernetesList.fetch(session.endpoint.url, keep: keep, client: client, session: session) {
            case .listed(let position):
                session.lastEventID = position
                lastEventID = position
            case .askedToWait(let error, let wait):
                // A busy API server (429, with Retry-After): listed again after the wait.
                return .ended(error, notBefore: wait)
            case .unavailable:
                break
            }
        }
        let resumeQuery = jsonTexts == nil ? nil : UpstreamPosition.resumeQuery(from: lastEventID)
        var redirects = UpstreamRedirects(start: resumeQuery?.applied(to: session.endpoint.url) ?? session.endpoint.url)
        if let resumeQuery { session.logger.info("upstream: resuming the stream at \(resumeQuery.description)") }
        let requestedAt = Date()
        let accept = jsonTexts == nil ? "text/event-stream" : Self.acceptingJSONStreams
        do {
            let response = try await HTTPUpstream.request(
                client, redirects: &redirects, deadline: .distantFuture, session: session
            ) { redirects in
                var headers: [(name: String, value: String)] = []
                if !configuredNames.contains("accept") { headers.append(("Accept", accept)) }
                if !configuredNames.contains("cache-control") { headers.append(("Cache-Control", "no-cache")) }
                if !lastEventID.isEmpty && resumeQuery == nil {
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
                if Self.isEventStream(contentType) {
                    opened(redirects.url, session: session)
                    try await read(response.body, session: session)
                    throw UpstreamError.endOfStream
                }
                guard let jsonTexts, let framing = Self.jsonFraming(of: contentType) else {
                    throw UpstreamError.wrongContentType(contentType)
                }
                opened(redirects.url, session: session)
                try await read(response.body, framing: framing, as: jsonTexts, session: session)
                throw UpstreamError.endOfStream
            default:
                if let resumeQuery, Self.refusesResume(status: code) {
                    // Too old a version, or a point this server does not know: start over.
                    session.lastEventID = ""
                    session.logger.warning(
                        "upstream: answered \(code) to resuming at \(resumeQuery.description); the next request starts over"
                    )
                }
                let asked = session.askedWait(status: code, headers: response.headers.map { ($0.name, $0.value) })
                guard PollingProtocol.wantsReason(status: code) else {
                    return .ended(.httpStatus(code), notBefore: asked)
                }
                let (reason, bytes) = await HTTPUpstream.reason(of: response, session: session)
                session.publish(.received(bytes: UInt64(bytes)))
                return .ended(.httpStatus(code, reason: reason), notBefore: asked)
            }
        } catch {
            return TransportFailure.outcome(of: error, url: redirects.url)
        }
    }

    private func opened(_ url: URL, session: UpstreamSession) {
        session.publish(.opened(at: Date()))
        session.logger.info("upstream: connected to \(URLRedaction.redacted(url.absoluteString))")
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
            // Whether the log was told what the dialect learned (it learns at most once).
            var toldLearned = false
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
                if !toldLearned, let learned = dialect.learned {
                    toldLearned = true
                    session.logger.notice("upstream: \(learned)")
                }
                let read = UpstreamReadQueue.Read(
                    events: interpreted, lastEventID: parser.lastEventID, reconnectionTime: parser.reconnectionTime,
                    byteCount: count, arrival: UpstreamArrival(received: received, parsed: MonotonicTime.now()))
                guard await queue.put(read) else { return }  // the committer stopped
                if failure != nil { throw UpstreamError.eventTooLarge(limit: maxEventBytes) }
            }
        }
    }

    /// Reads a JSON stream's body through the committer: the reader splits each read into
    /// texts and their commands. A body of one value that ends within
    /// ``oneAnswerSeconds`` is a JSON API's one answer, not a stream: it is shown, and
    /// ``UpstreamError/oneDocumentThenClosed`` says how to follow it (a watch that ends after
    /// minutes with one object is a stream).
    private func read(
        _ body: HTTPClientResponse.Body, framing: JSONTextSplitter.Framing, as messages: MessageProtocol,
        session: UpstreamSession
    ) async throws {
        let maxEventBytes = session.configuration.maxEventBytes
        let started = MonotonicTime.now()
        try await UpstreamCommitter(session: session).run { queue in
            var count = 0
            // Where the stream resumes after the texts read so far (``StreamResume``): each
            // change's position, and the connection's.
            var position = session.lastEventID
            var splitter = JSONTextSplitter(framing: framing, maxTextBytes: maxEventBytes)
            var texts: [[UInt8]] = []
            var ended = false
            var iterator = body.makeAsyncIterator()
            while !ended {
                let buffer = try await iterator.next()
                let received = MonotonicTime.now()
                texts.removeAll(keepingCapacity: true)
                // Texts completed before an oversized one in the same read still count.
                var failure: JSONTextSplitterError?
                if let buffer {
                    buffer.withUnsafeReadableBytes { raw in
                        do throws(JSONTextSplitterError) {
                            try splitter.split(raw, into: &texts)
                        } catch {
                            failure = error
                        }
                    }
                    session.publish(.received(bytes: UInt64(buffer.readableBytes)))
                } else {
                    ended = true
                    splitter.finish(into: &texts)
                }
                count += texts.count
                if ended && texts.isEmpty { break }
                let interpreted = texts.flatMap { bytes in
                    let text = String(decoding: bytes, as: UTF8.self)
                    let reading = messages.read(.text(text))
                    switch reading.resume {
                    case .at(let query)?: position = UpstreamPosition.encode(query)
                    case .startOver?: position = ""
                    case nil: break
                    }
                    let event = SSEEvent(type: "message", data: text, id: position)
                    return reading.commands.map { (event, $0) }
                }
                let read = UpstreamReadQueue.Read(
                    events: interpreted, lastEventID: position, reconnectionTime: nil,
                    byteCount: buffer?.readableBytes ?? 0,
                    arrival: UpstreamArrival(received: received, parsed: MonotonicTime.now()))
                guard await queue.put(read) else { return }  // the committer stopped
                if failure != nil { throw UpstreamError.eventTooLarge(limit: maxEventBytes) }
            }
            let seconds = Double(MonotonicTime.now() &- started) / 1e9
            if count == 1 && framing == .values && seconds < Self.oneAnswerSeconds {
                throw UpstreamError.oneDocumentThenClosed
            }
        }
    }

    /// Whether a request that resumed a JSON stream and was answered `status` was refused
    /// for where it resumed: `410 Gone` (Kubernetes: the version has expired) or `400 Bad
    /// Request` (CouchDB: a `since` it cannot read).
    static func refusesResume(status: Int) -> Bool {
        status == 410 || status == 400
    }

    /// Within how many seconds a body of one JSON value must end to be taken for a JSON API's
    /// one answer.
    static let oneAnswerSeconds = 5.0

    /// The `Accept` of a mode that also reads JSON streams: an SSE stream first, then the
    /// JSON streams' types, which a Kubernetes API server needs to hear (it answers 406 to
    /// `text/event-stream` alone).
    static let acceptingJSONStreams = "text/event-stream, application/x-ndjson;q=0.9, application/json;q=0.8"

    /// How a JSON stream answered with `contentType` is split: one text per line for the
    /// line-delimited types (NDJSON, JSON Lines, JSON text sequences, `stream+json`), one per
    /// value for `application/json`, `text/json` and any other `+json`; `nil` for anything
    /// else.
    static func jsonFraming(of contentType: String?) -> JSONTextSplitter.Framing? {
        guard let contentType, let media = contentType.split(separator: ";", omittingEmptySubsequences: false).first
        else { return nil }
        let type = media.trimmingCharacters(in: .whitespaces).lowercased()
        switch type {
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonl",
            "application/jsonlines", "application/x-jsonlines", "application/json-seq", "application/stream+json",
            "application/x-json-stream":
            return .lines
        case "application/json", "text/json":
            return .values
        default:
            return type.hasPrefix("application/") && type.hasSuffix("+json") ? .values : nil
        }
    }

    /// Whether a `Content-Type` value names `text/event-stream` (parameters allowed).
    static func isEventStream(_ contentType: String?) -> Bool {
        guard let contentType, let media = contentType.split(separator: ";", omittingEmptySubsequences: false).first
        else { return false }
        return media.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
    }
}
