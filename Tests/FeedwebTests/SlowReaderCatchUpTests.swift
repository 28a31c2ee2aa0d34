import FeedCore
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// A client that keeps reading, but slower than upstream changes come, is not dropped when
/// its unsent bytes reach the bound: it gets the newest state in place of its backlog, in
/// band (a fresh `data` on `/events`, a `snapshot` on `/events/items`), so that folding what
/// it got, in order, gives exactly the state. A fast reader beside it gets every change.
///
/// The slow reader takes at most ``slowPace``, a seventh or less of what the flood sends
/// even on a loaded machine, so it falls behind by the bound plus the kernel buffers on the
/// way whatever the timing; the flood goes on until the server has caught a client up (or
/// a cap). The pace is still fast enough that libmicrohttpd finds room in its socket
/// several times within the stall rule's 5 s.
///
/// In ``StreamBackpressureTests``, a serialized suite, so that no two floods compete for
/// the machine's cores.
extension StreamBackpressureTests {
    /// Unsent bytes per client: a fast reader may fall ~20 patches behind (the daemon thread
    /// missing the CPU for a while on two busy cores) without being caught up.
    static let bound = 1024 * 1024
    /// The slow reader: 128 KiB/s at most, 4 KiB at a time; the flood sends 1-2 MB/s even
    /// on a loaded machine. Its 4 KiB receive buffer and 1 KiB segments keep the server's
    /// kernel buffers for it at ~300 KB (~2.6 MB with loopback's 64 KiB segments), so
    /// libmicrohttpd finds room to write, and the stall clock restarts, about every 0.5 s.
    static let slowPace = BackgroundSSEReader.Pace(bytesPerSecond: 128 * 1024, chunk: 4 * 1024)
    static let slowReceiveBuffer: Int32 = 4096
    static let slowMaxSegment: Int32 = 1024
    /// Patches sent after the server was first seen catching a client up, so the slow
    /// reader gets patches after a fresh state, and more catch-ups.
    static let patchesAfterCatchUp = 60
    /// The most patches a flood sends (~48 MB of 48 KiB patches).
    static let floodCap = 1000

    /// A counter of `/metrics` for `stream`.
    static func streamCounter(_ name: String, stream: String, port: UInt16) async throws -> Double {
        let metrics = try await HTTPTestClient.get(port: port, "/metrics", timeout: 5)
        return try PrometheusText(parsing: metrics.text).value(name, ["stream": stream]) ?? 0
    }

    /// An upstream with `document` (five stories by default), a feedweb on it with ``bound``
    /// and a short history, and a fast and a slow reader on `path`, once feedweb holds the
    /// upstream's state.
    static func startWithReaders(
        on path: String, document: JSONValue = NewswireFeed.document(stories: [5, 4, 3, 2, 1])
    ) async throws -> (
        upstream: LiveFeedUpstream, feedweb: InProcessFeedweb, fast: BackgroundSSEReader, slow: BackgroundSSEReader
    ) {
        let upstream = try await LiveFeedUpstream(document: document)
        let feedweb = try InProcessFeedweb(upstream: upstream.url) {
            $0.streams.maxQueuedBytesPerClient = Self.bound
            $0.history = 8
        }
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port, within: 10)
        let fast = try await BackgroundSSEReader(port: feedweb.port, path: path)
        let slow = try await BackgroundSSEReader(
            port: feedweb.port, path: path, receiveBuffer: Self.slowReceiveBuffer, maxSegment: Self.slowMaxSegment,
            pace: Self.slowPace)
        return (upstream, feedweb, fast, slow)
    }

    /// Change `k` of a flood of stories with 48 KiB abstracts, each marked `k=N;`: two in
    /// three put a new story on top and drop the last (`added` and `removed` items), the
    /// third rewrites the second story's abstract (`updated`).
    static func pushStoryChange(_ k: Int, to upstream: LiveFeedUpstream) async throws {
        let abstract = JSONValue.string("k=\(k);" + String(repeating: "a", count: 48 * 1024))
        if k % 3 == 0 {
            try await upstream.change([Patch.replace("/results/1/abstract", abstract)])
        } else {
            var story = NewswireFeed.story(1000 + k, title: "Flood story \(k)")
            if case .object(var object) = story {
                object["abstract"] = abstract
                story = .object(object)
            }
            try await upstream.change([Patch.add("/results/0", story), Patch.remove("/results/5")])
        }
    }

    /// Floods with `push` until the server has caught a client of `stream` up and
    /// ``patchesAfterCatchUp`` more were sent, or the slow reader ended, or the cap.
    static func flood(
        stream: String, port: UInt16, slow: BackgroundSSEReader, push: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> UpstreamFlood {
        let caughtUpAt = NIOLockedValueBox<Int?>(nil)
        return try await UpstreamFlood.run(
            upTo: floodCap, pause: .milliseconds(10), push: push,
            until: { k in
                if slow.endedByServer || slow.failure != nil { return true }
                if caughtUpAt.withLockedValue({ $0 }) == nil, k % 10 == 0,
                    try await streamCounter("feedweb_stream_catchups_total", stream: stream, port: port) >= 1
                {
                    caughtUpAt.withLockedValue { $0 = k }
                }
                return caughtUpAt.withLockedValue { $0 }.map { k >= $0 + patchesAfterCatchUp } ?? false
            })
    }

    /// Once feedweb has every change (its state is `id`): lets the slow reader read at full
    /// speed, waits until both readers have the event with `id` (or one of them ended), and
    /// returns the bytes the slow reader had still to take: its backlog, which the catch-up
    /// keeps within the bound plus the kernel buffers on the way (0.3-0.8 MB seen) and the
    /// event partly sent. Were the backlog kept and the fresh event added to it, it would
    /// grow by an event per change: 4-16 MB here.
    static func drain(slow: BackgroundSSEReader, fast: BackgroundSSEReader, to id: String) async throws -> Int {
        let taken = slow.receivedBytes
        slow.unpace()
        try await Eventually.check("the readers to reach \(id)", within: 60, poll: .milliseconds(50)) {
            [slow, fast].allSatisfy { reader in
                reader.endedByServer || reader.failure != nil || reader.events.last?.event.id == id
            }
        }
        return slow.receivedBytes - taken
    }

    /// `/events` events folded in order (a `data` replaces the document, a `patch` applies),
    /// checking their ids: one epoch, each patch the next change after the event before it
    /// (never a silent gap), each `data` newer than the event before it. Returns the
    /// document and how many `data` events came after the first event.
    static func foldDocumentEvents(_ events: [SSEEvent], _ who: String) throws -> (document: JSONValue, freshData: Int)
    {
        let first = try #require(events.first, "\(who) got events")
        #expect(first.type == "data", "\(who) starts with the document")
        var document = try JSONValue(parsing: first.data)
        var previous = try #require(EventID(parsing: first.id))
        var freshData = 0
        for event in events.dropFirst() {
            let id = try #require(EventID(parsing: event.id), "\(who): id \(event.id)")
            #expect(id.epoch == previous.epoch)
            switch event.type {
            case "patch":
                #expect(id.seq == previous.seq + 1, "\(who): patch \(id) right after \(previous)")
                try JSONPatch(parsing: event.data).apply(to: &document)
            case "data":
                #expect(id.seq > previous.seq, "\(who): data \(id) after \(previous)")
                document = try JSONValue(parsing: event.data)
                freshData += 1
            default:
                Issue.record("\(who): unexpected event \(event.type)")
            }
            previous = id
        }
        return (document, freshData)
    }

    /// `/events/items` events folded in order (a `snapshot` replaces the items, `added` and
    /// `updated` put the item by key, `removed` deletes it), checking their ids: one epoch,
    /// a `snapshot` newer than the event before it, any other event of the same change as
    /// the event before it or of the next one (never a silent gap: in these floods every
    /// change is published and adds or updates an item). Returns the items by key and how
    /// many snapshots came after the first event.
    static func foldItemEvents(_ events: [SSEEvent], _ who: String) throws -> (
        items: [String: JSONValue], freshSnapshots: Int
    ) {
        let first = try #require(events.first, "\(who) got events")
        #expect(first.type == "snapshot", "\(who) starts with a snapshot")
        func byKey(_ snapshot: SSEEvent) throws -> [String: JSONValue] {
            let items = try #require(JSONValue(parsing: snapshot.data).arrayValue)
            return try Dictionary(uniqueKeysWithValues: items.map { (try #require($0["key"]?.stringValue), $0) })
        }
        var items = try byKey(first)
        var previous = try #require(EventID(parsing: first.id))
        var freshSnapshots = 0
        for event in events.dropFirst() {
            let id = try #require(EventID(parsing: event.id), "\(who): id \(event.id)")
            #expect(id.epoch == previous.epoch)
            let item = try JSONValue(parsing: event.data)
            if event.type == "snapshot" {
                #expect(id.seq > previous.seq, "\(who): snapshot \(id) after \(previous)")
                items = try byKey(event)
                freshSnapshots += 1
            } else {
                #expect(
                    id.seq == previous.seq || id.seq == previous.seq + 1,
                    "\(who): \(event.type) \(id) right after \(previous)")
                let key = try #require(item["key"]?.stringValue)
                switch event.type {
                case "added", "updated": items[key] = item
                case "removed": #expect(items.removeValue(forKey: key) != nil, "\(who): removed \(key) was there")
                default: Issue.record("\(who): unexpected event \(event.type)")
                }
            }
            previous = id
        }
        return (items, freshSnapshots)
    }

    @Test func aSlowEventsReaderGetsAFreshDataInPlaceOfItsBacklogAndEndsWithTheState() async throws {
        var initial = NewswireFeed.document(stories: [3, 2, 1])
        if case .object(var object) = initial {
            object["padding"] = .string("")
            initial = .object(object)
        }
        let (upstream, feedweb, fast, slow) = try await Self.startWithReaders(on: "/events", document: initial)
        let port = feedweb.port
        try await Eventually.check("the readers to get the document", within: 10) {
            [fast, slow].allSatisfy { $0.events.first?.event.type == "data" }
        }

        // 48 KiB patches, one every 10 ms or so.
        let padding = String(repeating: "p", count: 48 * 1024)
        let flood = try await Self.flood(stream: "events", port: port, slow: slow) { k in
            try await upstream.change([Patch.replace("/padding", .string("k=\(k);" + padding))], bumpVersion: false)
        }
        let id = try await FeedwebProbe.waitForState(upstream.document, port: port, within: 20)
        let backlog = try await Self.drain(slow: slow, fast: fast, to: id)
        #expect(
            backlog < Self.bound + 2 * 1024 * 1024,
            "the slow reader's backlog stayed within the bound: \(backlog) bytes")

        // The slow reader: never dropped, caught up in band, and it ends with the state.
        #expect(!slow.endedByServer, "the slow reader was not dropped")
        #expect(slow.failure == nil, "slow reader: \(slow.failure ?? "")")
        let slowEvents = slow.events.map(\.event)
        let (slowDocument, freshData) = try Self.foldDocumentEvents(slowEvents, "the slow reader")
        #expect(freshData >= 1, "the slow reader got a fresh data after its first event")
        let slowPatches = slowEvents.filter { $0.type == "patch" }.count
        #expect(
            slowPatches < flood.sent, "its backlog was replaced, not sent: \(slowPatches) of \(flood.sent) patches")
        #expect(slowEvents.last?.id == id)
        let finalDocument = upstream.document
        let slowHoldsTheDocument = slowDocument == finalDocument
        #expect(slowHoldsTheDocument, "the slow reader's events fold to the upstream's document")
        let catchUps = try await Self.streamCounter("feedweb_stream_catchups_total", stream: "events", port: port)
        #expect(catchUps >= 1)
        #expect(try await Self.streamCounter("feedweb_stream_dropped_clients_total", stream: "events", port: port) == 0)

        // The fast reader: every patch once, in order, and no fresh data.
        #expect(!fast.endedByServer && fast.failure == nil, "fast reader: \(fast.failure ?? "ended")")
        let fastEvents = fast.events.map(\.event)
        let (fastDocument, fastFreshData) = try Self.foldDocumentEvents(fastEvents, "the fast reader")
        #expect(fastFreshData == 0, "the fast reader was never caught up")
        #expect(fastEvents.compactMap(Self.floodNumber) == Array(1...flood.sent), "every patch, in order")
        let fastHoldsTheDocument = fastDocument == finalDocument
        #expect(fastHoldsTheDocument, "the fast reader's events fold to the upstream's document")

        // Both connections are still open.
        #expect(try await Self.streamCounter("feedweb_stream_clients", stream: "events", port: port) == 2)
        print(
            "catch-up /events: \(flood.sent) patches in \(Date().timeIntervalSince(flood.start)) s;"
                + " slow reader got \(slowEvents.count) events, backlog \(backlog) B, \(freshData) fresh data; \(catchUps) catch-ups"
        )

        await fast.stop()
        await slow.stop()
        try await feedweb.stop()
        await upstream.shutdown()
    }

    @Test func aSlowItemsReaderGetsAFreshSnapshotInPlaceOfItsBacklogAndEndsWithTheItems() async throws {
        let (upstream, feedweb, fast, slow) = try await Self.startWithReaders(on: "/events/items")
        let port = feedweb.port
        try await Eventually.check("the readers to get the snapshot", within: 10) {
            [fast, slow].allSatisfy { $0.events.first?.event.type == "snapshot" }
        }

        let flood = try await Self.flood(stream: "items", port: port, slow: slow) { k in
            try await Self.pushStoryChange(k, to: upstream)
        }
        let id = try await FeedwebProbe.waitForState(upstream.document, port: port, within: 20)
        let backlog = try await Self.drain(slow: slow, fast: fast, to: id)
        #expect(
            backlog < Self.bound + 2 * 1024 * 1024,
            "the slow reader's backlog stayed within the bound: \(backlog) bytes")
        let apiItems = try await FeedwebProbe.items(port: port)
        let expected = try Dictionary(
            uniqueKeysWithValues: apiItems.map { (try #require($0["key"]?.stringValue), $0) })
        #expect(expected.count == 5)

        // The slow reader: never dropped, caught up in band, and it ends with /api/items.
        #expect(!slow.endedByServer, "the slow reader was not dropped")
        #expect(slow.failure == nil, "slow reader: \(slow.failure ?? "")")
        let slowEvents = slow.events.map(\.event)
        let (slowItems, freshSnapshots) = try Self.foldItemEvents(slowEvents, "the slow reader")
        #expect(freshSnapshots >= 1, "the slow reader got a fresh snapshot after its first event")
        let slowChanges = slowEvents.filter { $0.type == "added" || $0.type == "updated" }.count
        #expect(
            slowChanges < flood.sent, "its backlog was replaced, not sent: \(slowChanges) of \(flood.sent) changes")
        #expect(slowEvents.last?.id == id)
        #expect(slowItems.mapValues { $0["title"]?.stringValue } == expected.mapValues { $0["title"]?.stringValue })
        let slowHoldsTheItems = slowItems == expected
        #expect(slowHoldsTheItems, "the slow reader's events fold to /api/items, every field")
        let catchUps = try await Self.streamCounter("feedweb_stream_catchups_total", stream: "items", port: port)
        #expect(catchUps >= 1)
        #expect(try await Self.streamCounter("feedweb_stream_dropped_clients_total", stream: "items", port: port) == 0)

        // The fast reader: every change, no fresh snapshot.
        #expect(!fast.endedByServer && fast.failure == nil, "fast reader: \(fast.failure ?? "ended")")
        let fastEvents = fast.events.map(\.event)
        let (fastItems, fastFreshSnapshots) = try Self.foldItemEvents(fastEvents, "the fast reader")
        #expect(fastFreshSnapshots == 0, "the fast reader was never caught up")
        #expect(fastEvents.filter { $0.type != "removed" }.compactMap(Self.floodNumber) == Array(1...flood.sent))
        let fastHoldsTheItems = fastItems == expected
        #expect(fastHoldsTheItems, "the fast reader's events fold to /api/items, every field")

        #expect(try await Self.streamCounter("feedweb_stream_clients", stream: "items", port: port) == 2)
        print(
            "catch-up /events/items: \(flood.sent) changes in \(Date().timeIntervalSince(flood.start)) s;"
                + " slow reader got \(slowEvents.count) events, backlog \(backlog) B, \(freshSnapshots) fresh snapshots; \(catchUps) catch-ups"
        )

        await fast.stop()
        await slow.stop()
        try await feedweb.stop()
        await upstream.shutdown()
    }
}
