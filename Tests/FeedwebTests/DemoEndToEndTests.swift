import FeedCore
import Foundation
import TestSupport
import Testing

/// The walking skeleton, end to end through the real binary: demo upstream → loopback
/// subscription → state → `/` and `/events`.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct DemoEndToEndTests {
    @Test func listShowsTheDemoStoriesAndPatchesMatchThePage() async throws {
        let feedweb = try await FeedwebProcess(arguments: ["--demo-interval", "1"])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)

        // `/` is a complete server-rendered page listing the demo stories, newest first.
        let page = try await HTTPTestClient.get(port: feedweb.port, "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        let titles = HTMLText.storyTitles(in: page.text)
        #expect(!titles.isEmpty, "the demo's stories are listed")

        // /events: retry, then the whole document, then patches.
        let events = try await SSETestClient(port: feedweb.port)
        #expect(events.status == 200)
        #expect(events.headers["content-type"] == "text/event-stream; charset=utf-8")
        let data = try await events.next(type: "data", within: 10)
        var document = try JSONValue(parsing: data.data)
        var published = document["num_results"]?.doubleValue ?? 0

        // Apply patches until one publishes a new view that nothing overtook before we
        // looked at `/`; then `/` must show exactly that view's stories.
        var checked = false
        for _ in 0..<30 where !checked {
            let patchEvent = try await events.next(type: "patch", within: 10)
            try JSONPatch(parsing: patchEvent.data).apply(to: &document)
            let version = document["num_results"]?.doubleValue ?? 0
            guard version > published else { continue }  // guarded: not published
            published = version
            let html = try await HTTPTestClient.get(port: feedweb.port, "/").text
            let state = try await HTTPTestClient.get(port: feedweb.port, "/api/state")
            guard state.headers["etag"] == "\"\(patchEvent.id)\"" else { continue }  // overtaken; try the next
            #expect(try JSONValue(parsing: state.text) == document, "the served mirror equals data + patches")
            // The titles as the document itself has them, in feed order (not through the
            // item extractor under test).
            let expected = (document["results"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
                .map(HTMLText.escaped)
            #expect(HTMLText.storyTitles(in: html) == expected)
            checked = true
        }
        #expect(checked, "a published patch was seen and compared with the page")
    }

    @Test func healthAndReadiness() async throws {
        let feedweb = try await FeedwebProcess(arguments: [])
        defer { feedweb.kill() }
        #expect(try await HTTPTestClient.get(port: feedweb.port, "/healthz").status == 200)
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        let ready = try await HTTPTestClient.get(port: feedweb.port, "/readyz")
        let body = try JSONValue(parsing: ready.text)
        #expect(body["ready"] == .bool(true))
        #expect(body["upstream"]?["state"] == .string("open"))
    }
}
