/// Maps each request to the handler of its path. Runs on the daemon thread, so every
/// answer comes from memory: prepared responses, pages cached per change, or the decision
/// to start a stream.
///
/// Before dispatching: CORS's grant is decided (``CrossOrigin``: a preflight it answers is
/// answered here); `/screens/shown` takes POST only (a screen's report); any other method
/// but GET and HEAD gets 405; a path with a control
/// character (a decoded `%00` arrives as DEL) gets 400. The handler's answer then gets what
/// the grant adds.
struct Router: HTTPResponder {
    let pages: PageHandlers
    let streams: StreamHandlers
    let api: APIHandlers
    let health: HealthHandlers
    let assets: StaticAssets
    let errors: ErrorResponses
    let crossOrigin: CrossOrigin

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let grant = crossOrigin.grant(for: request)
        if case .preflight(let answer) = grant { return answer }
        return grant.applied(to: dispatch(request))
    }

    /// The handler's answer to `request`.
    private func dispatch(_ request: HTTPRequest) -> HTTPResponse {
        if request.path == "/screens/shown" {
            return .prepared(request.method == "POST" ? pages.screenShown(request) : errors.postOnly)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .prepared(errors.methodNotAllowed)
        }
        let path = request.path
        guard !path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            return .prepared(errors.badRequest)
        }
        switch path {
        case "/": return .prepared(pages.list(request))
        case "/kiosk": return .prepared(pages.kiosk(request))
        case "/board": return .prepared(pages.board(request))
        case "/stats": return .prepared(pages.stats(request))
        case "/events": return streams.documentEvents(request)
        case "/events/items": return streams.itemEvents(request)
        case "/events/page": return streams.pageEvents(request)
        case "/demo/upstream": return streams.demoUpstream(request)
        case "/healthz": return .prepared(health.health())
        case "/readyz": return .prepared(health.readiness())
        case "/metrics": return .prepared(health.exposition())
        case "/api/state": return .prepared(api.state(request))
        case "/api/changes": return .prepared(api.changes(request))
        case "/inspect": return .prepared(pages.inspect())
        case "/api/items": return .prepared(api.items())
        case "/api/stats": return .prepared(api.statistics())
        default: break
        }
        if let key = path.dropPrefix("/items/") {
            return .prepared(pages.detail(key: key, request: request))
        }
        if let key = path.dropPrefix("/api/items/") {
            return .prepared(api.item(key: key))
        }
        if let file = path.dropPrefix("/static/") {
            return .prepared(assets.file(file, request: request))
        }
        return .prepared(errors.notFound)
    }

    func streamRefused() -> PreparedResponse {
        streams.refused()
    }

    /// `/` without a query: the list page reads no header, so one cached response is the
    /// answer to every plain request for it (19 KB, the page most worth sending without a
    /// copy).
    let directPaths = ["/"]

    func directResponse(forPathAt index: Int) -> PreparedResponse? {
        index == 0 ? pages.list(HTTPRequest(path: "/")) : nil
    }

    /// The programs' streams: thousands of clients each, whose memory is the server's.
    let directStreamPaths = ["/events", "/events/items"]
}

extension String {
    /// What follows `prefix`, or `nil` when the string does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
