import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// CORS (`--allow-origin`) over real sockets, against the real router and libmicrohttpd: an
/// allowed origin reads the streams and the API (its origin echoed, `Vary: Origin`,
/// feedweb's headers exposed), a preflight is answered, a refused origin and the pages get
/// no `Access-Control-*` header, and without the option nothing at all changes.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct CrossOriginTests {
    static let allowed = "http://app.example:8000"
    static let refused = "http://evil.example"

    static func server(allowing origins: [String]) throws -> TestServer {
        try TestServer(
            document: NewswireFeed.document(count: 4), allowedOrigins: try AllowedOrigins(parsing: origins))
    }

    /// The paths CORS covers that answer at once (the streams are read for their head).
    static let answeredPaths = ["/api/state", "/api/items", "/api/stats", "/api/changes?since=0-0", "/api/items/nope"]
    static let streamPaths = ["/events", "/events/items", "/events/page?v=list"]
    /// Pages and the rest: never a CORS header.
    static let otherPaths = ["/", "/kiosk", "/stats", "/healthz", "/readyz", "/metrics", "/static/app.js"]

    /// The head of `GET path` (a stream's head only) with `headers`.
    static func head(port: UInt16, _ path: String, headers: [String: String]) async throws -> (
        status: Int, headers: [String: String]
    ) {
        if streamPaths.contains(path) {
            let stream = try await SSETestClient(port: port, path: path, headers: headers)
            defer { stream.close() }
            return (stream.status, stream.headers)
        }
        let response = try await HTTPTestClient.get(port: port, path, headers: headers)
        return (response.status, response.headers)
    }

    static func corsHeaders(_ headers: [String: String]) -> [String: String] {
        headers.filter { $0.key.hasPrefix("access-control-") }
    }

    static func exposed(_ headers: [String: String]) -> Set<String> {
        Set(
            (headers["access-control-expose-headers"] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            })
    }

    @Test(
        "an allowed origin gets its origin echoed, Vary: Origin and feedweb's headers exposed on the streams and the API"
    )
    func allowedOriginOnStreamsAndAPI() async throws {
        let server = try Self.server(allowing: [Self.allowed, "https://other.example"])
        for path in Self.answeredPaths + Self.streamPaths {
            let (status, headers) = try await Self.head(port: server.port, path, headers: ["Origin": Self.allowed])
            #expect(status < 500, "\(path): \(status)")
            #expect(headers["access-control-allow-origin"] == Self.allowed, "\(path): \(headers)")
            #expect(headers["vary"] == "Origin", "\(path)")
            #expect(
                Self.exposed(headers).isSuperset(of: ["etag", "x-feedweb-event-id", "x-feedweb-event-time"]), "\(path)")
            #expect(
                headers["access-control-allow-credentials"] == "true",
                "\(path): credentials for a named origin (htmx's EventSource asks with them)")
        }
        // A HEAD on a stream, and the other allowed origin.
        let head = try await HTTPTestClient.get(
            port: server.port, "/events", method: "HEAD", headers: ["Origin": "https://other.example"])
        #expect(head.status == 200)
        #expect(head.headers["access-control-allow-origin"] == "https://other.example")
    }

    @Test("every header of an API answer a script may need is exposed (the expose list names real headers)")
    func exposedHeadersCoverWhatTheAPISends() async throws {
        let server = try Self.server(allowing: [Self.allowed])
        let state = try await HTTPTestClient.get(port: server.port, "/api/state", headers: ["Origin": Self.allowed])
        let etag = try #require(state.headers["etag"])
        let id = etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        let past = try await HTTPTestClient.get(
            port: server.port, "/api/state?at=\(id)", headers: ["Origin": Self.allowed])
        #expect(past.status == 200)
        #expect(past.headers["x-feedweb-event-id"] == id)
        // What a browser lets a script read anyway, and what is for the browser itself.
        let notForScripts: Set<String> = [
            "cache-control", "content-language", "content-length", "content-type", "expires", "last-modified",
            "pragma", "content-security-policy", "x-content-type-options", "referrer-policy", "vary", "date",
            "connection", "keep-alive", "transfer-encoding",
        ]
        for response in [state, past] {
            let told = Set(response.headers.keys).subtracting(notForScripts).filter {
                !$0.hasPrefix("access-control-")
            }
            #expect(told.isSubset(of: Self.exposed(response.headers)), "not exposed: \(told)")
        }
        // A 304 to a conditional request carries them too (a page revalidating its copy).
        let notModified = try await HTTPTestClient.get(
            port: server.port, "/api/state", headers: ["Origin": Self.allowed, "If-None-Match": etag])
        #expect(notModified.status == 304)
        #expect(notModified.headers["access-control-allow-origin"] == Self.allowed)
    }

    @Test("with *, any origin gets * (and no credentials)")
    func anyOrigin() async throws {
        let server = try Self.server(allowing: ["*"])
        for path in ["/api/state", "/events", "/events/items"] {
            let (_, headers) = try await Self.head(port: server.port, path, headers: ["Origin": "https://any.example"])
            #expect(headers["access-control-allow-origin"] == "*", "\(path)")
            #expect(headers["access-control-allow-credentials"] == nil, "\(path)")
        }
        let preflight = try await HTTPTestClient.get(
            port: server.port, "/events", method: "OPTIONS",
            headers: ["Origin": "null", "Access-Control-Request-Method": "GET"])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "*")
    }

    @Test("a preflight for GET with Last-Event-ID is answered 204 with what feedweb allows")
    func preflightAnswered() async throws {
        let server = try Self.server(allowing: [Self.allowed])
        for path in ["/events", "/events/items", "/events/page", "/api/state", "/api/items/anything"] {
            for method in ["GET", "HEAD"] {
                let response = try await HTTPTestClient.get(
                    port: server.port, path, method: "OPTIONS",
                    headers: [
                        "Origin": Self.allowed, "Access-Control-Request-Method": method,
                        "Access-Control-Request-Headers": "last-event-id, x-something-else",
                    ])
                #expect(response.status == 204, "\(path) \(method)")
                #expect(response.headers["access-control-allow-origin"] == Self.allowed)
                #expect(response.headers["access-control-allow-methods"] == "GET, HEAD")
                let allowedHeaders = Set(
                    (response.headers["access-control-allow-headers"] ?? "").split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespaces).lowercased()
                    })
                #expect(allowedHeaders.contains("last-event-id"))
                #expect(!allowedHeaders.contains("x-something-else"), "only what feedweb allows")
                #expect(response.headers["access-control-max-age"] == "600")
                #expect(response.headers["vary"] == "Origin")
                #expect(response.headers["access-control-allow-credentials"] == "true", "a named origin")
                #expect(allowedHeaders.isSuperset(of: ["datastar-request", "content-type"]), "Datastar's @get")
                #expect(response.body.isEmpty)
            }
        }
    }

    @Test(
        "any other OPTIONS is the 405 of every other method, without a CORS header",
        arguments: [
            ("/events", ["Origin": CrossOriginTests.refused, "Access-Control-Request-Method": "GET"]),
            ("/events", ["Origin": CrossOriginTests.allowed, "Access-Control-Request-Method": "POST"]),
            ("/events", ["Origin": CrossOriginTests.allowed]),
            ("/api/state", ["Access-Control-Request-Method": "GET"]),
            ("/", ["Origin": CrossOriginTests.allowed, "Access-Control-Request-Method": "GET"]),
            ("/kiosk", ["Origin": CrossOriginTests.allowed, "Access-Control-Request-Method": "GET"]),
        ] as [(String, [String: String])])
    func otherOptionsAre405(path: String, headers: [String: String]) async throws {
        let server = try Self.server(allowing: [Self.allowed])
        let response = try await HTTPTestClient.get(port: server.port, path, method: "OPTIONS", headers: headers)
        #expect(response.status == 405)
        #expect(response.headers["allow"] == "GET, HEAD")
        #expect(Self.corsHeaders(response.headers).isEmpty, "\(response.headers)")
    }

    @Test("a refused origin gets the usual answer without any Access-Control header")
    func refusedOrigin() async throws {
        let server = try Self.server(allowing: [Self.allowed])
        for origin in [Self.refused, "null", "http://app.example", "https://app.example:8000", "not an origin"] {
            for path in Self.answeredPaths + Self.streamPaths {
                let (status, headers) = try await Self.head(port: server.port, path, headers: ["Origin": origin])
                #expect(status < 500, "\(path)")
                #expect(Self.corsHeaders(headers).isEmpty, "\(origin) on \(path): \(headers)")
            }
        }
        let state = try await HTTPTestClient.get(port: server.port, "/api/state", headers: ["Origin": Self.refused])
        #expect(state.status == 200)
        #expect(try JSONValue(parsing: state.body) == NewswireFeed.document(count: 4), "the usual answer")
        #expect(state.headers["vary"] == "Origin", "a cache keeps it apart from an allowed origin's")
    }

    @Test("an origin compares by scheme, host in any case and port, a default port as none")
    func originComparison() async throws {
        let server = try Self.server(allowing: ["HTTP://App.Example:8000", "https://secure.example:443"])
        for (origin, allowed) in [
            ("http://app.example:8000", true), ("https://secure.example", true), ("http://APP.example:8000", true),
            ("http://app.example", false), ("https://app.example:8000", false), ("http://secure.example", false),
        ] {
            let response = try await HTTPTestClient.get(port: server.port, "/api/items", headers: ["Origin": origin])
            #expect(
                (response.headers["access-control-allow-origin"] == origin) == allowed, "\(origin): \(response.headers)"
            )
        }
    }

    @Test("the pages and the rest never get a CORS header, even from an allowed origin")
    func pagesGetNone() async throws {
        let server = try Self.server(allowing: [Self.allowed, "*"])
        for path in Self.otherPaths {
            let response = try await HTTPTestClient.get(port: server.port, path, headers: ["Origin": Self.allowed])
            #expect(response.status == 200, "\(path)")
            #expect(Self.corsHeaders(response.headers).isEmpty, "\(path): \(response.headers)")
            #expect(response.headers["vary"] == nil, "\(path)")
        }
    }

    @Test("headers of one request never reach another's answer, though the answer is shared")
    func sharedAnswersKeepTheirOwnHeaders() async throws {
        let server = try Self.server(allowing: [Self.allowed, "https://other.example"])
        for _ in 0..<3 {
            let first = try await HTTPTestClient.get(port: server.port, "/api/state", headers: ["Origin": Self.allowed])
            let plain = try await HTTPTestClient.get(port: server.port, "/api/state")
            let other = try await HTTPTestClient.get(
                port: server.port, "/api/state", headers: ["Origin": "https://other.example"])
            #expect(first.headers["access-control-allow-origin"] == Self.allowed)
            #expect(Self.corsHeaders(plain.headers).isEmpty, "\(plain.headers)")
            #expect(other.headers["access-control-allow-origin"] == "https://other.example")
            #expect(first.body == plain.body && plain.body == other.body, "the same shared body")
            #expect(first.headers["etag"] == plain.headers["etag"])
        }
    }

    @Test("a stream refused at the limit carries the allowed origin's headers, so the page can read the 503")
    func refusedStreamIsReadable() async throws {
        let server = try TestServer(
            document: NewswireFeed.document(count: 2), maxStreams: 1,
            allowedOrigins: try AllowedOrigins(parsing: [Self.allowed]))
        let first = try await SSETestClient(port: server.port, path: "/events", headers: ["Origin": Self.allowed])
        defer { first.close() }
        let second = try await HTTPTestClient.get(port: server.port, "/events", headers: ["Origin": Self.allowed])
        #expect(second.status == 503)
        #expect(second.headers["retry-after"] == "5")
        #expect(second.headers["access-control-allow-origin"] == Self.allowed)
        let third = try await HTTPTestClient.get(port: server.port, "/events", headers: ["Origin": Self.refused])
        #expect(third.status == 503)
        #expect(Self.corsHeaders(third.headers).isEmpty)
    }

    @Test("without --allow-origin: no Access-Control header and no Vary on any path, and OPTIONS is 405")
    func noneByDefault() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 4))
        for origin in [Self.allowed, "null", "*"] {
            for path in Self.answeredPaths + Self.streamPaths + Self.otherPaths {
                let (_, headers) = try await Self.head(port: server.port, path, headers: ["Origin": origin])
                #expect(Self.corsHeaders(headers).isEmpty, "\(path): \(headers)")
                #expect(headers["vary"] == nil, "\(path)")
            }
        }
        for path in ["/events", "/events/items", "/events/page", "/api/state"] {
            let preflight = try await HTTPTestClient.get(
                port: server.port, path, method: "OPTIONS",
                headers: [
                    "Origin": Self.allowed, "Access-Control-Request-Method": "GET",
                    "Access-Control-Request-Headers": "last-event-id",
                ])
            #expect(preflight.status == 405, "\(path)")
            #expect(Self.corsHeaders(preflight.headers).isEmpty)
        }
    }
}
