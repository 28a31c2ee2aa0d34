import FeedCore
import Foundation
import TestSupport
import Testing

/// SSE feeds that send whole documents, or items, under names of their own, through the real
/// binary against scripted upstreams: `event: prices`, unnamed arrays, GraphQL's `next`, an
/// append stream of `event: trade`, and a stream feedweb cannot read, which the page says.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct NamedEventsTests {
    /// Quotes whose prices move with `round`; one symbol is markup.
    static func quotes(_ round: Int) -> JSONValue {
        .array(
            ["AAPL", "MSFT", "<b>EVIL</b>"].enumerated().map { index, symbol in
                .object([
                    "symbol": .string(symbol), "price": .double(100 + Double(index * 10 + round) + 0.25),
                    "volume": .int(Int64(1000 * (index + 1))),
                ])
            })
    }

    private func state(_ port: UInt16) async throws -> JSONValue? {
        let response = try await HTTPTestClient.get(port: port, "/api/state", timeout: 3)
        return response.status == 200 ? try JSONValue(parsing: response.body) : nil
    }

    /// The table's price cells' values on `/`, in row order.
    private func prices(_ port: UInt16) async throws -> [Double] {
        let page = try await HTTPTestClient.get(port: port, "/").text
        return page.matches(of: /<td[^>]*data-col="price" data-value="([^"]*)"/).compactMap { Double($0.output.1) }
    }

    /// The prices of `quotes(round)`, in order.
    static func prices(_ round: Int) -> [Double] {
        quotes(round).arrayValue?.compactMap { $0["price"]?.doubleValue } ?? []
    }

    @Test(
        "whole documents under a feed's own name, as unnamed arrays, or as GraphQL results: a live table",
        arguments: ["prices", "unnamed", "graphql"])
    func documents(kind: String) async throws {
        func event(_ round: Int) -> String {
            let quotes = Self.quotes(round)
            switch kind {
            case "prices":
                // A heartbeat of scalars first: not the document.
                return SSEText.event("tick", data: #"{"time":\#(round)}"#)
                    + SSEText.event("prices", data: JSONValue.object(["quotes": quotes]).serializedString())
            case "unnamed": return SSEText.event(data: quotes.serializedString())
            default:
                let result = JSONValue.object(["data": .object(["quotes": quotes])])
                return SSEText.event("next", data: result.serializedString())
            }
        }
        let server = try await ScriptedSSEServer.start(script: [.stream([.text(event(0))], ending: .stayOpen)])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", server.url("/quotes")])
        defer { feedweb.kill() }
        let expected = Self.prices(0)
        try await Eventually.check("the quotes' prices in the table") { try await prices(feedweb.port) == expected }
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("&lt;b&gt;EVIL&lt;/b&gt;") && !page.contains("<b>EVIL"), "a symbol of markup as text")

        try await server.push(event(5))
        let moved = Self.prices(5)
        try await Eventually.check("the next document's prices") { try await prices(feedweb.port) == moved }
        #expect(moved != expected)
        if kind == "prices" {
            #expect(feedweb.log.contains("upstream: events named prices carry the document"), "the log says so")
        }
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["rejected_patches"] == .int(0))
        #expect(server.requests.count == 1, "no reconnect")
    }

    @Test("a stream of events feedweb does not read: the page says which, and why, instead of waiting")
    func unreadEvents() async throws {
        let server = try await ScriptedSSEServer.start(script: [
            .stream([.text(SSEText.event("tick<b>", data: #"{"n":1,"load":0.5}"#))], ending: .stayOpen)
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", server.url("/metrics")])
        defer { feedweb.kill() }
        try await Eventually.check("the page says the tick events are not read") {
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return page.contains("Nothing to show yet") && page.contains("tick&lt;b&gt; events are not read")
        }
        #expect(!(try await HTTPTestClient.get(port: feedweb.port, "/").text.contains("<b>")), "the name escaped")
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        let reason = ready["upstream"]?["last_ignored"]?.stringValue ?? ""
        #expect(reason.hasPrefix("tick<b> events are not read") && reason.contains("--mode append"), "\(reason)")
        #expect(ready["upstream"]?["ignored_events"] == .int(1))
        // A readable document after all: the table, and the notice gone.
        try await server.push(SSEText.event(data: Self.quotes(1).serializedString()))
        try await Eventually.check("the table once a document came") { try await prices(feedweb.port).count == 3 }
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(!page.contains("Nothing to show yet"))
    }

    @Test("an append stream of a feed's own event name: each event an item")
    func appendNamedItems() async throws {
        func trade(_ n: Int) -> String {
            SSEText.event(
                "trade",
                data: JSONValue.object([
                    "id": .int(Int64(n)), "pair": .string(n == 2 ? "<i>X</i>USD" : "BTCUSD"),
                    "price": .double(40_000 + Double(n)),
                ]).serializedString())
        }
        let server = try await ScriptedSSEServer.start(script: [
            .stream(
                [.text(SSEText.event("open", data: #"{"id":"c1","topic":"trades"}"#))]
                    + (1...4).map { .text(trade($0)) },
                ending: .stayOpen)
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", server.url("/trades"), "--mode", "append"])
        defer { feedweb.kill() }
        func ids() async throws -> [JSONValue] {
            try await state(feedweb.port)?["items"]?.arrayValue?.compactMap { $0["id"] } ?? []
        }
        try await Eventually.check("four trades, newest first") { try await ids() == [4, 3, 2, 1].map { .int($0) } }
        try await server.push(trade(5))
        try await Eventually.check("the fifth") { try await ids().first == .int(5) }
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("&lt;i&gt;X&lt;/i&gt;USD") && !page.contains("<i>X</i>"))
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0), "the open event is liveness, not counted")
        #expect(feedweb.log.contains("upstream: events named trade carry the items"), "the log says so")
    }
}
