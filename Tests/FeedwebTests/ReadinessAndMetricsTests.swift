import FeedCore
import Foundation
import TestSupport
import Testing

/// `/readyz` and `/metrics` through the real binary on a scripted upstream.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct ReadinessAndMetricsTests {
    static func metrics(port: UInt16) async throws -> PrometheusText {
        let response = try await HTTPTestClient.get(port: port, "/metrics", timeout: 5)
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        return try PrometheusText(parsing: response.text)
    }

    @Test("/readyz: 503 while connected without a document, 200 once the first document arrives")
    func readinessFollowsTheFirstDocument() async throws {
        // Upstream answers with an open stream but sends nothing until the test says so.
        let upstream = try await ScriptedSSEServer.start { _ in .stream([], ending: .stayOpen) }
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url("/feed")])
        defer { feedweb.kill() }
        _ = try await upstream.waitForRequests(1)

        // Connected, no document: not ready, and the body says why.
        let before = try await Eventually.value("the stream to be open", within: 5) { () -> JSONValue? in
            let response = try await HTTPTestClient.get(port: feedweb.port, "/readyz", timeout: 2)
            let body = try JSONValue(parsing: response.body)
            return body["upstream"]?["state"]?.stringValue == "open" ? body : nil
        }
        let notReady = try await HTTPTestClient.get(port: feedweb.port, "/readyz", timeout: 2)
        #expect(notReady.status == 503)
        #expect(before["ready"] == .bool(false))
        #expect(before["document"] == .bool(false))

        let document = NewswireFeed.document(stories: [3, 2, 1])
        try await upstream.push(
            bytes: SSEEncoder.event(type: "data", data: document.serializedString(), id: "u1"))
        try await FeedwebProbe.waitUntilReady(port: feedweb.port, within: 5)
        let ready = try await HTTPTestClient.get(port: feedweb.port, "/readyz", timeout: 2)
        let body = try JSONValue(parsing: ready.body)
        #expect(ready.status == 200)
        #expect(body["ready"] == .bool(true))
        #expect(body["sequence"]?.int64Value == 1)

        // Upstream goes away: not ready again, though the document is kept.
        await upstream.shutdown()
        try await Eventually.check("/readyz to turn 503 after upstream left", within: 5) {
            try await HTTPTestClient.get(port: feedweb.port, "/readyz", timeout: 2).status == 503
        }
        #expect(try await FeedwebProbe.state(port: feedweb.port).document == document, "the document is kept")
    }

    @Test("/metrics parses as Prometheus text and its counters grow with events in and out")
    func metricsGrowWithEvents() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        // The committer counts an event once the change is in place, so a scrape may see the
        // document before the event that brought it is counted.
        let first = try await Eventually.value("the first document to be counted", within: 5) {
            () -> PrometheusText? in
            let text = try await Self.metrics(port: feedweb.port)
            return (text.value("feedweb_upstream_events_total") ?? 0) >= 1 ? text : nil
        }
        for family in [
            "feedweb_upstream_events_total", "feedweb_upstream_bytes_total", "feedweb_upstream_reconnects_total",
            "feedweb_upstream_rejected_patches_total", "feedweb_stream_clients", "feedweb_stream_events_total",
            "feedweb_stream_bytes_total", "feedweb_page_render_seconds", "feedweb_fanout_seconds",
        ] {
            #expect(first.types[family] != nil, "\(family) is declared")
        }
        #expect(first.value("feedweb_upstream_connected") == 1)
        #expect(first.value("feedweb_document_loaded") == 1)
        #expect(first.value("feedweb_items") == 5)
        #expect(first.value("feedweb_stream_clients", ["stream": "events"]) == 0)
        let eventsIn = try #require(first.value("feedweb_upstream_events_total"))
        let bytesIn = try #require(first.value("feedweb_upstream_bytes_total"))
        #expect(eventsIn >= 1)

        // A client on /events and three patches from upstream.
        let client = try await SSETestClient(port: feedweb.port)
        _ = try await client.next(type: "data", within: 5)
        let connected = try await Self.metrics(port: feedweb.port)
        #expect(connected.value("feedweb_stream_clients", ["stream": "events"]) == 1)
        let outBefore = try #require(connected.value("feedweb_stream_events_total", ["stream": "events"]))
        let fanoutsBefore = connected.value("feedweb_fanout_seconds_count", ["stream": "events"]) ?? 0
        for n in 0..<3 {
            try await upstream.change([Patch.add("/results/0", NewswireFeed.story(200 + n))])
            _ = try await client.next(type: "patch", within: 5)
        }
        // One malformed patch: rejected, counted, state kept.
        try await upstream.server.push(bytes: SSEEncoder.event(type: "patch", data: "[{\"op\":\"frobnicate\"}]"))
        let after = try await Eventually.value("the rejected patch and the 4 events to be counted", within: 5) {
            () -> PrometheusText? in
            let text = try await Self.metrics(port: feedweb.port)
            let counted = (text.value("feedweb_upstream_events_total") ?? 0) >= eventsIn + 4
            return text.value("feedweb_upstream_rejected_patches_total") == 1 && counted ? text : nil
        }
        #expect(after.value("feedweb_upstream_events_total") == eventsIn + 4)
        #expect(try #require(after.value("feedweb_upstream_bytes_total")) > bytesIn)
        #expect(after.value("feedweb_stream_events_total", ["stream": "events"]) == outBefore + 3)
        #expect(after.value("feedweb_fanout_seconds_count", ["stream": "events"]) == fanoutsBefore + 3)
        #expect(after.value("feedweb_items") == 8)
        let added = try #require(after.value("feedweb_item_changes_total", ["kind": "added"]))
        #expect(added - (connected.value("feedweb_item_changes_total", ["kind": "added"]) ?? 0) == 3)
        #expect(
            try #require(after.value("feedweb_changes_total")) - (connected.value("feedweb_changes_total") ?? 0) == 3)
        #expect(try #require(after.value("feedweb_stream_bytes_total", ["stream": "events"])) > 0)
        #expect(try #require(after.value("feedweb_process_resident_memory_bytes")) > 1_000_000)
        await upstream.shutdown()
    }

    @Test("a stream refused at --max-clients is counted")
    func refusedStreamsAreCounted() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--max-clients", "1"])
        defer { feedweb.kill() }
        let client = try await SSETestClient(port: feedweb.port)
        _ = try await client.next(type: "data", within: 5)
        let refused = try await HTTPTestClient.get(port: feedweb.port, "/events", timeout: 5)
        #expect(refused.status == 503)
        let text = try await Self.metrics(port: feedweb.port)
        #expect(text.value("feedweb_stream_refused_total") == 1)
        #expect(text.value("feedweb_stream_clients", ["stream": "events"]) == 1)
        await upstream.shutdown()
    }
}
