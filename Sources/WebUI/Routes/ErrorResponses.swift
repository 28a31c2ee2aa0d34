import FeedCore

/// The answers that never change: the error pages, the JSON 404 of the API, and the 503
/// for a stream refused. Built once at start and shared by every request that gets one.
struct ErrorResponses: Sendable {
    /// 404, an HTML page: nothing at this address.
    let notFound: PreparedResponse
    /// 400, an HTML page: a malformed request (a control character in the path, an unknown
    /// page-stream view).
    let badRequest: PreparedResponse
    /// 400, an HTML page naming the page stream's dialects: a `dialect` that is not one.
    let badDialect: PreparedResponse
    /// 404 as JSON, for `/api/*`.
    let notFoundJSON: PreparedResponse
    /// 405 with `Allow: GET, HEAD`, an HTML page.
    let methodNotAllowed: PreparedResponse
    /// 503 as JSON with `Retry-After: 5`: a stream refused at `--max-clients` or during
    /// shutdown.
    let tooManyStreams: PreparedResponse

    /// Renders the pages with `renderer` and sends them with `htmlHeaders`; the JSON
    /// answers go with `jsonHeaders`.
    init(renderer: PageRenderer, htmlHeaders: [(String, String)], jsonHeaders: [(String, String)]) {
        func page(_ status: UInt32, _ heading: String, _ message: String, extra: [(String, String)] = [])
            -> PreparedResponse
        {
            let body = renderer.error(code: Int(status), heading: heading, message: message)
            return .fixed(status: status, body: body, headers: htmlHeaders + extra)
        }
        func json(_ status: UInt32, error: String, extra: [(String, String)] = []) -> PreparedResponse {
            .fixed(
                status: status, body: JSONValue.object(["error": .string(error)]).serializedBytes(),
                headers: jsonHeaders + extra)
        }
        notFound = page(404, "Not found", "There is nothing at this address. The story may have left the feed.")
        badRequest = page(400, "Bad request", "The request was malformed.")
        badDialect = page(
            400, "Bad parameter: dialect",
            "dialect must be \(PageDialect.parameterValues); without it, the page stream speaks feedweb's own events.")
        notFoundJSON = json(404, error: "not found")
        methodNotAllowed = page(
            405, "Method not allowed", "feedweb only answers GET and HEAD.", extra: [("Allow", "GET, HEAD")])
        tooManyStreams = json(503, error: "too many streams; retry later", extra: [("Retry-After", "5")])
    }
}
