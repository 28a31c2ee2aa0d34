/// The headers every response of a kind carries.
enum ResponseHeaders {
    /// Security headers for every response: a strict CSP (no inline script), who may frame
    /// the pages, no MIME sniffing, no referrer leaks to feed links.
    static func security(frameAncestors: String) -> [(String, String)] {
        [
            (
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: http:; "
                    + "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
                    + "frame-ancestors \(frameAncestors)"
            ),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ]
    }

    /// Headers of an HTML page.
    static func html(security: [(String, String)]) -> [(String, String)] {
        [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")] + security
    }

    /// Headers of a JSON response.
    static func json(security: [(String, String)]) -> [(String, String)] {
        [("Content-Type", "application/json"), ("Cache-Control", "no-cache")] + security
    }

    /// Headers of an SSE stream: exactly the three the contract lists.
    ///
    /// libmicrohttpd copies every header into each stream's own response, three small
    /// allocations per header (~128 B of RSS per client each), so a stream carries none of
    /// the page security headers: a CSP and a referrer policy govern documents, which an
    /// event stream never is, and `nosniff` guards against a browser sniffing an untyped or
    /// `text/plain` body into HTML or script, which a body declared `text/event-stream` is
    /// not sniffed into. At 10,000 clients those four headers would take ~6 MB.
    static var eventStream: [(String, String)] {
        [
            ("Content-Type", "text/event-stream; charset=utf-8"),
            ("Cache-Control", "no-cache"),
            ("X-Accel-Buffering", "no"),
        ]
    }
}
