/// Why one upstream connection attempt ended, or why an upstream setting is unusable.
///
/// Descriptions are shown on pages, in `/readyz` and in the log: they never carry a
/// password, an API key or a header value (URLs are redacted, see
/// ``URLRedaction/redacted(_:)``), nor a file path from inside a library.
public enum UpstreamError: Error, CustomStringConvertible, Equatable {
    /// Upstream answered a status that is not 2xx (nor a followed redirect), with what its
    /// body says went wrong (``UpstreamAnswerReason``; `nil`: nothing).
    case httpStatus(Int, reason: String? = nil)
    /// Upstream answered 204 No Content: it asks clients to stop.
    case noContent
    /// The response is not `text/event-stream`.
    case wrongContentType(String?)
    /// A redirect came without a `Location`.
    case redirectWithoutLocation(status: Int)
    /// More than 5 redirects in a row.
    case tooManyRedirects
    /// A URL (configured or from `Location`) is not an absolute URL of the transport's schemes.
    case invalidURL(String)
    /// A configured request header cannot be sent (its name is not a token, or its value
    /// has control characters).
    case invalidHeader(name: String)
    /// The CA file (`--ca-file`) could not be read.
    case unreadableCAFile(String)
    /// One event (or WebSocket message) was larger than `--max-event-bytes`.
    case eventTooLarge(limit: Int)
    /// No byte arrived for `--read-timeout`: the connection is presumed dead.
    case readTimeout
    /// The stream ended (upstream closed it).
    case endOfStream
    /// An `--upstream` answered one JSON document, not a stream, and ended: a JSON API,
    /// which is polled.
    case oneDocumentThenClosed
    /// An event could not be applied; the state was kept and a fresh snapshot is needed.
    case resync(String)
    /// Upstream said the stream is over (Firebase `cancel` or `auth_revoked`): the state is
    /// kept and the usual reconnect follows.
    case endedByUpstream(String)
    /// A polled answer that is not a usable document (a status, a body that is not JSON…),
    /// in words.
    case unusableAnswer(String)
    /// Upstream did not accept the WebSocket upgrade. `origin`: the `Origin` the handshake
    /// carried (the WebSocket client's own, the URL's scheme and host: `ws://HOST`), which a
    /// server that checks origins must allow.
    case webSocketUpgradeRefused(origin: String)
    /// Upstream closed the WebSocket with a close code other than 1000 (normal) or 1001
    /// (going away).
    case webSocketClosed(code: UInt16, reason: String?)
    /// The WebSocket ended without a close frame from upstream: the connection dropped,
    /// upstream did not answer a ping within the read timeout, or sent a frame far over the
    /// size limit.
    case webSocketDropped
    /// A network or TLS failure, in words.
    case transport(String)

    public var description: String {
        switch self {
        case .httpStatus(let code, let reason):
            return "upstream answered HTTP \(code)" + (reason.map { ": " + $0 } ?? "")
        case .noContent: return "upstream answered 204 No Content (asked clients to stop)"
        case .wrongContentType(let type):
            // A JSON API given as an SSE feed: say how it is read.
            let hint = type?.lowercased().contains("json") == true ? " (a JSON API is polled: --poll URL)" : ""
            return
                "upstream answered Content-Type \(type.map { String($0.prefix(100)) } ?? "(none)"), not text/event-stream"
                + hint
        case .redirectWithoutLocation(let status): return "upstream answered redirect \(status) without a Location"
        case .tooManyRedirects: return "more than 5 redirects"
        case .invalidURL(let url): return "not an absolute http(s) URL: \(URLRedaction.redacted(url))"
        case .invalidHeader(let name): return "invalid request header \"\(name)\""
        case .unreadableCAFile(let path): return "cannot read CA file \(path)"
        case .eventTooLarge(let limit): return "an event exceeded \(limit) bytes"
        case .readTimeout: return "no data from upstream within the read timeout"
        case .endOfStream: return "upstream closed the stream"
        case .oneDocumentThenClosed:
            return "upstream answered one JSON document and closed the connection (a JSON API is polled: --poll URL)"
        case .resync(let reason): return "resynchronising: \(reason)"
        case .endedByUpstream(let reason): return "upstream ended the stream: \(reason)"
        case .unusableAnswer(let message): return message
        case .webSocketUpgradeRefused(let origin):
            return
                "upstream refused the WebSocket upgrade (the handshake's Origin was \(origin): a server that checks origins must allow it)"
        case .webSocketClosed(let code, let reason):
            let why = reason.map { String($0.prefix(200)) }.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
            return "upstream closed the WebSocket with code \(code)\(why)"
        case .webSocketDropped:
            return
                "the WebSocket ended without a close frame from upstream (dropped, no answer to a ping within the read timeout, or a frame far over the size limit)"
        case .transport(let message): return message
        }
    }
}
