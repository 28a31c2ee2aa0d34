/// The form of the page stream's events (`/events/page?…&dialect=`): feedweb's own JSON
/// events, which `Public/app.js` reads, or the events of a library a user's own page runs.
/// Every dialect writes the same ``PageFrame`` (the fragments rendered once), each once per
/// view per frame, never per client. See docs/dialects.md.
enum PageDialect: Hashable, Sendable, CaseIterable {
    /// No `dialect`: feedweb's JSON events (``FeedwebDialect``).
    case feedweb
    /// `dialect=htmx`: htmx 2 with its SSE extension (``HTMXDialect``).
    case htmx
    /// `dialect=datastar`: Datastar v1 (``DatastarDialect``).
    case datastar

    /// The dialect a request's `dialect` parameter names: `.feedweb` without one, `nil` for
    /// any other value (the request is refused with 400).
    init?(parameter: String?) {
        switch parameter {
        case nil: self = .feedweb
        case "htmx": self = .htmx
        case "datastar": self = .datastar
        default: return nil
        }
    }

    /// The values `dialect=` takes, as the 400 page names them.
    static let parameterValues = "htmx or datastar"

    /// `frame` as this dialect's events (empty when it has nothing to say).
    func events(_ frame: PageFrame) -> [UInt8] {
        switch self {
        case .feedweb: FeedwebDialect.events(frame)
        case .htmx: HTMXDialect.events(frame)
        case .datastar: DatastarDialect.events(frame)
        }
    }
}
