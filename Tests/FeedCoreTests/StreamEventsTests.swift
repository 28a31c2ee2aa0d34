import FeedCore
import TestSupport
import Testing

/// The events feedweb's streams send, made once per change in FeedCore (`DocumentEvents`,
/// `ItemEvents`), read back by the SSE parser every client is tested against.
@Suite("Stream events", .onThreadsOfItsOwn)
struct StreamEventsTests {
    private func events(_ bytes: [UInt8]) throws -> [SSEEvent] {
        var parser = SSEParser()
        return try parser.parse(bytes)
    }

    private func store(_ document: JSONValue) -> FeedStore {
        let store = FeedStore(configuration: .init(profile: .nytNewswire))
        _ = store.replaceDocument(document)
        return store
    }

    @Test func aDataEventCarriesTheWholeDocumentWhetherOrNotItsBytesWereMadeBefore() throws {
        // Hostile strings: line breaks, a line separator and a would-be field in a title.
        let document = NewswireFeed.document([
            NewswireFeed.story(1, title: "one\nevent: patch\r\ndata: x"), NewswireFeed.story(2, title: "two\u{2028}"),
        ])
        let snapshot = try #require(store(document).snapshot)
        #expect(snapshot.encodedDocumentIfMade == nil, "the store has not made the document's bytes yet")
        let straight = DocumentEvents.data(of: snapshot)
        _ = snapshot.encodedDocument
        let fromMade = DocumentEvents.data(of: snapshot)
        #expect(straight == fromMade, "the same bytes either way")

        let parsed = try events(straight)
        #expect(parsed.map(\.type) == ["data"])
        #expect(parsed.first?.id == snapshot.id.description)
        #expect(try JSONValue(parsing: Array((parsed.first?.data ?? "").utf8)) == document)
    }

    @Test func aPatchEventCarriesThePatchAsTheStoreEncodedIt() throws {
        let store = store(NewswireFeed.document(stories: [1, 2]))
        let text = #"[{"op":"replace","path":"/results/0/title","value":"new\ntitle"}]"#
        let change = try #require(try store.apply(JSONPatch(parsing: Array(text.utf8))))
        guard case .patch(_, let encoded) = change.kind else {
            Issue.record("a patch is kept as a patch")
            return
        }
        let parsed = try events(DocumentEvents.patch(id: change.snapshot.id, encodedPatch: encoded))
        #expect(parsed.map(\.type) == ["patch"])
        #expect(parsed.first?.id == change.snapshot.id.description)
        #expect(try JSONValue(parsing: Array((parsed.first?.data ?? "").utf8)) == JSONValue(parsing: Array(text.utf8)))
        #expect(String(decoding: DocumentEvents.retry(), as: UTF8.self) == "retry: 2000\n\n")
    }

    @Test func itemEventsOfASectionHoldOnlyThatSectionsItems() throws {
        let store = store(NewswireFeed.document(stories: [1, 2, 3, 4]))
        let before = try #require(store.snapshot?.published)
        // Story 5 is in Arts, story 8 in World; story 4 (World) leaves.
        _ = store.replaceDocument(NewswireFeed.document(stories: [5, 8, 1, 2, 3]))
        let after = try #require(store.snapshot?.published)
        let changes = after.itemChanges(since: before)
        let id = after.id

        let all = try events(ItemEvents.changes(changes, section: nil, id: id, withOwn: false))
        #expect(all.map(\.type).sorted() == ["added", "added", "removed"])
        #expect(all.allSatisfy { $0.id == id.description })

        let world = try events(ItemEvents.changes(changes, section: "World", id: id, withOwn: false))
        let worldData = try world.map { try JSONValue(parsing: Array($0.data.utf8)) }
        #expect(world.map(\.type).sorted() == ["added", "removed"])
        #expect(worldData.allSatisfy { $0["section"]?.stringValue == "World" })
        let removed = try #require(zip(world, worldData).first { $0.0.type == "removed" }?.1)
        let left = try #require(before.items.first { $0.title == "Story number 4" })
        #expect(removed["key"]?.stringValue == left.key)

        #expect(ItemEvents.changes(changes, section: "Nowhere", id: id, withOwn: false).isEmpty)

        let snapshot = try events(ItemEvents.snapshot(of: after, section: "Arts"))
        #expect(snapshot.map(\.type) == ["snapshot"])
        let titles = try JSONValue(parsing: Array((snapshot.first?.data ?? "").utf8)).arrayValue?
            .compactMap { $0["title"]?.stringValue }
        let expected = after.items.filter { $0.section == "Arts" }.compactMap { $0.title }
        #expect(titles == expected)
        #expect(titles?.isEmpty == false)
    }
}
