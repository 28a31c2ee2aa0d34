import FeedCore
import Foundation
import TestSupport
import Testing

/// Wikipedia edits over a WebSocket, end to end: the real binary reads a WebSocket of edits,
/// `{"type", "content", "time"}`, with README's command for them ("Seed 003"); `/stats` shows the
/// latest edited title in its ticker and a marker for every `newuser` event, in
/// `/api/stats`, in the page, and live in Chromium.
@Suite(.serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct WebSocketMarksAndTickerTests {
    static func edit(_ title: String, type: String = "unspecified", second: Int = 0) -> String {
        JSONValue.object([
            "type": .string(type), "content": .string(title),
            "time": .string("2014-05-15T14:46:\(String(format: "%02d", second % 60)).828Z"),
        ]).serializedString()
    }

    /// The README's command for seed 003, against `url`.
    static func arguments(_ url: String) -> [String] {
        [
            "--upstream", url, "--mode", "append", "--profile", "generic", "--field", "title=/content",
            "--field", "published=/time", "--field", "subsection=/type", "--mark", "New user:/type=newuser",
            // Not the README's: the test server starts its script at the first ping.
            "--read-timeout", "0.5",
        ]
    }

    static func stats(_ port: UInt16) async throws -> JSONValue {
        try await JSONValue(parsing: HTTPTestClient.get(port: port, "/api/stats", timeout: 3).body)
    }

    static func marks(_ stats: JSONValue) -> [JSONValue] {
        (stats["events"]?.arrayValue ?? []).filter { $0["kind"]?.stringValue == "mark" }
    }

    @Test("each newuser edit is a 'New user' mark in /api/stats and on /stats; the ticker shows the latest title")
    func marksAndTicker() async throws {
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(Self.edit("Manhattan Film Academy")), .text(Self.edit("Alice", type: "newuser", second: 1)),
            .text(Self.edit("Sandbox", second: 2)), .text(Self.edit("Bob", type: "newuser", second: 3)),
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: Self.arguments(server.url("/edits")))
        defer { feedweb.kill() }

        let items = try await Eventually.value("four edits", within: 10) { () -> [JSONValue]? in
            let items = try await FeedwebProbe.items(port: feedweb.port)
            return items.count == 4 ? items : nil
        }
        #expect(items.compactMap { $0["title"]?.stringValue } == ["Bob", "Sandbox", "Alice", "Manhattan Film Academy"])
        #expect(items.first?["subsection"]?.stringValue == "newuser")

        // Notable events are listed once their five-second window is complete.
        let stats = try await Eventually.value("two marks in /api/stats", within: 15) { () -> JSONValue? in
            let stats = try await Self.stats(feedweb.port)
            return Self.marks(stats).count == 2 ? stats : nil
        }
        let marks = Self.marks(stats)
        #expect(marks.compactMap { $0["label"]?.stringValue } == ["New user", "New user"])
        // Items that arrived together are marked at the same time, in any order.
        #expect(marks.compactMap { $0["detail"]?.stringValue }.sorted() == ["Alice", "Bob"])
        #expect(stats["totals"]?["marks"] == .int(2))
        #expect(stats["ticker"]?["title"]?.stringValue == "Bob")

        let page = try await HTTPTestClient.get(port: feedweb.port, "/stats").text
        #expect(page.contains("class=\"marker marker-mark\""))
        #expect(page.contains("New user at "), "the marker's tooltip names the mark")
        #expect(page.contains("<li class=\"notable-mark\">"))
        #expect(page.contains("<span class=\"notable-label\">New user</span><span class=\"notable-detail\">Bob</span>"))
        #expect(page.contains("<li class=\"legend-marker-mark\">"))
        let metrics = try PrometheusText(parsing: await HTTPTestClient.get(port: feedweb.port, "/metrics").text)
        #expect(metrics.value("feedweb_marks_total") == 2)
        #expect(await feedweb.stop()?.status == 0)
    }

    @Test(
        "in Chromium, /stats shows the marker and the ticker follows new edits without a reload",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
    func liveInBrowser() async throws {
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(Self.edit("Manhattan Film Academy")), .text(Self.edit("Carol", type: "newuser", second: 1)),
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: Self.arguments(server.url("/edits")))
        defer { feedweb.kill() }
        try await Eventually.check("the newuser mark counted", within: 15) {
            Self.marks(try await Self.stats(feedweb.port)).count == 1
        }
        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/stats")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            #expect(
                try await browser.waitFor(
                    "return document.querySelectorAll('#stats-rate .marker-mark').length === 1", seconds: 5))
            #expect(
                try await browser.execute("return document.querySelector('.ticker-title').textContent")
                    == .string("Carol"))
            try await browser.execute("window.__feedwebMarker = 'kept'; return true")
            // A new edit arrives over the WebSocket: the ticker changes in place.
            try server.send([.text(Self.edit("Dune (novel)", second: 4))])
            let live = try await browser.waitFor(
                """
                return window.__feedwebMarker === 'kept'
                  && document.querySelector('.ticker-title').textContent === 'Dune (novel)';
                """, seconds: 10)
            #expect(live, "the ticker shows the newest edit without a reload")
        }
        #expect(await feedweb.stop()?.status == 0)
    }
}
