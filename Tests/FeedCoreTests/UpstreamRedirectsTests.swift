import Foundation
import Testing

@testable import FeedCore

/// Following redirects without I/O: where each answer leads, how many are followed, and
/// which configured headers go where (the SSE and polling transports share this).
@Suite("Upstream redirects")
struct UpstreamRedirectsTests {
    static let headers: [(name: String, value: String)] = [
        ("Authorization", "Bearer t"), ("Cookie", "c=1"), ("Proxy-Authorization", "p"), ("X-Client", "feedweb"),
    ]

    @Test("relative and absolute Locations; five are followed, a sixth is an error")
    func follows() throws {
        var redirects = UpstreamRedirects(start: try #require(URL(string: "http://a.example/feed?x=1")))
        try redirects.follow(status: 302, location: "/next")
        #expect(redirects.url.absoluteString == "http://a.example/next")
        try redirects.follow(status: 307, location: "other?y=2")
        #expect(redirects.url.absoluteString == "http://a.example/other?y=2")
        for status in [301, 303, 308] { try redirects.follow(status: status, location: "/hop\(status)") }
        #expect(redirects.hops == 5)
        #expect(throws: UpstreamError.tooManyRedirects) { try redirects.follow(status: 302, location: "/sixth") }
    }

    @Test("a redirect without a Location, or to a URL that is not http(s), is an error")
    func badLocations() throws {
        var redirects = UpstreamRedirects(start: try #require(URL(string: "https://a.example/feed")))
        #expect(throws: UpstreamError.redirectWithoutLocation(status: 301)) {
            try redirects.follow(status: 301, location: nil)
        }
        #expect(throws: UpstreamError.redirectWithoutLocation(status: 302)) {
            try redirects.follow(status: 302, location: "")
        }
        #expect(throws: UpstreamError.invalidURL("ftp://a.example/x")) {
            try redirects.follow(status: 302, location: "ftp://a.example/x")
        }
        #expect(redirects.hops == 0)
    }

    @Test("credentials go only to the configured origin: scheme, host and port")
    func credentials() throws {
        var redirects = UpstreamRedirects(start: try #require(URL(string: "https://a.example/feed")))
        #expect(redirects.headers(Self.headers).map(\.name) == Self.headers.map(\.name))
        try redirects.follow(status: 302, location: "https://a.example:443/same")
        #expect(redirects.headers(Self.headers).count == 4, "the default port is the same origin")
        for other in ["http://a.example/x", "https://b.example/x", "https://a.example:8443/x"] {
            var away = UpstreamRedirects(start: try #require(URL(string: "https://a.example/feed")))
            try away.follow(status: 302, location: other)
            #expect(away.headers(Self.headers).map(\.name) == ["X-Client"], "\(other)")
            try away.follow(status: 302, location: "https://a.example/back")
            #expect(away.headers(Self.headers).count == 4, "back on the origin")
        }
    }

    @Test("a POSTed body is kept across 307 and 308, and dropped (a GET) by 301, 302 and 303")
    func bodies() throws {
        let start = try #require(URL(string: "https://a.example/graphql"))
        for (status, kept) in [(307, true), (308, true), (301, false), (302, false), (303, false)] {
            var redirects = UpstreamRedirects(start: start, body: #"{"query":"{ builds { id } }"}"#)
            try redirects.follow(status: status, location: "/v2/graphql")
            #expect((redirects.body != nil) == kept, "\(status)")
        }
        var get = UpstreamRedirects(start: start)
        try get.follow(status: 307, location: "/v2")
        #expect(get.body == nil)
    }
}
