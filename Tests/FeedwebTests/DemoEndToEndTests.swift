import FeedCore
import Foundation
import TestSupport
import Testing

/// The walking skeleton, end to end through the real binary: demo upstream → loopback
/// subscription → state → `/` and `/events`.
@Suite(.timeLimit(.minutes(2)))
struct DemoEndToEndTests {
    @Test func listShowsTheDemoStoriesAndPatchesMatchThePage() throws {
        let feedweb = try FeedwebProcess(arguments: ["--demo-interval", "1"])
        defer { feedweb.stop() }
        try waitUntilReady(feedweb.port)

        // `/` is a complete server-rendered page listing the demo stories, newest first.
        let page = try HTTPTestClient.get(port: feedweb.port, "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        let titles = HTMLText.storyTitles(in: page.text)
        #expect(titles.count == 20, "the demo starts with 20 stories")

        // /events: retry, then the whole document, then patches.
        let events = try SSETestClient(port: feedweb.port)
        #expect(events.status == 200)
        #expect(events.headers["content-type"] == "text/event-stream; charset=utf-8")
        let data = try events.next(type: "data", within: 10)
        var document = try JSONValue(parsing: data.data)
        var published = document["num_results"]?.doubleValue ?? 0
        let extractor = ItemExtractor(profile: .nytNewswire)

        // Apply patches until one publishes a new view that nothing overtook before we
        // looked at `/`; then `/` must show exactly that view's stories.
        var checked = false
        for _ in 0..<30 where !checked {
            let patchEvent = try events.next(type: "patch", within: 10)
            try JSONPatch(parsing: patchEvent.data).apply(to: &document)
            let version = document["num_results"]?.doubleValue ?? 0
            guard version > published else { continue }  // guarded: not published
            published = version
            let html = try HTTPTestClient.get(port: feedweb.port, "/").text
            let state = try HTTPTestClient.get(port: feedweb.port, "/api/state")
            guard state.headers["etag"] == "\"\(patchEvent.id)\"" else { continue }  // overtaken; try the next
            #expect(try JSONValue(parsing: state.text) == document, "the served mirror equals data + patches")
            let expected = extractor.items(in: document).map { HTMLText.escaped($0.title ?? "Untitled") }
            #expect(HTMLText.storyTitles(in: html) == expected)
            checked = true
        }
        #expect(checked, "a published patch was seen and compared with the page")
    }

    @Test func healthAndReadiness() throws {
        let feedweb = try FeedwebProcess(arguments: [])
        defer { feedweb.stop() }
        #expect(try HTTPTestClient.get(port: feedweb.port, "/healthz").status == 200)
        try waitUntilReady(feedweb.port)
        let ready = try HTTPTestClient.get(port: feedweb.port, "/readyz")
        let body = try JSONValue(parsing: ready.text)
        #expect(body["ready"] == .bool(true))
        #expect(body["upstream"]?["state"] == .string("open"))
    }

    private func waitUntilReady(_ port: UInt16, seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let response = try? HTTPTestClient.get(port: port, "/readyz"), response.status == 200 { return }
            usleep(100_000)
        }
        Issue.record("feedweb did not become ready within \(seconds) s")
        throw RawSocket.Failure.timeout
    }
}
