import FeedCore
import Foundation
import TestSupport
import Testing

/// An open page that reads slower than its frames come is not dropped when its unsent bytes
/// reach the bound (its EventSource would reconnect and render the whole page again, and a
/// page on a busy kiosk could go on being dropped): it gets its channel's whole state in
/// place of its backlog, in band, one `items` frame with the whole order, as on connect.
/// Folding what it got, in order, gives the list `/api/items` holds.
///
/// In ``StreamBackpressureTests``, a serialized suite, with its slow reader and flood
/// (``StreamBackpressureTests/flood(stream:port:slow:push:)``).
extension StreamBackpressureTests {
    /// A list page as the page script holds it: dom ids in order and each one's fragment.
    struct FoldedListPage {
        var order: [String] = []
        var html: [String: String] = [:]
        /// `items` frames with a whole `order` after the first: catch-ups (the flood's frames
        /// put stories on top and drop the last, or update one, so they are deltas).
        var wholeFrames = 0
    }

    /// `/events/page?view=list` events folded in order, as the page script does: an
    /// `items` frame with `order` replaces the order, one with `prepend` and `remove`
    /// changes it; either brings fragments. Checks one epoch and ids that never go back.
    static func foldListPage(_ events: [SSEEvent], _ who: String) throws -> FoldedListPage {
        var page = FoldedListPage()
        var previous: EventID?
        var frames = 0
        for event in events where event.type == "items" || event.type == "status" {
            let id = try #require(EventID(parsing: event.id), "\(who): id \(event.id)")
            if let previous {
                #expect(id.epoch == previous.epoch)
                #expect(id.seq >= previous.seq, "\(who): \(id) after \(previous)")
            }
            previous = id
            guard event.type == "items" else { continue }
            frames += 1
            let frame = try JSONValue(parsing: event.data)
            if let order = frame["order"]?.arrayValue {
                page.order = try order.map { try #require($0.stringValue) }
                if frames > 1 { page.wholeFrames += 1 }
            } else {
                let prepend = try (frame["prepend"]?.arrayValue ?? []).map { try #require($0.stringValue) }
                let remove = Set(try (frame["remove"]?.arrayValue ?? []).map { try #require($0.stringValue) })
                page.order = prepend + page.order.filter { !remove.contains($0) }
            }
            for (domID, fragment) in frame["html"]?.objectValue ?? [:] {
                let html: String = try #require(fragment.stringValue, "\(who): fragment \(domID)")
                page.html[domID] = html
            }
        }
        return page
    }

    /// The flood's marker (`k=N;`) in an abstract or a fragment; `nil` for a story the
    /// flood never wrote.
    static func floodMarker(_ text: String) -> Int? {
        guard let match = text.firstMatch(of: /k=([0-9]+);/) else { return nil }
        return Int(match.1)
    }

    @Test func aSlowListPageGetsItsWholeListInPlaceOfItsBacklogAndEndsWithTheItems() async throws {
        let (upstream, feedweb, fast, slow) = try await Self.startWithReaders(on: "/events/page?view=list")
        let port = feedweb.port
        try await Eventually.check("the pages to get their list", within: 10) {
            [fast, slow].allSatisfy { $0.events.contains { $0.event.type == "items" } }
        }

        // The list shows the flood's 48 KiB abstracts whole.
        let flood = try await Self.flood(stream: "page", port: port, slow: slow) { k in
            try await Self.pushStoryChange(k, to: upstream)
        }
        let id = try await FeedwebProbe.waitForState(upstream.document, port: port, within: 20)
        let backlog = try await Self.drain(slow: slow, fast: fast, to: id)
        #expect(
            backlog < Self.bound + 2 * 1024 * 1024,
            "the slow page's backlog stayed within the bound: \(backlog) bytes")

        // What the page should show: /api/items' order, each story with its abstract.
        let apiItems = try await FeedwebProbe.items(port: port)
        let expectedOrder = try apiItems.map { "item-" + (try #require($0["key"]?.stringValue)) }
        let expectedMarkers = try apiItems.map { Self.floodMarker(try #require($0["abstract"]?.stringValue)) }
        #expect(expectedOrder.count == 5)

        for (reader, who) in [(slow, "the slow page"), (fast, "the fast page")] {
            #expect(!reader.endedByServer, "\(who) was not dropped")
            #expect(reader.failure == nil, "\(who): \(reader.failure ?? "")")
            let page = try Self.foldListPage(reader.events.map(\.event), who)
            #expect(page.order == expectedOrder, "\(who) shows /api/items' order")
            let markers = expectedOrder.map { page.html[$0].flatMap(Self.floodMarker) }
            #expect(markers == expectedMarkers, "\(who) shows each story's newest abstract")
            if reader === slow {
                #expect(page.wholeFrames >= 1, "the slow page got its whole list after its first frame")
            } else {
                #expect(page.wholeFrames == 0, "the fast page was never caught up")
            }
        }
        let catchUps = try await Self.streamCounter("feedweb_stream_catchups_total", stream: "page", port: port)
        #expect(catchUps >= 1)
        #expect(try await Self.streamCounter("feedweb_stream_dropped_clients_total", stream: "page", port: port) == 0)
        #expect(try await Self.streamCounter("feedweb_stream_clients", stream: "page", port: port) == 2)
        print(
            "catch-up /events/page: \(flood.sent) changes in \(Date().timeIntervalSince(flood.start)) s;"
                + " slow page got \(slow.events.count) events, backlog \(backlog) B; \(catchUps) catch-ups")

        await fast.stop()
        await slow.stop()
        try await feedweb.stop()
        await upstream.shutdown()
    }
}
