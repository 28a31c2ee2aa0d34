import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// One page stream carrying several views (`/events/page?v=…&v=…`): what the pages of a
/// browser partition share. Every event names its view; each view gets its whole state
/// once, or nothing but its badge when it resumes at the current id; a change reaches every
/// view it touches on the one connection.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct PageStreamViewsTests {
    let server: TestServer

    init() throws {
        server = try TestServer(document: NewswireFeed.document(count: 5, version: 5))
    }

    /// The key of the story titled `title` now.
    private func key(of title: String) throws -> String {
        try #require(server.store.snapshot?.published.items.first { $0.title == title }?.key)
    }

    /// Reads events until one of each of `count` views' `status` has come (a view's first
    /// frame ends with its badge), returning them all.
    private func firstFrames(_ page: SSETestClient, views count: Int) async throws -> [(
        type: String, data: JSONValue, id: String
    )] {
        var events: [(type: String, data: JSONValue, id: String)] = []
        var statuses = 0
        while statuses < count {
            let event = try await page.next(before: Date().addingTimeInterval(5))
            events.append((event.type, try JSONValue(parsing: event.data), event.id))
            if event.type == "status" { statuses += 1 }
        }
        return events
    }

    @Test("several views on one stream: each view's whole state once, every event naming its view")
    func severalViews() async throws {
        let key = try key(of: "Story number 2")
        let query = "v=list&v=list:World&v=item:\(key)&v=stats&v=kiosk"
        let page = try await SSETestClient(port: server.port, path: "/events/page?" + query)
        #expect(page.status == 200)
        let events = try await firstFrames(page, views: 5)
        let views = Set(events.compactMap { $0.data["view"]?.stringValue })
        #expect(views == ["list", "list:World", "item:\(key)", "stats", "kiosk"])
        let types = Dictionary(grouping: events, by: { $0.data["view"]?.stringValue ?? "" }).mapValues {
            $0.map(\.type)
        }
        #expect(types["list"] == ["items", "status"])
        #expect(types["kiosk"] == ["items", "status"])
        #expect(types["item:\(key)"] == ["item", "status"])
        #expect(types["stats"] == ["stats", "status"])
        let current = try #require(server.store.snapshot?.published.id.description)
        #expect(events.allSatisfy { $0.id == current })

        // One change, an edit of that story: the list's frame and the detail's, on this
        // connection, each once.
        let patch = try JSONPatch(
            json: .array([
                .object([
                    "op": .string("replace"), "path": .string("/results/2/title"), "value": .string("Two, revised"),
                ]),
                .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(6)]),
            ]))
        try server.store.apply(patch)
        server.handlers.pageStreams.refresh()
        var changed: [String: [String]] = [:]
        let next = try #require(server.store.snapshot?.published.id.description)
        while changed["list"]?.contains("items") != true || changed["item:\(key)"]?.contains("item") != true {
            let event = try await page.next(before: Date().addingTimeInterval(5))
            let data = try JSONValue(parsing: event.data)
            #expect(event.id == next, "\(event.type) \(data)")
            changed[data["view"]?.stringValue ?? "", default: []].append(event.type)
        }
        let detail = try #require(changed["item:\(key)"])
        #expect(detail.filter { $0 == "item" }.count == 1, "the detail once: \(detail)")
    }

    @Test("a view resuming at the current id gets only its badge; one behind gets its whole state")
    func resumePerView() async throws {
        let current = try #require(server.store.snapshot?.published.id)
        let key = try key(of: "Story number 1")
        let behind = EventID(epoch: current.epoch, seq: current.seq - 1)
        let page = try await SSETestClient(
            port: server.port, path: "/events/page?v=list@\(current)&v=item:\(key)@\(behind)&v=kiosk")
        let events = try await firstFrames(page, views: 3)
        let types = Dictionary(grouping: events, by: { $0.data["view"]?.stringValue ?? "" }).mapValues {
            $0.map(\.type)
        }
        #expect(types["list"] == ["status"], "up to date: nothing but the badge")
        #expect(types["item:\(key)"] == ["item", "status"], "behind: the whole state")
        #expect(types["kiosk"] == ["items", "status"], "new: the whole state")
    }

    @Test(
        "bad view lists are 400",
        arguments: [
            "v=bogus", "v=item", "v=item:", "v=stats:x", "v=list&v=nope",
            (0...PageEventStream.maxViews).map { "v=item:k\($0)" }.joined(separator: "&"),
        ])
    func badViews(_ query: String) async throws {
        let response = try await HTTPTestClient.get(port: server.port, "/events/page?" + query)
        #expect(response.status == 400, "\(query.prefix(60))")
    }

    @Test("a page of an earlier version (?view=) gets the same stream for its one view")
    func oneViewAsBefore() async throws {
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=kiosk&section=World")
        let events = try await firstFrames(page, views: 1)
        #expect(events.map(\.type) == ["items", "status"])
        #expect(events.allSatisfy { $0.data["view"] == .string("kiosk:World") })
    }

    @Test(
        "/metrics counts page streams, the views they carry and the fragments rendered; a heartbeat reaches a stream once"
    )
    func countedAndHeartbeatOnce() async throws {
        let first = try await SSETestClient(port: server.port, path: "/events/page?v=list&v=stats&v=kiosk")
        _ = try await firstFrames(first, views: 3)
        let second = try await SSETestClient(port: server.port, path: "/events/page?v=list")
        _ = try await firstFrames(second, views: 1)
        let metrics = try PrometheusText(
            parsing: try await HTTPTestClient.get(port: server.port, "/metrics").text)
        #expect(metrics.value("feedweb_page_streams") == 2)
        #expect(metrics.value("feedweb_page_stream_views") == 4)
        let rendered = server.handlers.pageStreams.stream.fragmentRenderCount
        #expect(rendered > 0, "the first frames' fragments")
        #expect(metrics.value("feedweb_page_fragments_rendered_total") == Double(rendered))

        server.handlers.pageStreams.stream.broadcaster.broadcastToAll(SSEEncoder.event(type: "reload", data: "v2"))
        #expect(try await first.next(type: "reload", within: 5).data == "v2")
        first.close()
        second.close()
        let quiet = try await SSETestClient(port: server.port, path: "/events/page?v=list&v=kiosk")
        _ = try await firstFrames(quiet, views: 2)
        server.handlers.pageStreams.stream.broadcaster.broadcastToAll(SSEEncoder.event(type: "reload", data: "v3"))
        let after = try await quiet.events(untilQuietFor: 0.5)
        #expect(after.filter { $0.type == "reload" }.count == 1, "once per stream, not once per view")
    }
}
