import FeedCore
import Foundation
import TestSupport
import Testing

/// A market feed over a WebSocket that sends nothing until it is asked (`--send`), through
/// the real binary against a real WebSocket server: the subscription goes out on every
/// connection, the feed's answer to it and its heartbeats are no items, and a ticker keyed
/// by its product (`--key-path`) is one row per product.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct WebSocketSubscriptionTests {
    static let subscribe = #"{"type":"subscribe","product_ids":["BTC-USD","ETH-USD"],"channels":["ticker"]}"#

    /// A ticker message as Coinbase's feed writes one.
    static func ticker(_ sequence: Int, _ product: String, price: Double) -> ScriptedWebSocketServer.Action {
        .text(
            JSONValue.object([
                "type": .string("ticker"), "sequence": .int(Int64(sequence)), "product_id": .string(product),
                "price": .string(String(format: "%.2f", price)), "volume_24h": .string("1234.5"),
                "time": .string("2026-12-04T11:00:0\(sequence % 10).000000Z"),
            ]).serializedString())
    }

    @Test("the subscription on every connection; its answer and heartbeats are no items; a row per product")
    func tickerBoard() async throws {
        let answer = ScriptedWebSocketServer.Action.text(
            #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD","ETH-USD"]}]}"#)
        let first: [ScriptedWebSocketServer.Action] = [
            answer, Self.ticker(1, "BTC-USD", price: 43_000.5), Self.ticker(2, "ETH-USD", price: 2_200.25),
            .text(#"{"type":"heartbeat"}"#), Self.ticker(3, "BTC-USD", price: 43_010.75),
            Self.ticker(4, "<b>X</b>-USD", price: 1), .pause(.milliseconds(300)), .drop,
        ]
        let server = try await ScriptedWebSocketServer.start(
            script: first, then: [answer, Self.ticker(5, "ETH-USD", price: 2_300)])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            // The test server starts its script at the first ping.
            "--upstream", server.url("/"), "--mode", "append", "--key-path", "/product_id", "--read-timeout", "0.5",
            "--send", Self.subscribe, "--send", #"{"type":"ping-me-too"}"#,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("the second connection's ticker", within: 20) {
            let items = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/items").body)
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return items.arrayValue?.count == 3 && page.contains("2,300.00")
        }
        let connections = server.connections
        #expect(connections.count >= 2, "a reconnect")
        for connection in connections {
            #expect(
                connection.textsReceived == [Self.subscribe, #"{"type":"ping-me-too"}"#], "sent in order, each time")
        }
        // Three products, each once: BTC's newest price, not its first; no row of the answer.
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("43,010.75") && !page.contains("43,000.50"), "the newest BTC price only")
        #expect(!page.contains("subscriptions") && !page.contains("heartbeat"))
        #expect(page.contains("&lt;b&gt;X&lt;/b&gt;-USD") && !page.contains("<b>X</b>"))
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0), "the answer and the heartbeat are not counted")
        // The subscription is never logged: it may hold a key.
        #expect(!(feedweb.log + feedweb.standardOutput).contains("product_ids"), "the log names no sent message")
    }
}
