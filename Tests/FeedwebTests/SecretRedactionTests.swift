import FeedCore
import Foundation
import TestSupport
import Testing

/// No secret in any log line or error message: the real binary, given upstream URLs with a
/// user name and password and secret-looking query values (and a secret header), connects,
/// fails, is redirected and reconnects at the most verbose log level; every line it writes,
/// `/readyz`, `/inspect` (the page and its stream) and `/api/changes` are searched for the
/// secrets. (The exit-2 message of an invalid URL:
/// ``OptionResolverTests``.)
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct SecretRedactionTests {
    static let secrets = ["PASSWD", "SECRETKEY", "SECRETTWO", "SECRETREDIRECT", "HEADERSECRET"]

    /// `url` (`scheme://127.0.0.1:PORT/path`) with user information and secret query values.
    static func withSecrets(_ url: String) -> String {
        let withUser = url.replacingOccurrences(of: "://", with: "://alice:PASSWD@")
        return withUser + (withUser.contains("?") ? "&" : "?") + "token=SECRETKEY&api-key=SECRETTWO&lang=en"
    }

    static func leaks(_ text: String) -> [String] {
        secrets.filter { text.contains($0) }
    }

    /// Runs feedweb with `arguments` until `done` holds, then stops it; returns everything
    /// it wrote and what `/readyz` said last.
    static func run(_ arguments: [String], until done: @escaping (FeedwebProcess) async throws -> Bool) async throws
        -> String
    {
        let feedweb = try await FeedwebProcess(
            arguments: arguments + ["--log-level", "trace", "--max-backoff", "0.2", "--header", "X-Api: HEADERSECRET"])
        defer { feedweb.kill() }
        try await Eventually.check("the scenario to play out", within: 20) { try await done(feedweb) }
        let ready = try await HTTPTestClient.get(port: feedweb.port, "/readyz").text
        let shown = try await shownToOperators(port: feedweb.port)
        #expect(await feedweb.stop()?.status == 0)
        return feedweb.log + feedweb.standardOutput + ready + shown
    }

    /// What `/inspect` shows (the page, and its first frame on the page stream), what
    /// `/api/changes` gives, and what the list and the kiosk say of upstream (their badges
    /// carry its last error), all in one text.
    static func shownToOperators(port: UInt16) async throws -> String {
        let page = try await HTTPTestClient.get(port: port, "/inspect")
        #expect(page.status == 200)
        let list = try await HTTPTestClient.get(port: port, "/").text
        let kiosk = try await HTTPTestClient.get(port: port, "/kiosk").text
        let stream = try await SSETestClient(port: port, path: "/events/page?v=inspect")
        defer { stream.close() }
        let frames = try await stream.events(for: 1.0).map(\.data).joined(separator: "\n")
        #expect(frames.contains("inspect-exchanges"), "the page stream carried /inspect")
        let state = try await HTTPTestClient.get(port: port, "/api/state")
        let epoch = (state.headers["etag"] ?? "\"x-1\"").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            .split(separator: "-").dropLast().joined(separator: "-")
        let changes = try await HTTPTestClient.get(port: port, "/api/changes?since=\(epoch)-1").text
        return page.text + frames + changes + list + kiosk
    }

    @Test("SSE: connected, redirected, refused with 503, reconnected: no secret in the log or /readyz")
    func sse() async throws {
        let server = try await ScriptedSSEServer.start(
            script: [
                .redirect(307, to: "/moved?access_token=SECRETREDIRECT&page=2"),
                .events(SSEText.event("data", data: #"{"results":[],"num_results":1}"#)),
                .status(503),
            ], then: .events(SSEText.event("data", data: #"{"results":[],"num_results":2}"#), ending: .stayOpen))
        defer { server.shutdownNow() }
        let output = try await Self.run(["--upstream", Self.withSecrets(server.url("/feed"))]) { _ in
            server.requests.count >= 4
        }
        #expect(Self.leaks(output).isEmpty, "leaked \(Self.leaks(output)):\n\(output)")
        #expect(output.contains("connected to http://127.0.0.1:\(server.port)/"), "the log still says where")
        #expect(output.contains("token=REDACTED"))
        #expect(output.contains("upstream answered HTTP 503"))
        #expect(server.requests.first?.header("X-Api") == "HEADERSECRET", "the header itself was sent")
    }

    @Test("WebSocket: an error close and reconnects: no secret in the log")
    func webSocket() async throws {
        let server = try await ScriptedWebSocketServer.start(
            script: [.text(#"{"type":"edit"}"#), .close(code: 1011, reason: "overloaded")],
            then: [.text(#"{"type":"edit"}"#), .close(code: 1000, reason: "bye")])
        defer { server.shutdownNow() }
        let arguments = [
            "--upstream", Self.withSecrets(server.url("/ws")), "--mode", "append", "--read-timeout", "0.5",
        ]
        let output = try await Self.run(arguments) {
            _ in server.connections.count >= 3
        }
        #expect(Self.leaks(output).isEmpty, "leaked \(Self.leaks(output)):\n\(output)")
        #expect(output.contains("upstream closed the WebSocket with code 1011"))
        #expect(server.connections.first?.handshake.uri.contains("SECRETKEY") == true, "the query itself was sent")
    }

    @Test("polling, and nothing listening: errors name the host and port, never the secrets")
    func pollAndRefused() async throws {
        let server = try await ScriptedSSEServer.start(script: [.status(500, body: "boom")])
        let url = Self.withSecrets(server.url("/api.json"))
        let output = try await Self.run(["--poll", url, "--interval", "0.1"]) { _ in server.requests.count >= 3 }
        #expect(Self.leaks(output).isEmpty, "leaked \(Self.leaks(output)):\n\(output)")
        await server.shutdown()
        // The same URL with nothing listening: "connection refused by 127.0.0.1:PORT".
        let refused = try await Self.run(["--upstream", url]) { feedweb in
            feedweb.log.contains("connection refused by 127.0.0.1:\(server.port)")
        }
        #expect(Self.leaks(refused).isEmpty, "leaked \(Self.leaks(refused)):\n\(refused)")
        #expect(!refused.contains("errno"), "no errno in the words")
    }
}
