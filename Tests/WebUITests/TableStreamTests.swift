import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// The page stream of a table: a changed value sends its row, not the table, rendered once
/// for every client; a sorted table sends its new order; the kiosk's tiles and the item
/// page follow; the first document with items reloads the pages once.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct TableStreamTests {
    /// 1,000 rows, `r0000`…`r0999`, each with a value of two decimals (a change to one of
    /// two decimals or fewer keeps the column's precision: no reload).
    static let rows: JSONValue = .object([
        "rows": .array(
            (0..<1000).map { index in
                .object([
                    "id": .string("r" + String(index).leftPadded(to: 4)), "value": .double(Double(index) + 0.25),
                    "state": .string(["up", "down", "pending"][index % 3]),
                ])
            })
    ])

    static func data(_ event: SSEEvent) throws -> JSONValue { try JSONValue(parsing: event.data) }

    @Test("one changed cell sends that row alone, rendered once for every client")
    func oneRowPerChange() async throws {
        let server = try TestServer(document: Self.rows, detection: .init())
        let pageEvents = server.handlers.pageStreams.stream
        var clients: [SSETestClient] = []
        for _ in 0..<3 {
            let client = try await SSETestClient(port: server.port, path: "/events/page?v=table")
            let first = try Self.data(try await client.expectNext("items"))
            #expect(first["order"]?.arrayValue?.count == 1000)
            #expect(first["count"] == .string("1,000 items"))
            _ = try await client.expectNext("status")
            clients.append(client)
        }
        let before = pageEvents.fragmentRenderCount
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/rows/500/value", .double(777.25))])))
        server.handlers.pageStreams.refresh()
        var bodies: Set<String> = []
        for client in clients {
            let change = try Self.data(try await client.expectNext("items"))
            let html = try #require(change["html"]?.objectValue)
            #expect(Array(html.keys) == ["item-r0500"], "only the changed row")
            #expect(change["order"] == nil, "not the whole order")
            #expect(html["item-r0500"]?.stringValue?.contains("data-value=\"777.25\"") == true)
            bodies.insert(try await client.expectNext("status").data + change.serializedString())
        }
        #expect(bodies.count == 1, "every client got the same bytes")
        #expect(pageEvents.fragmentRenderCount - before == 2, "one row and one badge, for three clients")
        for client in clients { client.close() }
    }

    @Test("a value with more decimals than its column shows raises the column's: the pages reload once, then rows")
    func moreDecimalsReloadOnce() async throws {
        let server = try TestServer(document: Self.rows, detection: .init())
        let client = try await SSETestClient(port: server.port, path: "/events/page?v=table")
        _ = try await client.expectNext("items")
        _ = try await client.expectNext("status")
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/rows/7/value", .double(7.125))])))
        server.handlers.pageStreams.refresh()
        _ = try await client.expectNext("reload")
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(page.contains(">0.250<") && page.contains(">7.125<"), "every row at the column's three decimals")
        client.close()
        // Reloaded, the page follows row by row: a value within the column's decimals.
        let again = try await SSETestClient(port: server.port, path: "/events/page?v=table")
        _ = try await again.expectNext("items")
        _ = try await again.expectNext("status")
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/rows/8/value", .double(8.5))])))
        server.handlers.pageStreams.refresh()
        let change = try Self.data(try await again.expectNext("items"))
        let html = try #require(change["html"]?.objectValue)
        #expect(Array(html.keys) == ["item-r0008"], "only the changed row")
        #expect(html["item-r0008"]?.stringValue?.contains(">8.500<") == true)
        again.close()
    }

    @Test("a table sorted by a value that changes gets its new order and only the changed row")
    func sortedTableReorders() async throws {
        let server = try TestServer(document: Self.rows, detection: .init())
        let client = try await SSETestClient(port: server.port, path: "/events/page?v=table%2Bsort%3Dvalue%2Bdesc")
        let first = try Self.data(try await client.expectNext("items"))
        #expect(first["order"]?.arrayValue?.first == .string("item-r0999"))
        _ = try await client.expectNext("status")
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/rows/3/value", .double(5000))])))
        server.handlers.pageStreams.refresh()
        let change = try Self.data(try await client.expectNext("items"))
        #expect(change["order"]?.arrayValue?.first == .string("item-r0003"))
        #expect(change["html"]?.objectValue?.keys.map { $0 } == ["item-r0003"])
        client.close()
    }

    @Test("the kiosk's tiles and the item page follow a changed value")
    func kioskAndItem() async throws {
        let server = try TestServer(document: Self.rows, detection: .init())
        let client = try await SSETestClient(port: server.port, path: "/events/page?v=kiosk&v=item:r0001")
        var firsts: [String: JSONValue] = [:]
        while firsts.count < 2 {
            let event = try await client.next(before: Date().addingTimeInterval(5))
            guard event.type != "status", event.type != "retry" else { continue }
            let data = try Self.data(event)
            firsts[data["view"]?.stringValue ?? ""] = data
        }
        let tiles = try #require(firsts["kiosk"]?["html"]?.objectValue)
        #expect(tiles.count == PageRenderer.kioskTileLimit)
        #expect(tiles["item-r0001"]?.stringValue?.contains("class=\"tile") == true)
        #expect(firsts["item:r0001"]?["html"]?.stringValue?.contains("detail-table") == true)
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/rows/1/value", .double(-3.5))])))
        server.handlers.pageStreams.refresh()
        var updated: Set<String> = []
        while updated.count < 2 {
            let event = try await client.next(before: Date().addingTimeInterval(5))
            guard event.type == "items" || event.type == "item" else { continue }
            let data = try Self.data(event)
            let html = data["html"]?.stringValue ?? data["html"]?["item-r0001"]?.stringValue ?? ""
            #expect(html.contains("data-value=\"-3.5\""), "\(html.prefix(300))")
            updated.insert(data["view"]?.stringValue ?? "")
        }
        #expect(updated == ["kiosk", "item:r0001"])
        client.close()
    }

    @Test("the first document with items reloads the pages once, so they show the table")
    func decidedReloads() async throws {
        let server = try TestServer(document: .object(["rows": .array([])]), detection: .init())
        let client = try await SSETestClient(port: server.port, path: "/events/page?v=table")
        _ = try await client.expectNext("items")
        _ = try await client.expectNext("status")
        try server.store.apply(
            JSONPatch(json: .array([Patch.add("/rows/-", .object(["id": .string("a"), "v": .int(1)]))])))
        server.handlers.pageStreams.refresh()
        let reload = try await client.expectNext("reload")
        #expect(reload.data == "items")
        // Another change is an ordinary frame: no second reload.
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/rows/0/v", .int(2))])))
        server.handlers.pageStreams.refresh()
        let next = try await client.next(before: Date().addingTimeInterval(5))
        #expect(next.type == "items")
        client.close()
    }
}
