import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Where a table shows the status it is filtered by: near the start, where a laptop's
/// screen shows it, while a kiosk's tiles keep the feed's order.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct TableColumnOrderTests {
    static func headings(_ page: String) -> [String] {
        page.matches(of: /<th[^>]*data-col="([^"]+)"/).map { String($0.output.1) }
    }

    @Test(
        "Stripe's status, its tenth column, is second on / and on the item page, after what names the charge; the kiosk's lead is still the amount"
    )
    func statusComesSecond() async throws {
        func charge(_ id: String, _ status: String) -> JSONValue {
            .object([
                "id": .string(id), "amount": .int(2000), "amount_captured": .int(2000), "amount_refunded": .int(0),
                "currency": .string("usd"), "captured": .bool(true), "created": .int(1_796_000_000),
                "customer": .string("cus_1"), "description": .string("Plan " + id), "status": .string(status),
            ])
        }
        let server = try TestServer(
            document: .object([
                "data": .array([
                    charge("ch_1", "succeeded"), charge("ch_2", "failed"), charge("ch_3", "succeeded"),
                    charge("ch_4", "pending"),
                ])
            ]), detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        let shown = Self.headings(table)
        // The description names each charge here (its ninth column): it comes first.
        #expect(shown.prefix(3) == ["description", "status", "id"], "\(shown)")
        let row = try #require(try Regex(#"id="item-ch_2"[\s\S]*?</tr>"#).firstMatch(in: table))
        let cells = String(table[row.range]).matches(of: /<td[^>]*data-col="([^"]+)"/).map { String($0.output.1) }
        #expect(cells == shown, "a row's cells in the headings' order")
        let detail = try await HTTPTestClient.get(port: server.port, "/items/ch_2").text
        let values = detail.matches(of: /<dd class="[^"]*" data-col="([^"]+)"/).map { String($0.output.1) }
        // The page's heading is the description: the values follow in the table's order.
        #expect(values.prefix(2) == ["status", "id"] && !values.contains("description"), "\(values)")
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(try TablePageTests.tileLead(of: "ch_1", in: kiosk)?.column == "amount")
    }

    @Test("GitHub's issues: titled first though a link and a number come before; their labels a list of names")
    func issuesTitledFirstWithLabels() async throws {
        let labels = [
            #"[{"id": 1, "name": "bug", "color": "d73a4a"}]"#, "[]",
            #"[{"id": 2, "name": "p1"}, {"id": 3, "name": "crash"}, {"id": 4, "name": "macros"}, {"id": 5, "name": "needs triage"}]"#,
        ]
        let issues = (0..<3).map { index in
            #"""
            {"url": "https://api.github.com/repos/a/b/issues/\#(index)", "html_url": "https://github.com/a/b/issues/\#(index)",
             "id": \#(9000 + index), "number": \#(index), "title": "Crash \#(index)", "state": "open",
             "labels": \#(labels[index]), "comments": \#(index), "created_at": "2026-11-30T10:00:00Z",
             \#((0..<12).map { #""more\#($0)": "v\#($0)x\#(index)""# }.joined(separator: ", "))}
            """#
        }
        let server = try TestServer(
            document: try JSONValue(parsing: "[\(issues.joined(separator: ","))]"), detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        let shown = Self.headings(table)
        // More members than a table shows: the labels are among those kept.
        #expect(shown.first == "title" && shown.contains("labels") && !shown.contains("more11"), "\(shown)")
        let cells = table.matches(of: /<td class="[^"]*" data-col="labels"[^>]*>(.*?)<\/td>/).map {
            String($0.output.1)
        }
        #expect(cells == ["bug", "none", "p1, crash, macros, needs triage"], "\(cells)")
    }

    @Test("a status among the first three stays where the feed puts it")
    func earlyStatusStays() async throws {
        func build(_ id: Int, _ state: String) -> JSONValue {
            .object([
                "id": .int(Int64(id)), "branch": .string("b\(id)"), "state": .string(state),
                "duration_s": .int(Int64(id * 10)),
            ])
        }
        let server = try TestServer(
            document: .array([build(1, "passed"), build(2, "failed"), build(3, "running"), build(4, "passed")]),
            detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(Self.headings(table) == ["id", "branch", "state", "duration_s"], "\(Self.headings(table))")
    }

    @Test("a ticker's type, the same in every message, comes after what tells the products apart")
    func littleLast() async throws {
        func ticker(_ sequence: Int, _ product: String, _ price: String) -> JSONValue {
            .object([
                "type": .string("ticker"), "sequence": .int(Int64(sequence)), "product_id": .string(product),
                "price": .string(price), "side": .string(sequence % 2 == 0 ? "buy" : "sell"),
            ])
        }
        var detection = ItemProfile.Overrides()
        detection.keyPath = .at(try JSONPointer("/product_id"))
        let server = try TestServer(
            document: .array([
                ticker(1, "BTC-USD", "43000.5"), ticker(2, "ETH-USD", "2200.25"), ticker(3, "SOL-USD", "95.1"),
                ticker(4, "DOGE-USD", "0.0912"),
            ]), detection: detection)
        let shown = Self.headings(try await HTTPTestClient.get(port: server.port, "/").text)
        #expect(shown.last == "type" && shown.contains("product_id"), "\(shown)")
    }

    @Test("a pod list: Ready and Restarts beside its phase, as kubectl shows them; its UID last; the tiles as before")
    func podsAsKubectlShowsThem() async throws {
        func pod(_ index: Int, _ phase: String) -> JSONValue {
            .object([
                "metadata": .object([
                    "name": .string("web-\(index)"), "namespace": .string("default"),
                    "uid": .string("5f2c000\(index)-1b2a-4c3d-9e8f-0a1b2c3d4e5f"),
                    "creationTimestamp": .string("2026-11-30T10:00:00Z"),
                ]),
                "spec": .object(["nodeName": .string("node-\(index % 2)")]),
                "status": .object([
                    "phase": .string(phase), "podIP": .string("10.0.0.\(index)"),
                    "containerStatuses": .array([
                        .object(["name": .string("c"), "ready": .bool(phase == "Running"), "restartCount": .int(2)])
                    ]),
                ]),
            ])
        }
        let server = try TestServer(
            document: .object([
                "kind": .string("PodList"),
                "items": .array([pod(0, "Running"), pod(1, "Pending"), pod(2, "Running"), pod(3, "Failed")]),
            ]), detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        let shown = Self.headings(table)
        #expect(shown.prefix(4) == ["name", "phase", "ready", "restarts"], "\(shown)")
        #expect(shown.last == "uid", "\(shown)")
        let detail = try await HTTPTestClient.get(port: server.port, "/items/web-1").text
        let values = detail.matches(of: /<dd class="[^"]*" data-col="([^"]+)"/).map { String($0.output.1) }
        #expect(
            values == Array(shown.dropFirst()), "the item page in the table's order, the name its heading: \(values)")
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(try TileAttentionTests.tile("web-1", in: kiosk).first == "phase")
    }

    @Test("Buildkite's builds: named by their message, first; their UUIDs last; an empty env in every build no column")
    func buildsNamedFirst() async throws {
        func build(_ number: Int, _ state: String) -> JSONValue {
            .object([
                "id": .string("f62a1b4d-10f9-4790-bc1c-e2c3a0c8011\(number)"),
                "web_url": .string("https://buildkite.com/acme/web/builds/\(number)"), "number": .int(Int64(number)),
                "state": .string(state), "blocked": .bool(false), "message": .string("Fix thing \(number)"),
                "branch": .string("main"), "env": .object([:]),
            ])
        }
        let server = try TestServer(
            document: .array([build(1, "passed"), build(2, "failed"), build(3, "running"), build(4, "passed")]),
            detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        let shown = Self.headings(table)
        #expect(shown.prefix(2) == ["message", "state"], "\(shown)")
        #expect(shown.last == "id" && !shown.contains("env"), "\(shown)")
        let link = try #require(table.firstMatch(of: /<a class="row-link" href="([^"]+)">([^<]+)<\/a>/))
        #expect(link.output.2 == "Fix thing 1" && link.output.1 == "/items/f62a1b4d-10f9-4790-bc1c-e2c3a0c80111")
    }

    @Test("columns given (--column) are shown in exactly their order, whatever names the item or filters it")
    func givenColumnsKeepTheirOrder() async throws {
        func build(_ number: Int, _ state: String) -> JSONValue {
            .object([
                "number": .int(Int64(number)), "branch": .string("main"), "took": .int(30),
                "message": .string("Fix \(number)"), "state": .string(state),
            ])
        }
        var overrides = ItemProfile.Overrides()
        overrides.columns = try ["Number=/number", "Branch=/branch", "Took=/took", "Message=/message", "State=/state"]
            .map { try ItemColumn(parsing: $0) }
        let server = try TestServer(
            document: .array([build(1, "passed"), build(2, "failed"), build(3, "running"), build(4, "passed")]),
            detection: overrides)
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(Self.headings(table) == ["number", "branch", "took", "message", "state"], "\(Self.headings(table))")
    }
}
