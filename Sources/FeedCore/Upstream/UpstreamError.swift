/// Why one upstream connection attempt ended.
public enum UpstreamError: Error, CustomStringConvertible, Equatable {
    /// Upstream answered a status that is not 2xx (nor a followed redirect).
    case httpStatus(Int)
    /// Upstream answered 204 No Content: it asks clients to stop.
    case noContent
    /// The response is not `text/event-stream`.
    case wrongContentType(String?)
    /// A redirect came without a `Location`.
    case redirectWithoutLocation(status: Int)
    /// More than 5 redirects in a row.
    case tooManyRedirects
    /// A URL (configured or from `Location`) is not an absolute http(s) URL.
    case invalidURL(String)
    /// One event was larger than `--max-event-bytes`.
    case eventTooLarge(limit: Int)
    /// No byte arrived for `--read-timeout`: the connection is presumed dead.
    case readTimeout
    /// The stream ended (upstream closed it).
    case endOfStream
    /// An event could not be applied; the state was kept and a fresh snapshot is needed.
    case resync(String)
    /// A network or TLS failure.
    case transport(String)

    public var description: String {
        switch self {
        case .httpStatus(let code): return "upstream answered HTTP \(code)"
        case .noContent: return "upstream answered 204 No Content (asked clients to stop)"
        case .wrongContentType(let type):
            return "upstream answered Content-Type \(type ?? "(none)"), not text/event-stream"
        case .redirectWithoutLocation(let status): return "upstream answered redirect \(status) without a Location"
        case .tooManyRedirects: return "more than 5 redirects"
        case .invalidURL(let url): return "not an absolute http(s) URL: \(url)"
        case .eventTooLarge(let limit): return "an event exceeded \(limit) bytes"
        case .readTimeout: return "no data from upstream within the read timeout"
        case .endOfStream: return "upstream closed the stream"
        case .resync(let reason): return "resynchronising: \(reason)"
        case .transport(let message): return message
        }
    }
}
