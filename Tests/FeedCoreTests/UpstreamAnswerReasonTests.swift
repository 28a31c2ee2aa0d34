import FeedCore
import Foundation
import TestSupport
import Testing

/// What an error answer's body says went wrong, beside its status: APIs' own words found
/// in their JSON or plain text, never an HTML page, never a secret of the request, folded
/// and cut; and the same through real sockets for an SSE upstream and a polled API.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct UpstreamAnswerReasonTests {
    static func reason(_ body: String, type: String? = "application/json", secrets: [String] = []) -> String? {
        UpstreamAnswerReason.reason(in: Array(body.utf8), contentType: type, secrets: secrets)
    }

    @Test(
        "APIs' error bodies: GitHub's message, Google's error object, OAuth, problem details, GraphQL errors, plain text",
        arguments: [
            (#"{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}"#, "Bad credentials"),
            (
                #"{"error":{"code":403,"message":"The caller does not have permission","status":"PERMISSION_DENIED"}}"#,
                "The caller does not have permission"
            ),
            (
                #"{"error":"invalid_client","error_description":"Client authentication failed"}"#,
                "Client authentication failed"
            ),
            (#"{"type":"about:blank","title":"Not Found","status":404,"detail":"No build 42"}"#, "No build 42"),
            (
                #"{"errors":[{"message":"Field 'x' doesn't exist on type 'Query'"}]}"#,
                "Field 'x' doesn't exist on type 'Query'"
            ),
            (#"{"errors":["quota exceeded"]}"#, "quota exceeded"),
            (
                #"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key."}"#,
                "Invalid API key: You must be granted a valid key."
            ),
            ("no such route\nsecond line", "no such route"),
        ])
    func apisOwnWords(body: String, expected: String) {
        let type = body.hasPrefix("{") ? "application/json" : "text/plain"
        #expect(Self.reason(body, type: type) == expected)
    }

    @Test("nothing to say: an HTML page, JSON without words, a bare string, an empty or an oversized body")
    func nothingToSay() {
        #expect(Self.reason("<html><title>502 Bad Gateway</title></html>", type: "text/html") == nil)
        #expect(Self.reason("  <!DOCTYPE html><p>maintenance</p>", type: nil) == nil)
        #expect(Self.reason(#"{"code":500,"ok":false}"#) == nil)
        #expect(Self.reason(#""just a string""#) == nil)
        #expect(Self.reason(#"{"message":"   "}"#) == nil)
        #expect(Self.reason("") == nil)
        let huge = #"{"message":""# + String(repeating: "x", count: UpstreamAnswerReason.maxBodyBytes) + #""}"#
        #expect(Self.reason(huge) == nil)
    }

    @Test("hostile words: secrets and URLs' secrets redacted, control characters and runs of space folded, cut at 160")
    func hostileWords() throws {
        let echoed = Self.reason(
            #"{"message":"Invalid API key sk_live_123456. See https://x.example/help?api_key=sk_live_123456&lang=en"}"#,
            secrets: ["sk_live_123456"])
        #expect(echoed == "Invalid API key REDACTED. See https://x.example/help?api_key=REDACTED&lang=en")
        let folded = Self.reason("{\"message\":\"line one\\n\\tline\\u0007 two   three\"}")
        #expect(folded == "line one line two three")
        let long = try #require(Self.reason(#"{"message":""# + String(repeating: "word ", count: 100) + #""}"#))
        #expect(long.count == 160 && long.hasSuffix("…"), "\(long)")
    }

    @Test("the request's secrets: user information, secret-named query values (OpenWeather's appid too), header values")
    func endpointSecrets() throws {
        let endpoint = try UpstreamEndpoint(
            url: "https://alice:PASSWD@api.example/data?appid=APPIDVALUE&token=TOKENVALUE&q=London",
            headers: [("Authorization", "Bearer BEARERVALUE"), ("X-Id", "abcd"), ("X-Tag", "abc")], transport: .http)
        let secrets = Set(endpoint.secrets)
        for secret in ["alice", "PASSWD", "APPIDVALUE", "TOKENVALUE", "Bearer BEARERVALUE", "BEARERVALUE", "abcd"] {
            #expect(secrets.contains(secret), "\(secret)")
        }
        #expect(!secrets.contains("London") && !secrets.contains("Bearer") && !secrets.contains("abc"), "\(secrets)")
        #expect(
            URLRedaction.redacted("https://api.example/w?appid=APPIDVALUE&q=x")
                == "https://api.example/w?appid=REDACTED&q=x")
    }

    @Test(
        "an SSE upstream's 401 and a polled API's 403 say why, the key they echo redacted; a trickling body is not waited for"
    )
    func throughTheSockets() async throws {
        let body = #"{"message":"Invalid API key KEY-0123456789: not allowed"}"#
        let server = try await ScriptedSSEServer.start { request in
            request.path.hasPrefix("/slow")
                ? .init(
                    status: 500, headers: [("Content-Type", "text/plain")], framing: .chunked, body: [.text("slo")],
                    ending: .stayOpen)
                : .status(
                    request.path.hasPrefix("/sse") ? 401 : 403, headers: [("Content-Type", "application/json")],
                    body: body)
        }
        defer { server.shutdownNow() }
        for (path, kind, code) in [
            ("/sse?api_key=KEY-0123456789", UpstreamKind.document, 401),
            ("/api?api_key=KEY-0123456789", .poll(interval: .milliseconds(100)), 403),
        ] {
            let harness = try UpstreamHarness(
                configuration: .init(url: server.url(path), maxBackoff: .milliseconds(200)), kind: kind)
            harness.start()
            try await harness.waitForStatus("the refusal", timeout: .seconds(5)) { $0.lastError != nil }
            _ = await harness.stop()
            #expect(harness.status.lastError == "upstream answered HTTP \(code): Invalid API key REDACTED: not allowed")
        }
        let slow = try UpstreamHarness(
            configuration: .init(url: server.url("/slow"), maxBackoff: .milliseconds(200)),
            kind: .poll(interval: .milliseconds(100)))
        let started = ContinuousClock.now
        slow.start()
        try await slow.waitForStatus("the 500", timeout: .seconds(10)) { $0.lastError != nil }
        _ = await slow.stop()
        #expect(slow.status.lastError == "upstream answered HTTP 500")
        #expect(ContinuousClock.now - started < .seconds(8), "not held up by the body")
    }

    @Test("a feed given the wrong way names the option that reads it: an SSE stream polled, a JSON API streamed")
    func theWrongWay() async throws {
        let server = try await ScriptedSSEServer.start { request in
            request.path == "/stream"
                ? .events(SSEText.event("data", data: "{}"), ending: .stayOpen)
                : .status(200, headers: [("Content-Type", "application/json")], body: "{}")
        }
        defer { server.shutdownNow() }
        let started = ContinuousClock.now
        let polled = try UpstreamHarness(
            configuration: .init(url: server.url("/stream"), maxBackoff: .milliseconds(200)),
            kind: .poll(interval: .milliseconds(100)))
        polled.start()
        try await polled.waitForStatus("the stream refused", timeout: .seconds(10)) { $0.lastError != nil }
        _ = await polled.stop()
        #expect(polled.status.lastError?.hasSuffix("(an SSE feed is read with --upstream URL)") == true)
        #expect(ContinuousClock.now - started < .seconds(5), "said before reading a body that never ends")
        let streamed = try UpstreamHarness(
            configuration: .init(url: server.url("/api"), maxBackoff: .milliseconds(200)), kind: .document)
        streamed.start()
        try await streamed.waitForStatus("the API refused", timeout: .seconds(10)) { $0.lastError != nil }
        _ = await streamed.stop()
        #expect(streamed.status.lastError?.hasSuffix("(a JSON API is polled: --poll URL)") == true)
        #expect(PollingProtocol.unreadable(contentType: "application/json") == nil)
    }
}
