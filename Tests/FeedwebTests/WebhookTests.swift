import FeedCore
import Foundation
import TestSupport
import Testing

/// `--webhook`, through the real binary, an SSE upstream and a real HTTP receiver on
/// loopback: an item that comes to match a `--mark` is POSTed as JSON with the
/// `--webhook-header`s; a busy receiver is asked again; the first document notifies nothing.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct WebhookTests {
    static func price(_ symbol: String, _ price: Double, id: Int) -> ScriptedSSEServer.Step {
        .text(
            SSEText.event(
                "message",
                data: JSONValue.object(["symbol": .string(symbol), "price": .double(price)]).serializedString(),
                id: String(id)))
    }

    @Test("an item crossing a mark, and one added matching it: each told once, with its headers, after a retry")
    func marksNotify() async throws {
        let upstream = try await ScriptedSSEServer.start(script: [
            .stream(
                [
                    // BTC is above 100 in the first document: the items as they are, no notification.
                    Self.price("BTC", 120, id: 1), .pause(.milliseconds(300)), Self.price("ETH", 90, id: 2),
                    .pause(.milliseconds(300)), Self.price("ETH", 101.5, id: 3), .pause(.milliseconds(300)),
                    Self.price("SOL", 150, id: 4),
                    .pause(.milliseconds(300)), Self.price("ETH", 102, id: 5),
                ], ending: .stayOpen)
        ])
        defer { upstream.shutdownNow() }
        // Busy once (Retry-After: 1), then taking every notification.
        let receiver = try await ScriptedSSEServer.start(
            script: [.status(503, headers: [("Retry-After", "1")])], then: .status(204))
        defer { receiver.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", upstream.url("/prices"), "--mode", "append", "--key-path", "/symbol", "--title", "Prices",
            "--mark", "Above 100:/price>100", "--webhook", receiver.url("/hooks/T0001/XSECRETX?source=prices"),
            "--webhook-header", "Authorization: Bearer s3cret",
        ])
        defer { feedweb.kill() }
        try await Eventually.check("three requests: the first asked again, then the second", within: 20) {
            receiver.requests.count >= 3
        }
        let requests = receiver.requests
        #expect(requests.allSatisfy { $0.method == "POST" && $0.uri == "/hooks/T0001/XSECRETX?source=prices" })
        #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer s3cret" })
        #expect(requests.allSatisfy { $0.header("Content-Type") == "application/json" })
        let bodies = try requests.map { try JSONValue(parsing: $0.body) }
        #expect(bodies.map { $0["key"] } == [.string("ETH"), .string("ETH"), .string("SOL")], "\(bodies)")
        #expect(bodies[0] == bodies[1], "the same notification asked again")
        #expect(requests[1].receivedAt - requests[0].receivedAt >= .seconds(1), "after the Retry-After")
        let first = bodies[0]
        #expect(first["mark"] == .string("Above 100") && first["text"] == .string("Above 100: ETH"))
        #expect(first["feed"] == .string("Prices") && first["item"]?["price"] == .double(101.5))
        #expect(first["url"] == .string("http://127.0.0.1:\(feedweb.port)/items/ETH"))
        #expect(first["at"]?.stringValue.flatMap { WallTime(rfc3339: $0) } != nil)
        // ETH staying above 100 is no new notification.
        try await Task.sleep(for: .milliseconds(500))
        #expect(receiver.requests.count == 3)
        // The retry is logged by the receiver's host: a chat's webhook keeps its secret in the path.
        #expect(feedweb.log.contains("answered 503") && !feedweb.log.contains("XSECRETX"), "\(feedweb.log)")
        let metrics = try await HTTPTestClient.get(port: feedweb.port, "/metrics").text
        #expect(metrics.contains(#"feedweb_webhook_notifications_total{result="delivered"} 2"#))
    }

    @Test("a wrong webhook URL exits 2 naming it, redacted")
    func wrongURL() async throws {
        let run = try await FeedwebRun.run(["--webhook", "hooks.example/t?token=abc"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--webhook") && !run.standardError.contains("abc"), "\(run.standardError)")
    }
}
