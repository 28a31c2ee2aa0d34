import FeedCore
import Foundation
import TestSupport
import Testing

/// Redirects as a real upstream connection follows them, against a scripted server: the
/// hops, the headers sent on each, and the errors. The rules alone, without I/O:
/// ``UpstreamRedirectsTests``.
@Suite("Upstream connection: redirects", .serialized, .onThreadsOfItsOwn)
struct UpstreamConnectionRedirectTests {
    private static let data = SSEText.event("data", data: Upstream.document(1))

    @Test("up to 5 redirects are followed (every kind, relative and absolute Locations), with the headers")
    func fiveRedirects() async throws {
        let server = try await ScriptedSSEServer.start { request in
            switch request.path {
            case "/feed": return .redirect(301, to: "/r1")
            case "/r1": return .redirect(302, to: "r2")
            case "/r2":
                return .redirect(
                    303, to: "http://127.0.0.1:\(request.header("Host")?.split(separator: ":").last ?? "")/r3")
            case "/r3": return .redirect(307, to: "/r4?q=1")
            case "/r4": return .redirect(308, to: "/final")
            case "/final": return .events(Self.data, ending: .stayOpen)
            default: return .status(404)
            }
        }
        let configuration = UpstreamConfiguration(
            url: server.url("/feed"), headers: [("Authorization", "Bearer t"), ("X-Sd-Token", "k")])
        try await Upstream.run(on: server, configuration: configuration) { harness in
            try await harness.waitUntil("the document") { harness.document != nil }
            let requests = server.requests
            #expect(requests.map(\.uri) == ["/feed", "/r1", "/r2", "/r3", "/r4?q=1", "/final"])
            for request in requests {
                #expect(
                    request.header("Accept") == "text/event-stream, application/x-ndjson;q=0.9, application/json;q=0.8")
                #expect(request.header("Authorization") == "Bearer t", "same origin: credentials kept")
                #expect(request.header("X-Sd-Token") == "k")
            }
            #expect(harness.status.lastError == nil)
            #expect(harness.status.reconnects == 0)
        }
    }

    @Test("a 6th redirect in a row is an error; the next attempt starts from the configured URL")
    func sixRedirects() async throws {
        let server = try await ScriptedSSEServer.start { request in
            let path = request.path
            if path == "/feed" { return .redirect(302, to: "/r1") }
            if path.hasPrefix("/r"), let n = Int(path.dropFirst(2)) { return .redirect(302, to: "/r\(n + 1)") }
            return .status(404)
        }
        let configuration = UpstreamConfiguration(url: server.url("/feed"), maxBackoff: .milliseconds(200))
        try await Upstream.run(on: server, configuration: configuration) { harness in
            let requests = try await server.waitForRequests(8)
            // The configured URL and 5 redirects followed; the 6th Location (/r6) is not.
            #expect(requests.prefix(7).map(\.path) == ["/feed", "/r1", "/r2", "/r3", "/r4", "/r5", "/feed"])
            #expect(!requests.contains { $0.path == "/r6" })
            #expect(harness.status.lastError == "more than 5 redirects")
        }
    }

    @Test("a redirect without a Location is an error", arguments: [301, 302, 303, 307, 308])
    func redirectWithoutLocation(code: Int) async throws {
        try await Upstream.run(
            [.redirect(code, to: nil)], then: .events(Self.data, ending: .stayOpen)
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            #expect(requests.map(\.path) == ["/feed", "/feed"])
            try await upstream.waitUntil("the document") { upstream.document != nil }
            #expect(upstream.status.lastError == "upstream answered redirect \(code) without a Location")
        }
    }

    @Test("a redirect to a Location that is not http(s) is an error")
    func redirectToOtherScheme() async throws {
        try await Upstream.run(
            [.redirect(302, to: "ftp://127.0.0.1/feed")], then: .events(Self.data, ending: .stayOpen)
        ) { server, upstream in
            try await server.waitForRequests(2)
            try await upstream.waitUntil("the document") { upstream.document != nil }
            #expect(upstream.status.lastError?.contains("not an absolute http(s) URL") == true)
        }
    }

    @Test("a redirect to another origin drops Authorization and Cookie but keeps the other headers")
    func crossOriginRedirect() async throws {
        let target = try await ScriptedSSEServer.start(script: [.events(Self.data, ending: .stayOpen)])
        defer { target.shutdownNow() }
        let origin = try await ScriptedSSEServer.start(script: [.redirect(307, to: target.url("/elsewhere"))])
        let configuration = UpstreamConfiguration(
            url: origin.url("/feed"),
            headers: [("Authorization", "Bearer secret"), ("Cookie", "session=1"), ("X-Api-Key", "k")])
        try await Upstream.run(on: origin, configuration: configuration) { harness in
            try await harness.waitUntil("the document") { harness.document != nil }
            let first = try #require(origin.requests.first)
            #expect(first.header("Authorization") == "Bearer secret")
            #expect(first.header("Cookie") == "session=1")
            let moved = try #require(target.requests.first)
            #expect(moved.path == "/elsewhere")
            #expect(moved.header("Authorization") == nil)
            #expect(moved.header("Cookie") == nil)
            #expect(moved.header("X-Api-Key") == "k")
            #expect(moved.header("Accept") == "text/event-stream, application/x-ndjson;q=0.9, application/json;q=0.8")
        }
    }
}

/// A poll that POSTs its body (`--poll-body`, a GraphQL query), over real sockets.
@Suite("Polling with a body", .onThreadsOfItsOwn)
struct PollBodyTests {
    @Test("each poll POSTs the body as JSON, the configured headers beside it; a 307 keeps it, a 303 asks with GET")
    func postedPolls() async throws {
        let query = #"{"query":"{ builds(last: 2) { id status } }"}"#
        let server = try await ScriptedSSEServer.start { request in
            switch request.path {
            case "/graphql" where request.method == "POST":
                return .redirect(307, to: "/v2/graphql")
            case "/v2/graphql" where request.method == "POST":
                return .status(
                    200, headers: [("Content-Type", "application/json")],
                    body: #"{"data":{"builds":[{"id":"b1","status":"passed"},{"id":"b2","status":"failed"}]}}"#)
            case "/moved" where request.method == "POST":
                return .redirect(303, to: "/answer")
            case "/answer" where request.method == "GET":
                return .status(200, headers: [("Content-Type", "application/json")], body: #"{"builds":[]}"#)
            default:
                return .status(405, body: "\(request.method) \(request.path)")
            }
        }
        defer { server.shutdownNow() }
        var configuration = UpstreamConfiguration(
            url: server.url("/graphql"), headers: [("Authorization", "bearer t0k3n")], maxBackoff: .milliseconds(200))
        configuration.pollBody = query
        let harness = try UpstreamHarness(configuration: configuration, kind: .poll(interval: .milliseconds(100)))
        harness.start()
        // A GraphQL result's data is the document, as over SSE and WebSocket.
        try await harness.waitUntil("the builds") { harness.document?["builds"]?.arrayValue?.count == 2 }
        let requests = try await server.waitForRequests(4)
        _ = await harness.stop()
        for request in requests {
            #expect(request.method == "POST" && request.body == query, "\(request.method) \(request.uri)")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Authorization") == "bearer t0k3n")
        }
        #expect(requests.map(\.path).prefix(4) == ["/graphql", "/v2/graphql", "/graphql", "/v2/graphql"])

        var moved = configuration
        moved.url = server.url("/moved")
        let getting = try UpstreamHarness(configuration: moved, kind: .poll(interval: .milliseconds(100)))
        getting.start()
        try await getting.waitUntil("the answer by GET") { getting.document?["builds"] == .array([]) }
        _ = await getting.stop()
        let after = server.requests.filter { $0.path == "/answer" }
        #expect(!after.isEmpty && after.allSatisfy { $0.method == "GET" && $0.body.isEmpty })
    }
}
