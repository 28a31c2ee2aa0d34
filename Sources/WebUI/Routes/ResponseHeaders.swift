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

    /// Headers of an SSE stream, as the contract lists them, and `nosniff`.
    ///
    /// Not the page security headers: a CSP and a referrer policy govern documents, and an
    /// event stream is never rendered as one (`nosniff` keeps a browser from trying). libmicrohttpd
    /// copies every header into each stream's own response, so the CSP's ~250 bytes would
    /// cost ~2.5 MB at 10,000 clients.
    static var eventStream: [(String, String)] {
        [
            ("Content-Type", "text/event-stream; charset=utf-8"),
            ("Cache-Control", "no-cache"),
            ("X-Accel-Buffering", "no"),
            ("X-Content-Type-Options", "nosniff"),
        ]
    }
}
