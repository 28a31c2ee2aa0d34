import FeedCore
import Foundation
import TestSupport
import Testing

/// An append stream of versions of a few items (a ticker's products) with `--key-path`
/// given, through the real binary against a scripted SSE upstream: a new version takes its
/// item's place, a new item goes first, and `--keep` counts items, not versions, letting
/// go of the item quiet the longest.
@Suite(.serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct KeyedAppendTests {
    /// Tick `sequence` of `product` at `price`, as a Coinbase-style ticker channel sends it.
    static func tick(_ product: String, _ price: Double, sequence: Int) -> String {
        SSEText.event(
            "ticker",
            data: JSONValue.object([
                "type": .string("ticker"), "sequence": .int(Int64(sequence)), "product_id": .string(product),
                "price": .double(price), "time": .string("2026-12-04T15:00:\(String(format: "%02d", sequence % 60))Z"),
            ]).serializedString())
    }

    static let evil = "<b>SOL</b>-USD"

    private func items(_ port: UInt16) async throws -> [JSONValue] {
        let response = try await HTTPTestClient.get(port: port, "/api/state", timeout: 3)
        guard response.status == 200 else { return [] }
        return try JSONValue(parsing: response.body)["items"]?.arrayValue ?? []
    }

    private func products(_ port: UInt16) async throws -> [String] {
        try await items(port).compactMap { $0["product_id"]?.stringValue }
    }

    private func price(of product: String, _ port: UInt16) async throws -> Double? {
        try await items(port).first { $0["product_id"]?.stringValue == product }?["price"]?.doubleValue
    }

    @Test("a new version takes its item's place, downstream as a replace; a quiet item stays; --keep counts items")
    func versionsInPlace() async throws {
        let server = try await ScriptedSSEServer.start(script: [
            .stream(
                [
                    .text(Self.tick("BTC-USD", 43_000, sequence: 1)), .text(Self.tick("ETH-USD", 2_300, sequence: 2)),
                    .text(Self.tick(Self.evil, 98, sequence: 3)),
                ], ending: .stayOpen)
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/ticker"), "--mode", "append", "--key-path", "/product_id", "--keep", "3",
        ])
        defer { feedweb.kill() }
        let firstSeen = [Self.evil, "ETH-USD", "BTC-USD"]
        try await Eventually.check("three products, the newest first") { try await products(feedweb.port) == firstSeen }

        let events = try await SSETestClient(port: feedweb.port)
        defer { events.close() }
        _ = try await events.expectNext("data")
        // Ten ticks of BTC, then one of ETH: more versions than --keep, and SOL quiet throughout.
        for sequence in 4...13 {
            try await server.push(Self.tick("BTC-USD", 43_000 + Double(sequence), sequence: sequence))
        }
        try await server.push(Self.tick("ETH-USD", 2_301, sequence: 14))
        try await Eventually.check("ETH's newest price") { try await price(of: "ETH-USD", feedweb.port) == 2_301 }
        #expect(try await products(feedweb.port) == firstSeen, "every product in its place, the quiet one kept")
        #expect(try await price(of: "BTC-USD", feedweb.port) == 43_013, "BTC's newest version")
        #expect(try await price(of: Self.evil, feedweb.port) == 98)

        // Downstream each version is a replace in place (tested first), not an add and a
        // remove; versions that came together are one patch of such pairs.
        let patch = try await events.expectNext("patch")
        let operations = try JSONValue(parsing: patch.data).arrayValue ?? []
        let ops = operations.compactMap { $0["op"]?.stringValue }
        let pairs = stride(from: 0, to: ops.count - 1, by: 2).map { Array(ops[$0...($0 + 1)]) }
        #expect(!ops.isEmpty && ops.count % 2 == 0 && pairs.allSatisfy { $0 == ["test", "replace"] }, "\(patch.data)")
        #expect(
            operations.contains { $0["op"] == .string("replace") && $0["path"] == .string("/items/2") },
            "BTC's place: \(patch.data)")

        // The table's rows in the same order, the markup as text.
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        let rows = page.matches(of: /<tr[^>]* id="item-([^"]*)"/).map { String($0.output.1) }
        // (The markup's key is made safe for an id; the others are as they are.)
        #expect(rows.count == 3 && Array(rows.dropFirst()) == ["ETH-USD", "BTC-USD"], "\(rows)")
        #expect(page.contains("&lt;b&gt;SOL&lt;/b&gt;-USD") && !page.contains("<b>SOL</b>"))
        // Fourteen versions of three products settled the reading: `type: ticker` says little.
        let columns = page.matches(of: /<th[^>]* data-col="([^"]*)"/).map { String($0.output.1) }
        #expect(columns.first != "type" && columns.contains("type"), "\(columns)")

        // A new product goes first; --keep 3 lets go of the one quiet the longest (SOL, at
        // the top), not of the one last in place (BTC, ticking), and the others stay put.
        try await server.push(Self.tick("DOGE-USD", 0.1, sequence: 15))
        try await Eventually.check("DOGE first, SOL gone") {
            try await products(feedweb.port) == ["DOGE-USD", "ETH-USD", "BTC-USD"]
        }
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0))
    }

    @Test(
        "without --key-path every tick is an item of its own, newest first, as before; the log says how to keep them in place"
    )
    func withoutKeyEveryTickIsAnItem() async throws {
        // The first tick alone, as a ticker's first read is: its product_id is the key found.
        let server = try await ScriptedSSEServer.start(script: [
            .stream([.text(Self.tick("BTC-USD", 43_000, sequence: 1))], ending: .stayOpen)
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", server.url("/ticker"), "--mode", "append"])
        defer { feedweb.kill() }
        try await Eventually.check("the first tick") { try await items(feedweb.port).count == 1 }
        try await server.push(Self.tick("ETH-USD", 2_300, sequence: 2))
        try await server.push(Self.tick("BTC-USD", 43_001, sequence: 3))
        try await Eventually.check("three ticks, the newest first") {
            try await items(feedweb.port).compactMap { $0["sequence"]?.int64Value } == [3, 2, 1]
        }
        // The key found (product_id) repeats: the log says, once, how to keep each in place.
        let hinted = "--key-path /product_id keeps"
        try await Eventually.check("the log's hint") { feedweb.log.contains(hinted) }
        let hint = feedweb.log.split(separator: "\n").filter { $0.contains(hinted) }
        #expect(hint.count == 1 && hint[0].contains("versions of 2 items"), "\(hint)")
        try await server.push(Self.tick("ETH-USD", 2_301, sequence: 4))
        try await Eventually.check("four ticks") { try await items(feedweb.port).count == 4 }
        #expect(feedweb.log.split(separator: "\n").filter { $0.contains(hinted) }.count == 1, "once")
    }

    @Test("with --key-path, the versions are in place and the log gives no hint")
    func noHintWithKeyPath() async throws {
        let ticks = (1...6).map { Self.tick(["BTC-USD", "ETH-USD"][$0 % 2], 100 + Double($0), sequence: $0) }
        let server = try await ScriptedSSEServer.start(script: [.stream(ticks.map { .text($0) }, ending: .stayOpen)])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/ticker"), "--mode", "append", "--key-path", "/product_id",
        ])
        defer { feedweb.kill() }
        try await Eventually.check("both products at their newest") {
            try await items(feedweb.port).compactMap { $0["sequence"]?.int64Value } == [6, 5]
        }
        #expect(!feedweb.log.contains("--key-path /product_id keeps"), "\(feedweb.log)")
    }
}
