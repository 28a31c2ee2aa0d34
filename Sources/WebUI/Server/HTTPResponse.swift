/// What the router answers a request with.
public enum HTTPResponse {
    /// A response built beforehand and shared by every request that gets it.
    case prepared(PreparedResponse)
    /// A Server-Sent Events stream: `headers` go out at once, then whatever is queued on
    /// the stream, until it closes or the client leaves. `onEnd` runs once when the
    /// request is complete (on the daemon thread).
    case stream(StreamConnection, headers: [(String, String)], onEnd: @Sendable () -> Void)
}

/// The application side of ``HTTPServer``: maps each request to a response.
///
/// Called on the daemon thread for every request, so it must not block: answer from
/// memory (prepared responses) or hand back a stream.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The response for a new stream refused because the server is at its stream limit
    /// or shutting down (a 503 with `Retry-After`).
    func streamRefused() -> PreparedResponse
}
