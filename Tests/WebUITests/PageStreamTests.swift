import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// The page stream (`/events/page`): rendered HTML fragments as whole elements with the
/// ids the page has, sent for what changed, rendered once per change, not once per client.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct PageStreamTests {
    let server: TestServer

    init() throws {
        // Stories 4…0, newest first; num_results is the version the guard compares.
        server = try TestServer(document: NewswireFeed.document(count: 5, version: 5))
    }

    /// The stories of the list page as it is served now.
    func listEntries() async throws -> [StoryEntry] {
        StoryEntry.all(in: try await HTTPTestClient.get(port: server.port, "/").text)
    }

    /// The `items` event's data: the order of ids the page has after it (the whole
    /// `order`, or `prepend` and `remove` applied to `previous`), whether it came as such a
    /// delta, and the fragments by id.
    func items(_ event: SSEEvent, after previous: [String] = []) throws -> (
        order: [String], delta: Bool, html: [String: String]
    ) {
        let data = try JSONValue(parsing: event.data)
        let html = try #require(data["html"]?.objectValue)
        var fragments: [String: String] = [:]
        for (id, fragment) in html { fragments[id] = fragment.stringValue }
        if let order = data["order"]?.arrayValue {
            return (order.compactMap(\.stringValue), false, fragments)
        }
        let prepend = try #require(data["prepend"]?.arrayValue).compactMap(\.stringValue)
        let remove = Set(try #require(data["remove"]?.arrayValue).compactMap(\.stringValue))
        return (prepend + previous.filter { !remove.contains($0) }, true, fragments)
    }

    /// Parses `fragment` as HTML5 and returns its elements; it must be well-formed and
    /// have exactly one top-level element.
    func wholeElement(_ fragment: String) async throws -> ParsedHTML {
        let parsed = try await HTMLChecker.parse(fragment)
        let errors = parsed.errors.filter { $0.code != "expected-doctype-but-got-start-tag" }
        #expect(errors.isEmpty, "\(errors.prefix(3)) in \(fragment.prefix(200))")
        let trimmed = fragment.trimmingCharacters(in: .whitespacesAndNewlines)
        let entries = StoryEntry.all(in: trimmed)
        #expect(entries.count <= 1, "one element per fragment")
        #expect(trimmed.hasPrefix("<") && (trimmed.hasSuffix("</li>") || trimmed.hasSuffix("</article>")))
        return parsed
    }

    /// `story` with its title replaced.
    static func retitled(_ index: Int, _ title: String) -> JSONValue {
        NewswireFeed.story(index, title: title)
    }

    @Test func firstEventHasEveryStoryAsTheWholeElementOfThePage() async throws {
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        let first = try items(try await page.expectNext("items"))
        let entries = try await listEntries()
        #expect(entries.map(\.title) == (0..<5).reversed().map { "Story number \($0)" })
        // The same elements, in the same order, with the same ids as on the page.
        #expect(first.order == entries.map(\.id))
        #expect(Set(first.html.keys) == Set(entries.map(\.id)))
        for entry in entries {
            let fragment = try #require(first.html[entry.id])
            _ = try await wholeElement(fragment)
            let element = try #require(StoryEntry.all(in: fragment).first)
            #expect(element.id == entry.id)
            #expect(element.key == entry.key)
            #expect(element.title == entry.title)
        }
        // Then the badge, the page's `#status` element.
        let status = try JSONValue(parsing: try await page.expectNext("status").data)
        #expect(status["view"] == .string("list"))
        #expect(HTMLText.element(withID: "status", in: status["html"]?.stringValue ?? "")?.tag == "p")
    }

    @Test func aPatchedStoryArrivesAloneWithItsPageID() async throws {
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        let first = try items(try await page.expectNext("items"))
        _ = try await page.expectNext("status")
        let before = try await listEntries()
        let story2 = try #require(before.first { $0.title == "Story number 2" })

        // Story 2 is at index 2 of `results` (4, 3, 2, 1, 0); the version grows so the
        // change is published.
        let title = "Story two, revised & <updated>"
        let patch = try JSONPatch(
            json: .array([
                .object([
                    "op": .string("replace"), "path": .string("/results/2/title"), "value": .string(title),
                ]),
                .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(6)]),
            ]))
        try server.store.apply(patch)
        server.handlers.pageStreams.refresh()

        let change = try items(try await page.expectNext("items"), after: first.order)
        #expect(change.order == first.order, "nothing moved")
        #expect(change.delta, "not the whole order again")
        #expect(Array(change.html.keys) == [story2.id], "only the changed story is sent")
        let fragment = try #require(change.html[story2.id])
        _ = try await wholeElement(fragment)
        let element = try #require(StoryEntry.all(in: fragment).first)
        #expect(element.id == story2.id)
        #expect(element.title == HTMLText.escaped(title))
        #expect(!fragment.contains("<updated>"))
        _ = try await page.expectNext("status")

        // The page, fetched now, has the element with that id and the new title.
        let after = try await listEntries()
        #expect(after.first { $0.id == story2.id }?.title == HTMLText.escaped(title))
    }

    @Test func aNewStoryComesFirstAndARemovedOneGoes() async throws {
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        let first = try items(try await page.expectNext("items"))
        _ = try await page.expectNext("status")
        let before = try await listEntries()
        let story0 = try #require(before.first { $0.title == "Story number 0" })

        // Story 9 arrives on top; story 0 leaves.
        server.store.replaceDocument(NewswireFeed.document(stories: [9, 4, 3, 2, 1], version: 6))
        server.handlers.pageStreams.refresh()

        let change = try items(try await page.expectNext("items"), after: first.order)
        #expect(change.delta, "one story on top and one gone: not the whole order again")
        let after = try await listEntries()
        let story9 = try #require(after.first { $0.title == "Story number 9" })
        #expect(change.order == [story9.id] + first.order.filter { $0 != story0.id })
        #expect(Array(change.html.keys) == [story9.id], "only the new story is rendered")
        let fragment = try #require(change.html[story9.id])
        let element = try #require(StoryEntry.all(in: fragment).first)
        #expect(element.id == story9.id)
        #expect(element.title == "Story number 9")
        #expect(change.order == after.map(\.id), "the order the page now has")
        #expect(!change.order.contains(story0.id))
    }

    @Test func storiesThatSwapPlacesGetTheWholeOrderAgain() async throws {
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        let first = try items(try await page.expectNext("items"))
        _ = try await page.expectNext("status")

        // Stories 3 and 2 swap places; nothing else changes.
        server.store.replaceDocument(NewswireFeed.document(stories: [4, 2, 3, 1, 0], version: 6))
        server.handlers.pageStreams.refresh()

        let change = try items(try await page.expectNext("items"), after: first.order)
        #expect(!change.delta, "a move is not a prepend")
        #expect(change.order != first.order)
        let now = try await listEntries()
        #expect(change.order == now.map(\.id), "the order the page now has")
        #expect(change.html.isEmpty, "no story changed: nothing rendered")
    }

    @Test func detailStreamSendsTheArticleAndSaysWhenTheStoryIsGone() async throws {
        let entry = try #require(try await listEntries().first { $0.title == "Story number 3" })
        let detailPage = try await HTTPTestClient.get(port: server.port, "/items/" + entry.key).text
        let article = try #require(HTMLText.element(withID: "detail", in: detailPage))
        #expect(article.attributes["data-key"] == entry.key)

        let page = try await SSETestClient(port: server.port, path: "/events/page?view=item&key=" + entry.key)
        let first = try JSONValue(parsing: try await page.expectNext("item").data)
        let html = try #require(first["html"]?.stringValue)
        _ = try await wholeElement(html)
        // The element the page has, with the same id.
        #expect(HTMLText.element(withID: "detail", in: html)?.attributes["data-key"] == entry.key)
        _ = try await page.expectNext("status")

        // Story 3 (index 1 of 4, 3, 2, 1, 0) retitled.
        server.store.replaceDocument(
            NewswireFeed.document(
                [4, 3, 2, 1, 0].map { $0 == 3 ? Self.retitled(3, "Story three, revised") : NewswireFeed.story($0) },
                version: 6))
        server.handlers.pageStreams.refresh()
        let changed = try JSONValue(parsing: try await page.expectNext("item").data)
        let fresh = try #require(changed["html"]?.stringValue)
        #expect(HTMLText.element(withID: "detail", in: fresh)?.attributes["data-key"] == entry.key)
        #expect(fresh.contains("Story three, revised"))
        _ = try await page.expectNext("status")

        // Story 3 leaves the feed: `gone`, with its key.
        server.store.replaceDocument(NewswireFeed.document(stories: [4, 2, 1, 0], version: 7))
        server.handlers.pageStreams.refresh()
        #expect(
            try JSONValue(parsing: try await page.expectNext("gone").data)
                == .object(["view": .string("item:" + entry.key)]))
    }

    @Test func oneChangeIsRenderedOnceNotOncePerClient() async throws {
        let pageEvents = server.handlers.pageStreams.stream
        let start = pageEvents.fragmentRenderCount

        // The first client's first event renders the page's stories and its badge.
        var clients = [try await SSETestClient(port: server.port, path: "/events/page?view=list")]
        let firstItems = try items(try await clients[0].expectNext("items"))
        _ = try await clients[0].expectNext("status")
        #expect(pageEvents.fragmentRenderCount - start == UInt64(firstItems.html.count + 1))

        // Four more clients of the same page: the same bytes, nothing rendered again.
        for _ in 0..<4 {
            let client = try await SSETestClient(port: server.port, path: "/events/page?view=list")
            let again = try items(try await client.expectNext("items"))
            #expect(again.order == firstItems.order)
            _ = try await client.expectNext("status")
            clients.append(client)
        }
        let connected = pageEvents.fragmentRenderCount
        #expect(connected - start == UInt64(firstItems.html.count + 1))

        // One story changes: every client gets it; it is rendered once (plus the badge once).
        server.store.replaceDocument(
            NewswireFeed.document(
                [4, 3, 2, 1, 0].map { $0 == 1 ? Self.retitled(1, "Story one, revised") : NewswireFeed.story($0) },
                version: 6))
        server.handlers.pageStreams.refresh()
        var received: [[UInt8]] = []
        for client in clients {
            let change = try await client.expectNext("items")
            #expect(try items(change).html.count == 1)
            _ = try await client.expectNext("status")
            received.append(Array(change.data.utf8))
        }
        #expect(Set(received).count == 1, "every client got the same fragment")
        #expect(pageEvents.fragmentRenderCount - connected == 2, "one story and one badge, for five clients")
    }
}
