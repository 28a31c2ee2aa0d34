import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// A feed that describes one thing (a service's health): a row per named value, a part's
/// values among them, each shown as its own name says, kept in step with the feed.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct NamedValuesPageTests {
    /// The value cells of `/`, by row key.
    private func values(_ server: TestServer) async throws -> [String: String] {
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        let rows = page.matches(
            of:
                /<tr class="row" id="item-[^"]+" data-key="([^"]+)">.*?<td class="([^"]*)" data-col="value"[^>]*>(.*?)<\/td><\/tr>/
        )
        return Dictionary(
            rows.map { (String($0.output.1), String($0.output.2) + " | " + String($0.output.3)) },
            uniquingKeysWith: { first, _ in first })
    }

    @Test("a health answer: its parts' values by both names, each formatted by its own; a change and a new part")
    func healthAnswer() async throws {
        let server = try TestServer(
            document: .object([
                "status": .string("ok"), "version": .string("2026.11.30-rc.1"),
                "db": .object(["status": .string("down"), "latency_ms": .int(12)]),
                "memory": .object(["rss_bytes": .int(52_428_800)]),
                "sys": .object(["sunrise": .int(1_796_025_000), "id": .int(2_075_535)]),
            ]), detection: .init())
        var shown = try await values(server)
        #expect(
            shown.keys.sorted() == [
                "db.latency_ms", "db.status", "memory.rss_bytes", "status", "sys.id", "sys.sunrise", "version",
            ],
            "\(shown)")
        #expect(shown["db.status"]?.contains("status-bad") == true, "\(shown)")
        #expect(shown["db.latency_ms"]?.hasSuffix("12 ms") == true, "\(shown)")
        #expect(shown["db.latency_ms"]?.contains("lower-better") == true, "a latency's rise is bad news: \(shown)")
        #expect(shown["memory.rss_bytes"]?.contains("lower-better") == false, "\(shown)")
        #expect(shown["memory.rss_bytes"]?.hasSuffix("50.0 MiB") == true, "\(shown)")
        #expect(shown["sys.sunrise"]?.contains(#"<time datetime="2026-11-30T07:50:00Z""#) == true, "\(shown)")
        #expect(shown["sys.id"]?.hasSuffix("| 2075535") == true, "an id's digits are not grouped: \(shown)")

        try server.store.apply(
            JSONPatch(
                json: .array([
                    Patch.replace("/memory/rss_bytes", .int(104_857_600)),
                    Patch.add("/disk", .object(["free_bytes": .int(1_073_741_824)])),
                ])))
        shown = try await values(server)
        #expect(shown["memory.rss_bytes"]?.hasSuffix("| 100 MiB") == true, "\(shown)")
        #expect(shown["disk.free_bytes"]?.hasSuffix("1.0 GiB") == true, "\(shown)")
        // A tile is titled by the value's name, its figure alone beneath.
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let tile = try #require(
            kiosk.firstMatch(of: /<li class="tile[^"]*" id="[^"]+" data-key="disk.free_bytes">([\s\S]*?)<\/li>/))
        #expect(tile.output.1.contains(#"<h2 class="tile-title">disk.free_bytes</h2>"#), "\(tile.output.1)")
        #expect(tile.output.1.contains("1.0 GiB") && !tile.output.1.contains("tile-label"), "\(tile.output.1)")
        // A long text lead is shown smaller, not cut; a figure is not.
        #expect(kiosk.contains(#"<p class="tile-lead cell long" data-col="value">2026.11.30-rc.1</p>"#))
        #expect(!tile.output.1.contains(" long"), "\(tile.output.1)")
        let item = try await HTTPTestClient.get(port: server.port, "/items/disk.free_bytes")
        #expect(item.status == 200)
        #expect(item.text.contains("1.0 GiB"))
    }
}
