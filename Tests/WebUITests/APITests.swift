import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// The JSON API: `/api/state` (the mirror, with an ETag from the sequence number and 304
/// for a matching `If-None-Match`), `/api/items` and `/api/items/{key}` (normalized items).
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct APITests {
    let server: TestServer

    init() throws {
        server = try TestServer(document: NewswireFeed.document(count: 6))
    }

    /// Sends `GET path` with `headers` and reads everything until the server closes, so
    /// a body sent after a 304 would be seen.
    func rawGet(_ path: String, headers: [String: String]) async throws -> (
        status: Int, head: [String: String], rest: [UInt8]
    ) {
        let socket = try await RawSocket(port: server.port, timeout: 5)
        var request = "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try await socket.send(request + "\r\n")
        let (status, head) = try await HTTPTestClient.readHead(from: socket)
        return (status, head, try await socket.readToEnd())
    }

    /// The id of the first `data` event of `/events`: the mirror's `EPOCH-SEQ` now.
    func eventID() async throws -> String {
        let events = try await SSETestClient(port: server.port, path: "/events")
        defer { events.close() }
        return try await events.next(type: "data", within: 5).id
    }

    @Test func stateHasAnETagFromTheSequenceAndAMatchGets304WithoutABody() async throws {
        let first = try await HTTPTestClient.get(port: server.port, "/api/state")
        #expect(first.status == 200)
        #expect(first.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(try JSONValue(parsing: first.body) == NewswireFeed.document(count: 6))
        let etag = try #require(first.headers["etag"])
        // The sequence number of the only change so far (1), under this process's epoch:
        // the id `/events` gives the same state.
        let id = try await eventID()
        #expect(etag == "\"\(id)\"")
        #expect(id.hasSuffix("-1"), "\(id)")

        for match in [etag, "\"other\", \(etag)"] {
            let cached = try await rawGet("/api/state", headers: ["If-None-Match": match])
            #expect(cached.status == 304, "If-None-Match: \(match)")
            #expect(cached.rest.isEmpty, "a 304 has no body")
            #expect(cached.head["etag"] == etag)
        }
        // Another tag: the document.
        let other = try await HTTPTestClient.get(
            port: server.port, "/api/state", headers: ["If-None-Match": "\"nope-1\""])
        #expect(other.status == 200)
        #expect(try JSONValue(parsing: other.body) == NewswireFeed.document(count: 6))

        // After a change the old tag no longer matches: 200, the new document, a new tag.
        let changed = NewswireFeed.document(count: 7)
        server.store.replaceDocument(changed)
        server.handlers.fanout.drain()  // `/events`, which `eventID()` reads, has it too
        let fresh = try await HTTPTestClient.get(port: server.port, "/api/state", headers: ["If-None-Match": etag])
        #expect(fresh.status == 200)
        #expect(try JSONValue(parsing: fresh.body) == changed)
        let newTag = try #require(fresh.headers["etag"])
        #expect(newTag != etag)
        #expect(newTag == "\"\(try await eventID())\"")
        #expect(newTag.hasSuffix("-2\""), "\(newTag)")
        #expect(try await rawGet("/api/state", headers: ["If-None-Match": newTag]).status == 304)
    }

    @Test func itemsAreTheNormalizedStoriesInFeedOrder() async throws {
        let response = try await HTTPTestClient.get(port: server.port, "/api/items")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        let items = try #require(try JSONValue(parsing: response.body).arrayValue)
        #expect(items.compactMap { $0["title"]?.stringValue } == (0..<6).reversed().map { "Story number \($0)" })
        let keys = items.compactMap { $0["key"]?.stringValue }
        #expect(keys.count == 6 && Set(keys).count == 6, "a distinct key each")
        let urlSafe = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")
        for key in keys {
            #expect(!key.isEmpty && key.unicodeScalars.allSatisfy { urlSafe.contains($0) }, "\(key)")
        }
    }

    @Test(arguments: [0, 1, 2, 4])
    func oneItemHasTheStorysFields(index: Int) async throws {
        let list = try #require(
            try JSONValue(parsing: try await HTTPTestClient.get(port: server.port, "/api/items").body).arrayValue)
        let listed = try #require(list.first { $0["title"]?.stringValue == "Story number \(index)" })
        let key = try #require(listed["key"]?.stringValue)

        let response = try await HTTPTestClient.get(port: server.port, "/api/items/" + key)
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        let item = try JSONValue(parsing: response.body)
        #expect(item == listed, "the same object as in /api/items")

        // Against the story the test put in (NewswireFeed.story(index)).
        #expect(item["key"]?.stringValue == key)
        #expect(item["title"]?.stringValue == "Story number \(index)")
        #expect(item["section"]?.stringValue == NewswireFeed.sections[index % NewswireFeed.sections.count])
        if index % 2 == 0 {
            #expect(item["subsection"]?.stringValue == "Europe")
        } else {
            #expect(item["subsection"]?.isNull == true || item["subsection"]?.stringValue == "", "no subsection")
        }
        #expect(item["abstract"]?.stringValue == "What happened in story \(index), in one sentence.")
        #expect(item["byline"]?.stringValue == "By Sam Writer")
        #expect(item["url"]?.stringValue == "https://www.nytimes.com/2026/11/22/world/story-\(index).html")
        #expect(item["published"]?.stringValue == "2026-11-22T09:0\(index):00-05:00")
        #expect(item["updated"]?.stringValue == "2026-11-22T09:30:00-05:00")
        let multimedia = try #require(item["multimedia"]?.arrayValue)
        if index % 3 == 0 {
            #expect(item["thumbnail"]?.isNull == true || item["thumbnail"]?.stringValue == "", "no thumbnail")
            #expect(multimedia.isEmpty, "NYT's \"\" is no images")
        } else {
            #expect(item["thumbnail"]?.stringValue == "/static/demo/globe.svg")
            #expect(multimedia.count == 1)
            #expect(multimedia.first?["url"]?.stringValue == "/static/demo/globe.svg")
            #expect(multimedia.first?["caption"]?.stringValue == "A caption for \(index).")
            #expect(multimedia.first?["credit"]?.stringValue == "Photographer")
            #expect(multimedia.first?["width"]?.int64Value == 600)
            #expect(multimedia.first?["height"]?.int64Value == 400)
        }
        let related = try #require(item["related"]?.arrayValue)
        #expect(related.count == 1)
        #expect(related.first?["url"]?.stringValue == "https://example.org/\(index)")
        #expect(related.first?.objectValue?.values.contains(.string("Background")) == true)

        // The key is the one `/items/{key}` uses.
        let page = try await HTTPTestClient.get(port: server.port, "/items/" + key)
        #expect(page.status == 200)
        #expect(HTMLText.element(withID: "detail", in: page.text)?.attributes["data-key"] == key)
    }

    @Test func anItemThatLeftTheFeedIsA404() async throws {
        let list = try #require(
            try JSONValue(parsing: try await HTTPTestClient.get(port: server.port, "/api/items").body).arrayValue)
        let key = try #require(list.first { $0["title"]?.stringValue == "Story number 0" }?["key"]?.stringValue)
        server.store.replaceDocument(NewswireFeed.document(stories: [5, 4, 3, 2, 1], version: 7))
        let response = try await HTTPTestClient.get(port: server.port, "/api/items/" + key)
        #expect(response.status == 404)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
    }
}
