import FeedCore
import Foundation
import TestSupport
import Testing

/// `/events/items` end to end: the published view at item level, filtered and resumed.
@Suite(.serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct StreamItemsTests {
    /// Stories 5…1: odd ones in Science, even ones in World.
    static func start() async throws -> (LiveFeedUpstream, FeedwebProcess) {
        let stories = [5, 4, 3, 2, 1].map { NewswireFeed.story($0, section: $0 % 2 == 0 ? "World" : "Science") }
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories))
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url])
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        return (upstream, feedweb)
    }

    /// The index in the upstream's `results` of story `n`.
    static func position(of n: Int, in upstream: LiveFeedUpstream) throws -> Int {
        let url = NewswireFeed.story(n)["url"]
        return try #require(upstream.document["results"]?.arrayValue?.firstIndex { $0["url"] == url })
    }

    /// The normalised item of story `n` as `/api/items` has it now.
    static func apiItem(_ n: Int, in items: [JSONValue]) throws -> JSONValue {
        let url = NewswireFeed.story(n)["url"]
        return try #require(items.first { $0["url"] == url }, "story \(n) is in /api/items")
    }

    /// Waits until feedweb has the upstream's document; returns `/api/items` and the id.
    static func caughtUp(_ upstream: LiveFeedUpstream, port: UInt16) async throws -> (items: [JSONValue], id: String) {
        let id = try await FeedwebProbe.waitForState(upstream.document, port: port)
        return (try await FeedwebProbe.items(port: port), id)
    }

    @Test func snapshotThenAddedUpdatedRemovedWithTheSectionFilter() async throws {
        let (upstream, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        let all = try await SSETestClient(port: feedweb.port, path: "/events/items")
        let world = try await SSETestClient(port: feedweb.port, path: "/events/items?section=World")
        #expect(all.headers["content-type"] == "text/event-stream; charset=utf-8")

        // The snapshot is /api/items (filtered for World), with the state's id.
        let (items, id) = try await Self.caughtUp(upstream, port: feedweb.port)
        let snapshot = try await all.expectNext("snapshot")
        #expect(try JSONValue(parsing: snapshot.data) == .array(items))
        #expect(snapshot.id == id)
        let worldSnapshot = try await world.expectNext("snapshot")
        let worldItems = items.filter { $0["section"] == .string("World") }
        #expect(try JSONValue(parsing: worldSnapshot.data) == .array(worldItems))
        #expect(worldItems.count == 2, "stories 4 and 2")

        // Added (story 6, World): both streams.
        try await upstream.change([Patch.add("/results/0", NewswireFeed.story(6, section: "World"))])
        var now = try await Self.caughtUp(upstream, port: feedweb.port)
        let added = try await all.expectNext("added")
        #expect(added.id == now.id)
        #expect(try JSONValue(parsing: added.data) == Self.apiItem(6, in: now.items), "the normalised item")
        let worldAdded = try await world.expectNext("added")
        #expect(try JSONValue(parsing: worldAdded.data) == Self.apiItem(6, in: now.items))

        // Updated (story 3, Science): only the unfiltered stream.
        try await upstream.change([
            Patch.replace("/results/\(Self.position(of: 3, in: upstream))/title", .string("A new headline"))
        ])
        now = try await Self.caughtUp(upstream, port: feedweb.port)
        let updated = try await all.expectNext("updated")
        #expect(updated.id == now.id)
        let item3 = try Self.apiItem(3, in: now.items)
        #expect(try JSONValue(parsing: updated.data) == item3)
        #expect(item3["title"] == .string("A new headline"))

        // A change the version guard holds back publishes nothing.
        try await upstream.change([Patch.replace("/status", .string("held back"))], bumpVersion: false)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)

        // Story 3 moves into World: updated for all, added for World.
        try await upstream.change([
            Patch.replace("/results/\(Self.position(of: 3, in: upstream))/section", .string("World"))
        ])
        now = try await Self.caughtUp(upstream, port: feedweb.port)
        let moved = try await all.expectNext("updated")
        #expect(moved.id == now.id, "the held-back change sent nothing before this one")
        #expect(try JSONValue(parsing: moved.data) == Self.apiItem(3, in: now.items))
        let movedIn = try await world.expectNext("added")
        #expect(movedIn.id == now.id, "World saw nothing of the edit in Science")
        #expect(try JSONValue(parsing: movedIn.data) == Self.apiItem(3, in: now.items))

        // Story 4 moves out of World: updated for all, removed for World.
        let key4 = try Self.apiItem(4, in: now.items)["key"]
        try await upstream.change([
            Patch.replace("/results/\(Self.position(of: 4, in: upstream))/section", .string("Science"))
        ])
        now = try await Self.caughtUp(upstream, port: feedweb.port)
        #expect(try await JSONValue(parsing: all.expectNext("updated").data) == Self.apiItem(4, in: now.items))
        let movedOut = try await world.expectNext("removed")
        #expect(movedOut.id == now.id)
        #expect(try JSONValue(parsing: movedOut.data)["key"] == key4)

        // Story 2 (World) leaves the feed: removed for both, with its key.
        let key2 = try Self.apiItem(2, in: now.items)["key"]
        try await upstream.change([Patch.remove("/results/\(Self.position(of: 2, in: upstream))")])
        now = try await Self.caughtUp(upstream, port: feedweb.port)
        #expect(!now.items.contains { $0["key"] == key2 })
        for stream in [all, world] {
            let removed = try await stream.expectNext("removed")
            #expect(removed.id == now.id)
            #expect(try JSONValue(parsing: removed.data)["key"] == key2)
        }
        #expect(
            try await all.events(untilQuietFor: 0.3, firstWithin: 0.3).isEmpty,
            "one event per item change, nothing more")
        #expect(try await world.events(untilQuietFor: 0.1, firstWithin: 0.1).isEmpty)
        await upstream.shutdown()
    }

    @Test func resumeInsideTheLogGetsOnlyTheMissedItemEvents() async throws {
        let (upstream, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        let first = try await SSETestClient(port: feedweb.port, path: "/events/items")
        let worldFirst = try await SSETestClient(port: feedweb.port, path: "/events/items?section=World")
        let snapshot = try await first.expectNext("snapshot")
        let worldSnapshot = try await worldFirst.expectNext("snapshot")
        first.close()
        worldFirst.close()

        // Missed: story 8 added (World), story 5 edited (Science), story 1 removed (Science).
        try await upstream.change([Patch.add("/results/0", NewswireFeed.story(8, section: "World"))])
        try await upstream.change([
            Patch.replace("/results/\(Self.position(of: 5, in: upstream))/abstract", .string("More detail."))
        ])
        let before = try await Self.caughtUp(upstream, port: feedweb.port)
        let key1 = try Self.apiItem(1, in: before.items)["key"]
        try await upstream.change([Patch.remove("/results/\(Self.position(of: 1, in: upstream))")])
        let now = try await Self.caughtUp(upstream, port: feedweb.port)

        let resumed = try await SSETestClient(
            port: feedweb.port, path: "/events/items", headers: ["Last-Event-ID": snapshot.id])
        let events = try await resumed.events(untilQuietFor: 0.6)
        #expect(events.map(\.type) == ["added", "updated", "removed"], "only the missed item events, no snapshot")
        let base = try #require(EventID(parsing: snapshot.id))
        #expect(events.map(\.id) == (1...3).map { EventID(epoch: base.epoch, seq: base.seq + UInt64($0)).description })
        #expect(try events.first.map { try JSONValue(parsing: $0.data) } == Self.apiItem(8, in: now.items))
        #expect(try events.dropFirst().first.map { try JSONValue(parsing: $0.data) } == Self.apiItem(5, in: now.items))
        #expect(try events.last.map { try JSONValue(parsing: $0.data)["key"] } == key1)

        // The World stream missed only the addition; the query form works as well.
        let worldResumed = try await SSETestClient(
            port: feedweb.port, path: "/events/items?section=World&lastEventId=\(worldSnapshot.id)")
        let worldEvents = try await worldResumed.events(untilQuietFor: 0.6)
        #expect(worldEvents.map(\.type) == ["added"])
        #expect(try worldEvents.first.map { try JSONValue(parsing: $0.data) } == Self.apiItem(8, in: now.items))

        // Both go on live.
        try await upstream.change([Patch.add("/results/0", NewswireFeed.story(9, section: "World"))])
        let live = try await Self.caughtUp(upstream, port: feedweb.port)
        #expect(try await resumed.expectNext("added").id == live.id)
        #expect(try await worldResumed.expectNext("added").id == live.id)

        // An id of another process gets a snapshot.
        let foreign = try await SSETestClient(
            port: feedweb.port, path: "/events/items", headers: ["Last-Event-ID": "zzzz-2"])
        #expect(try await JSONValue(parsing: foreign.expectNext("snapshot").data) == .array(live.items))
        await upstream.shutdown()
    }
}
