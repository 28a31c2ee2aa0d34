import FeedCore
import Foundation
import TestSupport
import Testing

/// The live pages in a real browser: headless Chromium (through chromedriver) on pages of
/// the real binary, whose upstream is a scripted SSE server the test drives.
@Suite(
    .serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn,
    .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
struct LiveBrowserTests {
    static var document: JSONValue { NewswireFeed.document(stories: [5, 4, 3, 2, 1]) }

    /// A live upstream: the document, then whatever the test pushes; feedweb on it.
    static func start() async throws -> (ScriptedSSEServer, FeedwebProcess) {
        let data = SSEEncoder.event(type: "data", data: document.serializedString(), id: "1")
        let server = try await ScriptedSSEServer.start { _ in .stream([.send(data)], ending: .stayOpen) }
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", server.url("/feed")])
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        return (server, feedweb)
    }

    /// The key feedweb gave the story titled `title` (from `/api/items`).
    static func key(of title: String, port: UInt16) async throws -> String {
        let items = try await JSONValue(parsing: HTTPTestClient.get(port: port, "/api/items").body).arrayValue ?? []
        guard let key = items.first(where: { $0["title"]?.stringValue == title })?["key"]?.stringValue else {
            throw WebDriver.Failure(description: "no item titled \(title)")
        }
        return key
    }

    static func patch(_ operations: [JSONValue], id: String) -> String {
        String(
            decoding: SSEEncoder.event(type: "patch", data: JSONValue.array(operations).serializedString(), id: id),
            as: UTF8.self)
    }

    @Test func listShowsAddedAndEditedStoriesWithoutReload() async throws {
        let (server, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        let third = try await Self.key(of: "Story number 3", port: feedweb.port)
        let first = try await Self.key(of: "Story number 1", port: feedweb.port)
        let browser = try await WebDriver()
        try await browser.open("http://127.0.0.1:\(feedweb.port)/")
        try await browser.execute("window.__feedwebMarker = 'kept'; return true")
        #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
        #expect(try await browser.execute("return document.querySelectorAll('#stories > li').length") == .int(5))

        try await server.push(
            Self.patch(
                [
                    .object(["op": .string("add"), "path": .string("/results/0"), "value": NewswireFeed.story(6)]),
                    .object([
                        "op": .string("replace"), "path": .string("/results/3/title"),
                        "value": .string("An edited headline"),
                    ]),
                    .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(6)]),
                ], id: "2"))
        let shown = try await browser.waitFor(
            """
            var first = document.querySelector('#stories > li');
            var edited = document.getElementById('item-\(third)');
            return window.__feedwebMarker === 'kept' && first
              && first.querySelector('.story-title').textContent === 'Story number 6'
              && edited && edited.querySelector('.story-title').textContent === 'An edited headline'
              && document.querySelectorAll('#stories > li').length === 6;
            """, seconds: 3)
        if !shown {
            let ids = try await browser.execute(
                "return Array.from(document.querySelectorAll('#stories > li')).map(function (e) { return e.id + ':' + e.querySelector('.story-title').textContent; }).join(' / ') + ' marker=' + window.__feedwebMarker + ' state=' + document.body.dataset.streamState"
            )
            let api = try await HTTPTestClient.get(port: feedweb.port, "/api/items").text
            Issue.record("page: \(ids)\napi: \(api.prefix(600))\nlog: \(feedweb.log.suffix(1500))")
        }
        #expect(shown, "the new story is on top and the edited one changed in place, without a reload")

        // A removal goes away too.
        try await server.push(
            Self.patch(
                [
                    .object(["op": .string("remove"), "path": .string("/results/5")]),
                    .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(7)]),
                ], id: "3"))
        #expect(
            try await browser.waitFor(
                "return !document.getElementById('item-\(first)') && window.__feedwebMarker === 'kept'", seconds: 3))
        // After frames that only carried what was new and gone, the page has the feed's
        // order exactly.
        let keys = try JSONValue(parsing: try await HTTPTestClient.get(port: feedweb.port, "/api/items").text)
            .arrayValue?.compactMap { $0["key"]?.stringValue }
        let domOrder = try await browser.execute(
            "return Array.from(document.querySelectorAll('#stories > li')).map(function (e) { return e.id; }).join(' ')"
        )
        #expect(domOrder == .string((keys ?? []).map { "item-" + $0 }.joined(separator: " ")))
        let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
        #expect(severe.isEmpty, "console errors: \(severe)")
        await browser.quit()
        await server.shutdown()
    }

    @Test func detailPageUpdatesItselfAndSaysWhenItsStoryLeft() async throws {
        let (server, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        let fourth = try await Self.key(of: "Story number 4", port: feedweb.port)
        let browser = try await WebDriver()
        try await browser.open("http://127.0.0.1:\(feedweb.port)/items/\(fourth)")
        try await browser.execute("window.__feedwebMarker = 'kept'; return true")
        #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
        #expect(try await browser.execute("return document.getElementById('gone').hidden") == .bool(true))

        // Story 4 is at index 1 (newest first: 5, 4, 3, 2, 1).
        try await server.push(
            Self.patch(
                [
                    .object([
                        "op": .string("replace"), "path": .string("/results/1/title"),
                        "value": .string("A corrected headline"),
                    ]),
                    .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(6)]),
                ], id: "2"))
        #expect(
            try await browser.waitFor(
                """
                return window.__feedwebMarker === 'kept'
                  && document.querySelector('.detail-title').textContent === 'A corrected headline';
                """, seconds: 3))

        try await server.push(
            Self.patch(
                [
                    .object(["op": .string("remove"), "path": .string("/results/1")]),
                    .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(7)]),
                ], id: "3"))
        #expect(
            try await browser.waitFor(
                "return window.__feedwebMarker === 'kept' && document.getElementById('gone').hidden === false",
                seconds: 3), "the page says the story has left the feed")
        let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
        #expect(severe.isEmpty, "console errors: \(severe)")
        await browser.quit()
        await server.shutdown()
    }

    @Test func statsPageFollowsTheFeedWithoutReload() async throws {
        let (server, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        let browser = try await WebDriver()
        try await browser.open("http://127.0.0.1:\(feedweb.port)/stats")
        try await browser.execute("window.__feedwebMarker = 'kept'; return true")
        #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
        let bytesBefore = try await browser.execute("return document.getElementById('stats-bytes').outerHTML")

        // A new story in a section the feed never had: the ticker shows it at once.
        try await server.push(
            Self.patch(
                [
                    .object([
                        "op": .string("add"), "path": .string("/results/0"),
                        "value": NewswireFeed.story(6, section: "Travel"),
                    ]),
                    .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(6)]),
                ], id: "2"))
        #expect(
            try await browser.waitFor(
                """
                return window.__feedwebMarker === 'kept'
                  && document.querySelector('#stats-ticker .ticker-title').textContent === 'Story number 6';
                """, seconds: 3), "the ticker shows the new story")

        // An edit: the ticker says so.
        try await server.push(
            Self.patch(
                [
                    .object([
                        "op": .string("replace"), "path": .string("/results/2/title"),
                        "value": .string("An edited headline"),
                    ]),
                    .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(7)]),
                ], id: "3"))
        #expect(
            try await browser.waitFor(
                """
                return window.__feedwebMarker === 'kept'
                  && document.querySelector('#stats-ticker .ticker-title').textContent === 'An edited headline'
                  && document.querySelector('#stats-ticker .ticker-label').textContent === 'Latest update';
                """, seconds: 3), "the ticker shows the edited story")

        // The charts are redrawn when the five-second window closes (the page stream's
        // one-second timer notices): the first document and both patches counted, the new
        // section marked, more bytes received.
        let charted = try await browser.waitFor(
            """
            var updates = document.querySelector('#stats-summary .tile-value');
            var marker = document.querySelector('#stats-rate .marker-new-section title');
            return window.__feedwebMarker === 'kept' && updates && updates.textContent === '3'
              && marker && marker.textContent.indexOf('New section') === 0 && marker.textContent.indexOf('Travel') > 0;
            """, seconds: 15)
        if !charted {
            let summary = try await browser.execute("return document.getElementById('stats-summary').textContent")
            let api = try await HTTPTestClient.get(port: feedweb.port, "/api/stats").text
            Issue.record("summary: \(summary)\napi: \(api.prefix(800))")
        }
        #expect(charted, "the charts follow without a reload")
        #expect(try await browser.execute("return document.getElementById('stats-bytes').outerHTML") != bytesBefore)
        #expect(
            try await browser.execute("return document.querySelectorAll('#stats-rate .series-updates polyline').length")
                == .int(1))

        let stats = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/stats").body)
        #expect(stats["totals"]?["changes"]?.int64Value == 3)
        #expect(stats["totals"]?["new_sections"]?.int64Value == 1)
        #expect((stats["totals"]?["bytes_received"]?.int64Value ?? 0) > 0)
        let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
        #expect(severe.isEmpty, "console errors: \(severe)")
        await browser.quit()
        await server.shutdown()
    }
}
