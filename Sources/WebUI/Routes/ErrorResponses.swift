import FeedCore
import NIOConcurrencyHelpers

/// The answers that change only with the templates: the error pages, the JSON 404 of the
/// API, and the 503 for a stream refused. Built at start, built again when the templates
/// are reloaded (``render(with:)``), and shared by every request that gets one. The error
/// pages are built in the words of each layout (a news feed's "latest stories", a table's
/// "items"), and each request gets those of the feed's layout at that moment.
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
    /// The feed's layout now.
    private let layout: @Sendable () -> ItemProfile.Layout
    /// The pages as last rendered, for a news feed and for a table. A leaf lock; pages are
    /// rendered outside it.
    private let pages: NIOLockedValueBox<(news: Pages, table: Pages)>

    /// 404, an HTML page: nothing at this address.
    var notFound: PreparedResponse { current.notFound }
    /// 400, an HTML page: a malformed request (a control character in the path, an unknown
    /// page-stream view).
    var badRequest: PreparedResponse { current.badRequest }
    /// 400, an HTML page naming the page stream's dialects: a `dialect` that is not one.
    var badDialect: PreparedResponse { current.badDialect }
    /// 405 with `Allow: GET, HEAD`, an HTML page.
    var methodNotAllowed: PreparedResponse { current.methodNotAllowed }
    /// 405 with `Allow: POST`, an HTML page: for `/screens/shown`, which takes reports only.
    var postOnly: PreparedResponse { current.postOnly }

    /// The pages in the words of the feed's layout now.
    private var current: Pages {
        let layout = layout()
        return pages.withLockedValue { layout == .table ? $0.table : $0.news }
    }

    /// Renders the pages with `renderer` and sends them with `htmlHeaders`; the JSON
    /// answers go with `jsonHeaders`. `layout` tells the feed's layout when a page is asked
    /// for (it takes no lock of this object's).
    init(
        renderer: PageRenderer, htmlHeaders: [(String, String)], jsonHeaders: [(String, String)],
        layout: @escaping @Sendable () -> ItemProfile.Layout = { .news }
    ) {
        func json(_ status: UInt32, error: String, extra: [(String, String)] = []) -> PreparedResponse {
            .fixed(
                status: status, body: JSONValue.object(["error": .string(error)]).serializedBytes(),
                headers: jsonHeaders + extra)
        }
        self.htmlHeaders = htmlHeaders
        self.layout = layout
        notFoundJSON = json(404, error: "not found")
        tooManyStreams = json(503, error: "too many streams; retry later", extra: [("Retry-After", "5")])
        pages = NIOLockedValueBox(Self.pages(renderer, htmlHeaders: htmlHeaders))
    }

    /// Renders the pages again with `renderer` (new templates).
    func render(with renderer: PageRenderer) {
        let fresh = Self.pages(renderer, htmlHeaders: htmlHeaders)
        pages.withLockedValue { $0 = fresh }
    }

    private static func pages(_ renderer: PageRenderer, htmlHeaders: [(String, String)]) -> (news: Pages, table: Pages)
    {
        (
            pages(renderer, htmlHeaders: htmlHeaders, layout: .news),
            pages(renderer, htmlHeaders: htmlHeaders, layout: .table)
        )
    }

    private static func pages(_ renderer: PageRenderer, htmlHeaders: [(String, String)], layout: ItemProfile.Layout)
        -> Pages
    {
        func page(_ status: UInt32, _ heading: String, _ message: String, extra: [(String, String)] = [])
            -> PreparedResponse
        {
            let body = renderer.error(code: Int(status), heading: heading, message: message, layout: layout)
            return .fixed(status: status, body: body, headers: htmlHeaders + extra)
        }
        let gone = layout == .table ? "The item may have left the feed." : "The story may have left the feed."
        return Pages(
            notFound: page(404, "Not found", "There is nothing at this address. " + gone),
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
