/// What the router answers a request with: a plain value that ``HTTPServer`` carries out.
public enum HTTPResponse: Sendable {
    /// A response built beforehand and shared by every request that gets it.
    case prepared(PreparedResponse)
    /// A shared response sent to this one request with `headers` of its own after the
    /// response's: the shared response is never changed (the server sends its status and
    /// body in a libmicrohttpd response of this request's, without copying the body).
    case preparedAdding(PreparedResponse, headers: [(String, String)])
    /// Answer with a Server-Sent Events stream, if the server admits one more.
    case stream(StreamStart)

    /// This answer with `headers` added for this request alone, after its own (a stream's
    /// refusal carries them too); with none, the answer itself.
    public func adding(_ headers: [(String, String)]) -> HTTPResponse {
        guard !headers.isEmpty else { return self }
        switch self {
        case .prepared(let response): return .preparedAdding(response, headers: headers)
        case .preparedAdding(let response, let own): return .preparedAdding(response, headers: own + headers)
        case .stream(let start): return .stream(start.adding(headers))
        }
    }
}

/// The decision to answer with a Server-Sent Events stream.
///
/// The server first admits the stream (it may be at ``HTTPServer/Configuration/maxStreams``
/// or stopping: then the client gets ``HTTPResponder/streamRefused()`` and nothing was
/// subscribed), then calls ``open(_:on:)`` once with the new ``StreamConnection`` and the
/// ``Shard`` whose sender writes it, sends ``headers`` with status 200, and then whatever is
/// queued on the stream until it closes or the client leaves.
public struct StreamStart: Sendable {
    /// Whom a stream serves, for which sender writes it.
    public enum Audience: Sendable {
        /// Programs (`/events`, `/events/items`): possibly thousands of clients, written in
        /// turn by the bulk senders.
        case programs
        /// A person's open page (`/events/page`): few clients, written by a sender of their
        /// own, so that a page never waits behind a fan-out to thousands.
        case person
    }

    /// The response headers, sent at once.
    public let headers: [(String, String)]
    /// Headers of this request's own (``adding(_:)``), also sent with the refusal when the
    /// server does not admit the stream.
    public let refusalHeaders: [(String, String)]
    /// The most unsent bytes the stream may hold before its client is dropped.
    public let maxQueuedBytes: Int
    public let audience: Audience
    private let subscribe: @Sendable (StreamConnection, Shard) -> @Sendable () -> Void

    /// - Parameter subscribe: subscribes an admitted stream, written by the sender of the
    ///   given shard (and, a programs' stream, in that shard's broadcaster), to its events
    ///   (queuing its first bytes) and returns what undoes that. It is called on a daemon's
    ///   thread, or a front door's for a stream the door opens (``DirectStream``); the server
    ///   runs what it returns once when the stream ends: on a daemon's thread, or the
    ///   sender's for a stream the door opened.
    public init(
        headers: [(String, String)], maxQueuedBytes: Int, audience: Audience = .programs,
        subscribe: @escaping @Sendable (StreamConnection, Shard) -> @Sendable () -> Void
    ) {
        self.init(
            headers: headers, refusalHeaders: [], maxQueuedBytes: maxQueuedBytes, audience: audience,
            subscribe: subscribe)
    }

    private init(
        headers: [(String, String)], refusalHeaders: [(String, String)], maxQueuedBytes: Int, audience: Audience,
        subscribe: @escaping @Sendable (StreamConnection, Shard) -> @Sendable () -> Void
    ) {
        self.headers = headers
        self.refusalHeaders = refusalHeaders
        self.maxQueuedBytes = maxQueuedBytes
        self.audience = audience
        self.subscribe = subscribe
    }

    /// The same decision with `extra` headers after the stream's own, for this request
    /// alone: libmicrohttpd copies each into the stream's response (~128 B of RSS per
    /// header for as long as the client stays), so add only what this client needs.
    public func adding(_ extra: [(String, String)]) -> StreamStart {
        StreamStart(
            headers: headers + extra, refusalHeaders: refusalHeaders + extra, maxQueuedBytes: maxQueuedBytes,
            audience: audience, subscribe: subscribe)
    }

    /// Subscribes `stream`, an admitted stream of this decision written by the sender of
    /// `shard`; returns what to run when its request is complete.
    public func open(_ stream: StreamConnection, on shard: Shard) -> @Sendable () -> Void {
        subscribe(stream, shard)
    }
}

/// The application side of ``HTTPServer``: maps each request to a response.
///
/// Called on the daemon thread for every request, so it must not block: answer from
/// memory (prepared responses) or decide on a stream.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The response for a new stream refused because the server is at its stream limit
    /// or shutting down (a 503 with `Retry-After`).
    func streamRefused() -> PreparedResponse
    /// Paths (exact request targets, no query) whose `GET` response depends on nothing of
    /// the request but the path, and is a 200 from memory: ``FrontDoor`` answers plain
    /// requests for them itself, from ``directResponse(forPathAt:)``.
    var directPaths: [String] { get }
    /// The response now for the path at `index` of ``directPaths``; called on the front
    /// door's thread, so it must not block either.
    func directResponse(forPathAt index: Int) -> PreparedResponse?
    /// Paths of programs' streams (``StreamStart/Audience/programs``) that ``FrontDoor``
    /// opens itself for a plain `GET` (``DirectRequestHead``): it calls ``respond(to:)`` on
    /// its thread, and a stream it gets is written by a shard's sender from its first byte,
    /// without libmicrohttpd (which would hold its 8 KiB pool per client for as long as
    /// the stream lasts). Any other answer, or a stream the server does not admit, goes to
    /// libmicrohttpd with the request unread, to be answered there.
    var directStreamPaths: [String] { get }
}

extension HTTPResponder {
    public var directPaths: [String] { [] }
    public var directStreamPaths: [String] { [] }
    public func directResponse(forPathAt index: Int) -> PreparedResponse? { nil }
}
