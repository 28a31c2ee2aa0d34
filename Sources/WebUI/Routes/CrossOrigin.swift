/// CORS for the streams and the API (`--allow-origin`): what a page on another origin may
/// read, decided once per request by the ``Router`` from the request's path, method and
/// `Origin` (a ``Grant``), and applied to whatever the handler answers.
///
/// Invariants:
/// - With no origin allowed (the default) every grant is ``Grant/nothing``: no answer
///   carries a CORS header or a `Vary`, and an `OPTIONS` is the router's 405 as ever.
/// - Only the paths of ``covers(_:)`` (`/events`, `/events/items`, `/events/page`, and
///   every path under `/api/`) are granted anything; the pages never are.
/// - `Access-Control-Allow-Origin` is sent only to a request whose `Origin` is allowed:
///   that origin as the request sent it, or `*` when `*` is allowed. A refused origin gets
///   the answer without any `Access-Control-*` header.
/// - `Access-Control-Allow-Credentials: true` goes only with an origin named by
///   `--allow-origin`, never with `*`: feedweb itself reads no cookie or credential, but
///   htmx's SSE extension opens its `EventSource` `withCredentials`, which a browser allows
///   only with it (a proxy in front of feedweb that checks cookies then sees them: naming
///   the origin is the operator's choice).
/// - Headers that depend on the request are added to this request's answer alone
///   (``HTTPResponse/adding(_:)``); a prepared response shared between requests is never
///   changed.
struct CrossOrigin: Sendable {
    /// What CORS does to one request's answer.
    enum Grant {
        /// Nothing: no origin is allowed, or the path is not one of the streams or the API.
        case nothing
        /// The request's `Origin` is allowed: these headers go on the answer.
        case allowed([(String, String)])
        /// A path whose answer depends on `Origin`, for a request without an allowed one:
        /// `Vary: Origin` on a prepared answer, so that a shared cache never hands it to a
        /// page of an allowed origin (an `/api/state?at=` answer is cacheable for a year);
        /// nothing on a stream, which no cache keeps, to spare each client the header.
        case refused
        /// A preflight from an allowed origin for GET or HEAD: answered with this, in place
        /// of the router's 405.
        case preflight(HTTPResponse)

        /// `response` with what this grant adds to it.
        func applied(to response: HTTPResponse) -> HTTPResponse {
            switch (self, response) {
            case (.nothing, _), (.preflight, _), (.refused, .stream): return response
            case (.allowed(let headers), _): return response.adding(headers)
            case (.refused, _): return response.adding([CrossOrigin.vary])
            }
        }
    }

    /// The origins allowed (`--allow-origin`).
    let allowed: AllowedOrigins
    /// The 204 to a preflight, shared, without the per-request `Access-Control-Allow-Origin`
    /// and `Vary`.
    private let preflightAnswer: PreparedResponse

    /// The response headers a page's script may read besides the CORS-safelisted ones
    /// (`Cache-Control`, `Content-Type`, `Content-Length`, …): every other header of
    /// feedweb's answers that tells a client something (`/api/state`'s `ETag`, `?at=`'s
    /// change, a refused stream's `Retry-After`).
    static let exposedHeaders = "ETag, Retry-After, X-Feedweb-Event-Id, X-Feedweb-Event-Time"
    /// The request headers a page may send to the streams and the API: the stream's resume
    /// point and what an `EventSource` or a conditional `fetch` adds.
    /// Datastar's `@get` adds `Datastar-Request` and a JSON `Content-Type`.
    static let allowedRequestHeaders =
        "Last-Event-ID, Cache-Control, Accept, If-None-Match, Datastar-Request, Content-Type"
    /// How long a browser may keep a preflight's answer, in seconds.
    static let preflightMaxAge = 600
    static let vary = ("Vary", "Origin")

    init(allowed: AllowedOrigins) {
        self.allowed = allowed
        preflightAnswer = .fixed(
            status: 204, body: [],
            headers: [
                ("Access-Control-Allow-Methods", "GET, HEAD"),
                ("Access-Control-Allow-Headers", Self.allowedRequestHeaders),
                ("Access-Control-Max-Age", String(Self.preflightMaxAge)),
            ])
    }

    /// Whether CORS applies to `path`: the streams programs and other sites read, and the API.
    static func covers(_ path: String) -> Bool {
        switch path {
        case "/events", "/events/items", "/events/page": return true
        default: return path.hasPrefix("/api/")
        }
    }

    /// What CORS grants `request`.
    func grant(for request: HTTPRequest) -> Grant {
        guard !allowed.isEmpty, Self.covers(request.path) else { return .nothing }
        guard let origin = request.header("Origin"), allowed.allows(origin) else {
            return request.method == "OPTIONS" ? .nothing : .refused
        }
        var allow = [("Access-Control-Allow-Origin", allowed.allowsAny ? "*" : origin)]
        if !allowed.allowsAny { allow.append(("Access-Control-Allow-Credentials", "true")) }
        if request.method == "OPTIONS" {
            // A preflight names the method the page means to use; for any but ours, the 405.
            guard let method = request.header("Access-Control-Request-Method"), method == "GET" || method == "HEAD"
            else { return .nothing }
            return .preflight(.preparedAdding(preflightAnswer, headers: allow + [Self.vary]))
        }
        return .allowed(allow + [("Access-Control-Expose-Headers", Self.exposedHeaders), Self.vary])
    }
}
