import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// The router and its handlers called directly with plain requests, no server and no
/// socket: status codes, headers and bodies, against what the test put in the store.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct RouterTests {
    let document = NewswireFeed.document(count: 6)
    let app: TestHandlers

    init() {
        app = TestHandlers(document: document)
    }

    /// The published items now, as the store holds them.
    var items: [FeedItem] { Array(app.store.snapshot?.published.items ?? []) }

    func json(_ response: PreparedResponse) throws -> JSONValue {
        try JSONValue(parsing: response.body)
    }

    // MARK: - Requests

    @Test func requestLookupsAreCaseInsensitiveAndTheFirstFieldWins() {
        let request = HTTPRequest(
            path: "/", query: ["Section": "Arts", "section": "World", "flag": ""],
            headers: ["last-event-id": "e-3", "Last-Event-ID": "e-9"])
        #expect(request.query("section") == "Arts")
        #expect(request.query("SECTION") == "Arts")
        #expect(request.query("flag") == "", "an argument without a value is empty, not missing")
        #expect(request.query("missing") == nil)
        #expect(request.header("LAST-EVENT-ID") == "e-3")
        #expect(request.lastEventID == "e-3")
        // The query arguments stand in for the header, in this order.
        #expect(HTTPRequest(path: "/", query: ["last_event_id": "b", "lastEventId": "a"]).lastEventID == "a")
        #expect(HTTPRequest(path: "/", query: ["section": ""]).sectionFilter == nil)
    }

    // MARK: - Errors

    @Test(arguments: ["POST", "PUT", "DELETE", "OPTIONS"])
    func otherMethodsGet405WithAllow(method: String) throws {
        let response = try app.respond(HTTPRequest(method: method, path: "/api/state"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self).contains("Method not allowed"))
    }

    @Test func anUnknownItemIs404AndAKnownOneIsItsPage() throws {
        let item = try #require(items.first)
        let page = try app.respond(HTTPRequest(path: "/items/" + item.key))
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(HTMLText.element(withID: "detail", in: html)?.attributes["data-key"] == item.key)

        let missing = try app.respond(HTTPRequest(path: "/items/" + item.key + "-gone"))
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("Not found"))

        let api = try app.respond(HTTPRequest(path: "/api/items/" + item.key))
        #expect(api.status == 200)
        #expect(try json(api) == item.json)
        let apiMissing = try app.respond(HTTPRequest(path: "/api/items/" + item.key + "-gone"))
        #expect(apiMissing.status == 404)
        #expect(apiMissing.header("Content-Type") == "application/json")
        #expect(try json(apiMissing) == .object(["error": .string("not found")]))
    }

    @Test func malformedRequestsGet400() throws {
        // A control character in the path (a decoded %00 arrives as DEL).
        for path in ["/items/a\u{7F}b", "/\u{01}"] {
            #expect(try app.respond(HTTPRequest(path: path)).status == 400, "\(path.debugDescription)")
        }
        // A page stream for a view that does not exist, or an item view without its key.
        let malformed: [KeyValuePairs<String, String>] = [
            ["view": "nope"], ["view": "item"], ["view": "item", "key": ""],
        ]
        for query in malformed {
            let response = try app.respond(HTTPRequest(path: "/events/page", query: query))
            #expect(response.status == 400, "\(query)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("Bad request"))
        }
    }

    // MARK: - API

    @Test func apiStateIsTheStoresDocumentWithAnETagAndA304() throws {
        let snapshot = try #require(app.store.snapshot)
        let response = try app.respond(HTTPRequest(path: "/api/state"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(try json(response) == document)
        let etag = "\"\(snapshot.id)\""
        #expect(response.header("ETag") == etag)

        for match in [etag, "\"other\", \(etag)", " \(etag) "] {
            let cached = try app.respond(HTTPRequest(path: "/api/state", headers: ["If-None-Match": match]))
            #expect(cached.status == 304, "If-None-Match: \(match)")
            #expect(cached.body.isEmpty)
            #expect(cached.header("ETag") == etag)
        }
        let other = try app.respond(HTTPRequest(path: "/api/state", headers: ["If-None-Match": "\"other\""]))
        #expect(other.status == 200)

        // After a change the old tag no longer matches.
        let changed = NewswireFeed.document(count: 7)
        app.store.replaceDocument(changed)
        let fresh = try app.respond(HTTPRequest(path: "/api/state", headers: ["If-None-Match": etag]))
        #expect(fresh.status == 200)
        #expect(try json(fresh) == changed)
        let next = try #require(app.store.snapshot)
        #expect(next.id.seq == snapshot.id.seq + 1)
        #expect(fresh.header("ETag") == "\"\(next.id)\"")
    }

    @Test func apiStateBeforeTheFirstDocumentIs503() throws {
        let empty = TestHandlers(document: nil)
        let response = try empty.respond(HTTPRequest(path: "/api/state"))
        #expect(response.status == 503)
        #expect(try json(response) == .object(["error": .string("no document yet")]))
    }

    @Test func apiItemsAreThePublishedItemsInOrder() throws {
        let response = try app.respond(HTTPRequest(path: "/api/items"))
        #expect(response.status == 200)
        #expect(try json(response) == .array(items.map(\.json)))
        let titles = try json(response).arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(titles == document["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue })
    }

    // MARK: - Pages

    @Test func aSectionFilterListsOnlyThatSectionsStories() throws {
        let section = NewswireFeed.sections[1]
        let expected = document["results"]?.arrayValue?.filter { $0["section"]?.stringValue == section }
            .compactMap { $0["title"]?.stringValue }
        let page = try app.respond(HTTPRequest(path: "/", query: ["section": section]))
        #expect(page.status == 200)
        #expect(HTMLText.storyTitles(in: String(decoding: page.body, as: UTF8.self)) == expected)
        let all = try app.respond(HTTPRequest(path: "/", query: ["section": ""]))
        #expect(
            HTMLText.storyTitles(in: String(decoding: all.body, as: UTF8.self))
                == document["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue })
    }

    @Test func aPageIsRenderedOncePerChange() throws {
        let cache = app.handlers.pages.cache
        let first = try app.respond(HTTPRequest(path: "/kiosk"))
        let renders = cache.renderCount
        #expect(try app.respond(HTTPRequest(path: "/kiosk")) === first, "the same prepared response")
        #expect(cache.renderCount == renders)
        app.store.replaceDocument(NewswireFeed.document(count: 7))
        #expect(try app.respond(HTTPRequest(path: "/kiosk")) !== first)
        #expect(cache.renderCount == renders + 1)
    }

    // MARK: - Health

    @Test func healthzIsOK() throws {
        let response = try app.respond(HTTPRequest(path: "/healthz"))
        #expect(response.status == 200)
        #expect(try json(response) == .object(["status": .string("ok")]))
    }

    @Test func readyzReportsTheDocumentTheSequenceAndTheUpstream() throws {
        let snapshot = try #require(app.store.snapshot)
        let ready = try app.respond(HTTPRequest(path: "/readyz"))
        #expect(ready.status == 200)
        let body = try json(ready)
        #expect(body["ready"] == .bool(true))
        #expect(body["document"] == .bool(true))
        #expect(body["sequence"]?.int64Value == Int64(snapshot.id.seq))
        #expect(body["upstream"]?["source"]?.stringValue == "test")
        #expect(body["upstream"]?["state"]?.stringValue == "open")

        let until = Date().addingTimeInterval(30)
        app.setStatus {
            $0.phase = .backingOff(until: until)
            $0.connectedSince = nil
            $0.lastError = "connection refused"
        }
        let backingOff = try app.respond(HTTPRequest(path: "/readyz"))
        #expect(backingOff.status == 503)
        let down = try json(backingOff)
        #expect(down["ready"] == .bool(false))
        #expect(down["document"] == .bool(true), "the document is still served")
        #expect(down["upstream"]?["state"]?.stringValue == "backing-off")
        #expect(down["upstream"]?["last_error"]?.stringValue == "connection refused")
        #expect(down["upstream"]?["next_attempt"]?.stringValue == RelativeTime.machine(until))

        let empty = try TestHandlers(document: nil).respond(HTTPRequest(path: "/readyz"))
        #expect(empty.status == 503)
        #expect(try json(empty)["document"] == .bool(false))
        #expect(try json(empty)["sequence"]?.isNull == true)
    }

    // MARK: - Streams

    @Test func eventsStartsWithTheStoresDocumentAndHeadHasOnlyTheHeaders() throws {
        let snapshot = try #require(app.store.snapshot)
        let start = try app.streamStart(HTTPRequest(path: "/events"))
        #expect(start.headers.map(\.0) == ["Content-Type", "Cache-Control", "X-Accel-Buffering"])
        #expect(start.headers.first?.1 == "text/event-stream; charset=utf-8")
        let events = try app.firstEvents(of: start)
        #expect(events.map(\.type) == ["data"])
        #expect(events.first?.id == snapshot.id.description)
        #expect(try JSONValue(parsing: Array((events.first?.data ?? "").utf8)) == document)

        let head = try app.respond(HTTPRequest(method: "HEAD", path: "/events"))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers.map(\.0) == start.headers.map(\.0))
    }

    @Test func eventsResumesFromLastEventIDAndHonoursAccept() throws {
        let before = try #require(app.store.snapshot)
        app.store.replaceDocument(NewswireFeed.document(count: 7))
        app.handlers.fanout.drain()
        let after = try #require(app.store.snapshot)

        // Resuming at the previous change: only the patch that followed it.
        let resumed = try app.firstEvents(
            of: app.streamStart(HTTPRequest(path: "/events", headers: ["Last-Event-ID": before.id.description])))
        #expect(resumed.map(\.type) == ["patch"])
        #expect(resumed.first?.id == after.id.description)
        // Up to date: nothing but `retry:`.
        let current = try app.firstEvents(
            of: app.streamStart(HTTPRequest(path: "/events", query: ["lastEventId": after.id.description])))
        #expect(current.isEmpty)

        // `Accept: application/json`: a full document on every change.
        let start = try app.streamStart(HTTPRequest(path: "/events", headers: ["Accept": "application/json"]))
        let stream = StreamConnection(maxQueuedBytes: start.maxQueuedBytes)
        let end = start.open(stream, on: app.shard)
        defer { end() }
        _ = stream.takeQueued()
        let third = NewswireFeed.document(count: 8)
        app.store.replaceDocument(third)
        app.handlers.fanout.drain()
        var parser = SSEParser()
        let events = try parser.parse(stream.takeQueued())
        #expect(events.map(\.type) == ["data"])
        #expect(try JSONValue(parsing: Array((events.first?.data ?? "").utf8)) == third)
    }

    @Test func itemEventsOfASectionStartWithThatSectionsItems() throws {
        let section = NewswireFeed.sections[2]
        let events = try app.firstEvents(
            of: app.streamStart(HTTPRequest(path: "/events/items", query: ["section": section])))
        #expect(events.map(\.type) == ["snapshot"])
        let titles = try JSONValue(parsing: Array((events.first?.data ?? "").utf8)).arrayValue?
            .compactMap { $0["title"]?.stringValue }
        let expected = document["results"]?.arrayValue?.filter { $0["section"]?.stringValue == section }
            .compactMap { $0["title"]?.stringValue }
        #expect(titles == expected)
        #expect(titles?.isEmpty == false)
    }

    @Test func aStreamIsSubscribedWhenOpenedAndUnsubscribedAtItsEnd() throws {
        let item = try #require(items.first)
        let start = try app.streamStart(HTTPRequest(path: "/events/page", query: ["view": "item", "key": item.key]))
        let pages = app.handlers.streams.pages.stream
        #expect(pages.clientCount == 0, "deciding on a stream subscribes nothing")
        let stream = StreamConnection(maxQueuedBytes: start.maxQueuedBytes)
        let end = start.open(stream, on: app.shard)
        #expect(pages.clientCount == 1)
        var parser = SSEParser()
        #expect(try parser.parse(stream.takeQueued()).map(\.type) == ["item", "status"])
        end()
        #expect(pages.clientCount == 0)
    }

    @Test func aStreamPastTheLimitIsRefusedWith503AndCounted() throws {
        var open = OpenStreams(limit: 2)
        let start = try app.streamStart(HTTPRequest(path: "/events"))
        let streams = (0..<3).map { _ in StreamConnection(maxQueuedBytes: start.maxQueuedBytes) }
        let admitted = streams.map { open.admit($0) }
        #expect(admitted == [true, true, false], "the third is past the limit")
        #expect(open.count == 2)

        // What the server sends the refused client.
        let refused = app.router.streamRefused()
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "5")
        #expect(refused.header("Content-Type") == "application/json")
        #expect(try json(refused) == .object(["error": .string("too many streams; retry later")]))
        #expect(app.handlers.streams.events.clientCount == 0, "a refused stream was never subscribed")
        let metrics = String(decoding: try app.respond(HTTPRequest(path: "/metrics")).body, as: UTF8.self)
        #expect(metrics.split(separator: "\n").contains("feedweb_stream_refused_total 1"), "\(metrics)")

        // A stream that ends frees its place; once stopping, none is admitted.
        open.remove(streams[0])
        let freed = open.admit(streams[2])
        #expect(freed)
        let stillOpen = open.stop()
        #expect(Set(stillOpen.map(ObjectIdentifier.init)) == Set(streams[1...].map(ObjectIdentifier.init)))
        let whileStopping = open.admit(StreamConnection(maxQueuedBytes: 1))
        #expect(!whileStopping)
    }

    // MARK: - Static files

    @Test func aStaticFileHasItsBytesAndAStrongETag() throws {
        let onDisk = try Data(contentsOf: URL(fileURLWithPath: TestHandlers.publicDirectory + "/app.js"))
        let response = try app.respond(HTTPRequest(path: "/static/app.js"))
        #expect(response.status == 200)
        #expect(response.body == [UInt8](onDisk))
        #expect(response.header("Content-Type") == "text/javascript; charset=utf-8")
        let etag = try #require(response.header("ETag"))
        let cached = try app.respond(HTTPRequest(path: "/static/app.js", headers: ["If-None-Match": etag]))
        #expect(cached.status == 304)
        #expect(cached.body.isEmpty)
        #expect(try app.respond(HTTPRequest(path: "/static/nope.js")).status == 404)
    }
}
