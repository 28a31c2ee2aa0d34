import FeedCore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import WebUI

/// Methods, errors, malformed requests, headers, caching: through real sockets.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct HTTPBehaviourTests {
    let server: TestServer

    init() throws {
        server = try TestServer(document: NewswireFeed.document(count: 5), frameAncestors: "https://tv.example")
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
    func otherMethodsGet405(method: String) async throws {
        let response = try await HTTPTestClient.get(port: server.port, "/", method: method)
        #expect(response.status == 405)
        #expect(response.headers["allow"] == "GET, HEAD")
        #expect(response.text.contains("Method not allowed"))
    }

    @Test func headHasTheHeadersAndNoBody() async throws {
        let get = try await HTTPTestClient.get(port: server.port, "/")
        let head = try await HTTPTestClient.get(port: server.port, "/", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["content-length"] == String(get.body.count))
        #expect(head.headers["content-type"] == get.headers["content-type"])
    }

    @Test(arguments: ["/nope", "/items/does-not-exist", "/items/", "/static/nope.css", "/api/nope"])
    func unknownPathsGetA404Page(path: String) async throws {
        let response = try await HTTPTestClient.get(port: server.port, path)
        #expect(response.status == 404)
        #expect(response.text.contains("Not found"))
        #expect(try await HTMLChecker.parse(response.text).errors.isEmpty)
    }

    @Test func unknownAPIItemGetsJSON404() async throws {
        let response = try await HTTPTestClient.get(port: server.port, "/api/items/does-not-exist")
        #expect(response.status == 404)
        #expect(response.headers["content-type"] == "application/json")
    }

    @Test func malformedRequestsGet400() async throws {
        // HTTP/1.1 without Host.
        let noHost = try await HTTPTestClient.raw(port: server.port, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(noHost.status == 400)
        // A header line without a colon.
        let noColon = try await HTTPTestClient.raw(
            port: server.port, "GET / HTTP/1.1\r\nHost: x\r\nThis line has no colon\r\nConnection: close\r\n\r\n")
        #expect(noColon.status == 400)
    }

    @Test func oversizedRequestsGet4xx() async throws {
        let longURL = try await HTTPTestClient.raw(
            port: server.port, "GET /" + String(repeating: "a", count: 64 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect((400..<500).contains(longURL.status))
        let bigHeader = try await HTTPTestClient.raw(
            port: server.port,
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 64 * 1024) + "\r\n\r\n")
        #expect((400..<500).contains(bigHeader.status))
        // The server is still fine afterwards.
        #expect(try await HTTPTestClient.get(port: server.port, "/healthz").status == 200)
    }

    /// A request of exactly `bytes` bytes of head (request line, headers, blank line),
    /// padded with a cookie, as a browser with many cookies sends.
    private func request(path: String, headBytes bytes: Int) -> String {
        let start = "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: c="
        let end = "\r\n\r\n"
        return start + String(repeating: "a", count: bytes - start.utf8.count - end.utf8.count) + end
    }

    /// The status of the answer to `request` (only the head is read: streams do not end).
    private func status(of request: String) async throws -> Int {
        let socket = try await RawSocket(port: server.port, timeout: 5)
        try await socket.send(request)
        return try await HTTPTestClient.readHead(from: socket).status
    }

    @Test(arguments: ["/", "/healthz", "/events"])
    func requestHeadsUpToTheLimitAreServedAndLongerOnesGet431(path: String) async throws {
        let limit = server.server.configuration.maxRequestHeadBytes
        // A full page's response headers (the CSP) must still fit beside the longest head.
        #expect(try await status(of: request(path: path, headBytes: limit)) == 200)
        // Just past it, up to where libmicrohttpd used to close the connection without an
        // answer: a 431, every 50 bytes.
        for bytes in stride(from: limit + 1, through: limit + 200, by: 50) {
            #expect(try await status(of: request(path: path, headBytes: bytes)) == 431, "head of \(bytes) bytes")
        }
        #expect(try await HTTPTestClient.get(port: server.port, "/healthz").status == 200)
    }

    @Test(arguments: ["/", "/kiosk", "/static/style.css", "/nope"])
    func securityHeadersOnEveryResponse(path: String) async throws {
        let response = try await HTTPTestClient.get(port: server.port, path)
        let csp = try #require(response.headers["content-security-policy"])
        #expect(csp.contains("script-src 'self'"))
        #expect(!csp.contains("unsafe-inline"))
        #expect(csp.contains("frame-ancestors https://tv.example"))
        #expect(response.headers["x-content-type-options"] == "nosniff")
        // Feed pages link to other sites: no referrer leaks where the reader came from.
        #expect(response.headers["referrer-policy"] == "no-referrer")
    }

    @Test func pagesAreRenderedOncePerChange() async throws {
        let before = server.handlers.pages.cache.renderCount
        for _ in 0..<25 { _ = try await HTTPTestClient.get(port: server.port, "/") }
        #expect(server.handlers.pages.cache.renderCount == before + 1)
        // A change makes the next request render again, once.
        var document = NewswireFeed.document(count: 6)
        if case .object(var object) = document {
            object["num_results"] = .int(1000)
            document = .object(object)
        }
        server.store.replaceDocument(document)
        for _ in 0..<25 { _ = try await HTTPTestClient.get(port: server.port, "/") }
        #expect(server.handlers.pages.cache.renderCount == before + 2)
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        let socket = try await RawSocket(port: server.port)
        for _ in 0..<20 {
            try await socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await HTTPTestClient.readResponse(from: socket, method: "GET")
            #expect(response.status == 200)
            #expect(response.headers["connection"]?.lowercased() != "close")
        }
    }

    /// The stories the server was given (`NewswireFeed.document(count: 5)`), as the test
    /// built them.
    private var stories: [JSONValue] { (0..<5).reversed().map { NewswireFeed.story($0) } }

    @Test func listOffersEverySectionAsAFilter() async throws {
        let page = try await HTMLChecker.parse(try await HTTPTestClient.get(port: server.port, "/").text)
        // Stories 0…4 cycle through World, Arts, Science, Business (and World again).
        let sections = Set(stories.compactMap { $0["section"]?.stringValue })
        #expect(sections == ["World", "Arts", "Science", "Business"])
        let hrefs = Set(page.values(of: "href").filter { $0.hasPrefix("/?section=") })
        #expect(hrefs == Set(sections.map { "/?section=" + $0 }), "one filter link per section, no other")
        // A filtered list shows exactly that section's stories, in feed order.
        let filtered = try await HTTPTestClient.get(port: server.port, "/?section=World").text
        #expect(HTMLText.storyTitles(in: filtered) == ["Story number 4", "Story number 0"])
    }

    @Test func detailShowsRelatedLinksAndTheOriginal() async throws {
        let story = NewswireFeed.story(3)
        let url = try #require(story["url"]?.stringValue)
        // The key is found by the story's URL in the API; the page is checked against the
        // story as the test built it.
        let items = try JSONValue(parsing: try await HTTPTestClient.get(port: server.port, "/api/items").body)
        let key = try #require(items.arrayValue?.first { $0["url"]?.stringValue == url }?["key"]?.stringValue)
        let page = try await HTMLChecker.parse(try await HTTPTestClient.get(port: server.port, "/items/" + key).text)
        let hrefs = page.values(of: "href")
        #expect(hrefs.contains("https://example.org/3"), "the related link")
        #expect(hrefs.contains(url), "a link to the original article")
        #expect(page.text.contains("Related"))
        #expect(page.text.contains("Background"), "the related link's text")
    }

    @Test func everyPageIsWellFormedHTML5() async throws {
        let key = try #require(server.store.snapshot?.published.items.first?.key)
        for path in ["/", "/kiosk", "/?section=Arts", "/kiosk?section=Arts", "/items/" + key, "/nope"] {
            let response = try await HTTPTestClient.get(port: server.port, path)
            let parsed = try await HTMLChecker.parse(response.text)
            #expect(parsed.errors.isEmpty, "\(path): \(parsed.errors.prefix(3))")
        }
        let notAllowed = try await HTTPTestClient.get(port: server.port, "/", method: "POST")
        #expect(try await HTMLChecker.parse(notAllowed.text).errors.isEmpty)
    }
}
