import FeedCore
import NIOConcurrencyHelpers

/// The answers that change only with the templates: the error pages, the JSON 404 of the
/// API, and the 503 for a stream refused. Built at start, built again when the templates
/// are reloaded (``render(with:)``), and shared by every request that gets one.
final class ErrorResponses: Sendable {
    /// The error pages (HTML, from the `error` template).
    private struct Pages: Sendable {
        let notFound: PreparedResponse
        let badRequest: PreparedResponse
        let badDialect: PreparedResponse
        let methodNotAllowed: PreparedResponse
        let postOnly: PreparedResponse
    }

    /// 404 as JSON, for `/api/*`.
    let notFoundJSON: PreparedResponse
    /// 503 as JSON with `Retry-After: 5`: a stream refused at `--max-clients` or during
    /// shutdown.
    let tooManyStreams: PreparedResponse
    private let htmlHeaders: [(String, String)]
    /// The pages as last rendered. A leaf lock; pages are rendered outside it.
    private let pages: NIOLockedValueBox<Pages>

    /// 404, an HTML page: nothing at this address.
    var notFound: PreparedResponse { pages.withLockedValue { $0.notFound } }
    /// 400, an HTML page: a malformed request (a control character in the path, an unknown
    /// page-stream view).
    var badRequest: PreparedResponse { pages.withLockedValue { $0.badRequest } }
    /// 400, an HTML page naming the page stream's dialects: a `dialect` that is not one.
    var badDialect: PreparedResponse { pages.withLockedValue { $0.badDialect } }
    /// 405 with `Allow: GET, HEAD`, an HTML page.
    var methodNotAllowed: PreparedResponse { pages.withLockedValue { $0.methodNotAllowed } }
    /// 405 with `Allow: POST`, an HTML page: for `/screens/shown`, which takes reports only.
    var postOnly: PreparedResponse { pages.withLockedValue { $0.postOnly } }

    /// Renders the pages with `renderer` and sends them with `htmlHeaders`; the JSON
    /// answers go with `jsonHeaders`.
    init(renderer: PageRenderer, htmlHeaders: [(String, String)], jsonHeaders: [(String, String)]) {
        func json(_ status: UInt32, error: String, extra: [(String, String)] = []) -> PreparedResponse {
            .fixed(
                status: status, body: JSONValue.object(["error": .string(error)]).serializedBytes(),
                headers: jsonHeaders + extra)
        }
        self.htmlHeaders = htmlHeaders
        notFoundJSON = json(404, error: "not found")
        tooManyStreams = json(503, error: "too many streams; retry later", extra: [("Retry-After", "5")])
        pages = NIOLockedValueBox(Self.pages(renderer, htmlHeaders: htmlHeaders))
    }

    /// Renders the pages again with `renderer` (new templates).
    func render(with renderer: PageRenderer) {
        let fresh = Self.pages(renderer, htmlHeaders: htmlHeaders)
        pages.withLockedValue { $0 = fresh }
    }

    private static func pages(_ renderer: PageRenderer, htmlHeaders: [(String, String)]) -> Pages {
        func page(_ status: UInt32, _ heading: String, _ message: String, extra: [(String, String)] = [])
            -> PreparedResponse
        {
            let body = renderer.error(code: Int(status), heading: heading, message: message)
            return .fixed(status: status, body: body, headers: htmlHeaders + extra)
        }
        return Pages(
            notFound: page(404, "Not found", "There is nothing at this address. The story may have left the feed."),
            badRequest: page(400, "Bad request", "The request was malformed."),
            badDialect: page(
                400, "Bad parameter: dialect",
                "dialect must be \(PageDialect.parameterValues); without it, the page stream speaks feedweb's own events."
            ),
            methodNotAllowed: page(
                405, "Method not allowed", "feedweb only answers GET and HEAD.", extra: [("Allow", "GET, HEAD")]),
            postOnly: page(
                405, "Method not allowed", "This address takes a screen's report of what it showed, by POST.",
                extra: [("Allow", "POST")]))
    }
}
