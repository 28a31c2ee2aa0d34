import Foundation

/// Following redirects for one attempt, without I/O (in the manner of AsyncHTTPClient's
/// `RedirectState`): which headers go to the URL asked now, and where an answer leads.
///
/// Invariants: at most ``limit`` redirects are followed in a row; every URL asked is an
/// absolute http(s) URL with a host; configured `Authorization`, `Proxy-Authorization` and
/// `Cookie` headers go only to the configured URL's origin (scheme, host and port), as curl
/// and browsers do, so credentials meant for upstream never reach a third party. A request
/// with a body (a POSTed poll, `--poll-body`) keeps it across 307 and 308, which repeat the
/// request as it was; 301, 302 and 303 turn it into a GET without one, as browsers and curl do.
struct UpstreamRedirects: Sendable {
    /// The most redirects followed in a row.
    static let limit = 5
    /// Request headers that are not forwarded across origins.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The URL to ask now.
    private(set) var url: URL
    /// Redirects followed so far.
    private(set) var hops = 0
    /// The body to POST to ``url``; `nil`: a GET.
    private(set) var body: String?
    private let origin: String

    init(start: URL, body: String? = nil) {
        url = start
        self.body = body
        origin = UpstreamEndpoint.origin(of: start)
    }

    /// Whether `status` is a redirect this follows.
    static func isRedirect(_ status: Int) -> Bool {
        [301, 302, 303, 307, 308].contains(status)
    }

    /// Which of `configured` may be sent to ``url``: all of them on the configured origin,
    /// all but the credentials elsewhere.
    func headers(_ configured: [(name: String, value: String)]) -> [(name: String, value: String)] {
        guard UpstreamEndpoint.origin(of: url) != origin else { return configured }
        return configured.filter { !Self.credentialHeaders.contains($0.name.lowercased()) }
    }

    /// Upstream answered the redirect `status` with `location` (relative or absolute):
    /// moves ``url`` there. Throws when there is no `Location`, when it is not an http(s)
    /// URL, or when it would be one redirect too many.
    mutating func follow(status: Int, location: String?) throws(UpstreamError) {
        guard let location, !location.isEmpty else { throw .redirectWithoutLocation(status: status) }
        guard hops < Self.limit else { throw .tooManyRedirects }
        guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
            let checked = UpstreamEndpoint.absoluteURL(
                next.absoluteString, schemes: UpstreamEndpoint.Transport.http.schemes)
        else { throw .invalidURL(location) }
        hops += 1
        url = checked
        if status != 307 && status != 308 { body = nil }
    }
}
