import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import FeedCore

@Suite("Feed statistics", .onThreadsOfItsOwn)
struct FeedStatisticsTests {
    /// A wall-clock time on a five-second boundary, so the offsets below read as positions
    /// in windows: t0 + 0 ..< t0 + 5 is window `i0`.
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let i0 = StatsBucket.index(of: t0)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    static func change(bytes: Int = 1000, added: Int = 0, updated: Int = 0, removed: Int = 0) -> StatsEvent {
        .accepted(
            AcceptedChange(documentBytes: bytes, published: true, added: added, updated: updated, removed: removed))
    }

    // MARK: Bucketing

    @Test("windows are aligned to five seconds since 1970")
    func windowIndex() {
        #expect(Self.i0 * 5 == 1_800_000_000)
        #expect(StatsBucket.index(of: Self.at(4.999)) == Self.i0)
        #expect(StatsBucket.index(of: Self.at(5)) == Self.i0 + 1)
        #expect(StatsBucket.index(of: Self.at(-0.001)) == Self.i0 - 1)
        #expect(StatsBucket(index: Self.i0 + 3).start == Self.at(15))
    }

    @Test("events at known times land in their windows")
    func eventsLandInTheirBuckets() throws {
        var stats = FeedStatistics(startedAt: Self.at(0))
        stats.record(Self.change(added: 2), at: Self.at(1))
        stats.record(Self.change(updated: 1), at: Self.at(4.9))
        stats.record(.received(bytes: 100), at: Self.at(5))
        stats.record(Self.change(removed: 3), at: Self.at(5))
        stats.record(.received(bytes: 50), at: Self.at(9.99))
        stats.record(Self.change(), at: Self.at(12))
        // The window filling now is not shown yet.
        stats.record(Self.change(), at: Self.at(20.5))

        let window = stats.window(at: Self.at(21))
        #expect(window.endIndex == Self.i0 + 4)
        #expect(window.buckets.count == FeedStatistics.windowBuckets)
        #expect(window.start == Self.at(20 - 600))
        #expect(window.end == Self.at(20))
        // Windows before counting started have no data; the last four are i0 ... i0 + 3.
        #expect(window.buckets.dropLast(4).allSatisfy { $0 == nil })
        let shown = Array(window.buckets.suffix(4))
        #expect(shown.map { $0?.index } == [Self.i0, Self.i0 + 1, Self.i0 + 2, Self.i0 + 3])
        #expect(shown.map { $0?.changes } == [2, 1, 1, 0])
        #expect(shown.map { $0?.added } == [2, 0, 0, 0])
        #expect(shown.map { $0?.updated } == [1, 0, 0, 0])
        #expect(shown.map { $0?.removed } == [0, 3, 0, 0])
        #expect(shown.map { $0?.bytesReceived } == [0, 150, 0, 0])
        // Totals count everything, the open window too.
        #expect(window.totals.changes == 5)
        #expect(window.totals.itemsAdded == 2)
        #expect(window.totals.itemsRemoved == 3)
        #expect(window.totals.bytesReceived == 150)
        #expect(window.sum.changes == 4)
    }

    @Test("an event stamped a little in the past still lands in its own window")
    func lateEventLandsInItsWindow() {
        var stats = FeedStatistics(startedAt: Self.at(0))
        stats.record(Self.change(), at: Self.at(30))
        stats.record(Self.change(), at: Self.at(7))
        let window = stats.window(at: Self.at(40))
        #expect(window.buckets.last(where: { $0?.index == Self.i0 + 1 })??.changes == 1)
        #expect(window.buckets.last(where: { $0?.index == Self.i0 + 6 })??.changes == 1)
    }

    @Test("windows older than ten minutes roll off, and so do their notable events")
    func oldBucketsRollOff() {
        var stats = FeedStatistics(startedAt: Self.at(0))
        stats.record(Self.change(), at: Self.at(1))
        stats.record(.reconnect(reason: "end of stream"), at: Self.at(2))
        stats.record(Self.change(), at: Self.at(300))

        // Window i0 is the oldest of the 120 shown until time reaches i0 + 121.
        let kept = stats.window(at: Self.at(604.9))
        #expect(kept.buckets.first??.index == Self.i0)
        #expect(kept.buckets.first??.changes == 1)
        #expect(kept.notable.map(\.kind) == [.reconnect])
        #expect(kept.sum.changes == 2)

        let rolled = stats.window(at: Self.at(605))
        #expect(rolled.buckets.first??.index == Self.i0 + 1)
        #expect(!rolled.buckets.contains { $0?.index == Self.i0 })
        #expect(rolled.notable.isEmpty)
        #expect(rolled.sum.changes == 1)
        #expect(stats.retained.notable == 0, "the rolled-off event is freed, not only hidden")
        // The totals still count both.
        #expect(rolled.totals.changes == 2)
        #expect(rolled.totals.reconnects == 1)

        // An event older than every kept window counts in the totals only.
        stats.record(Self.change(), at: Self.at(3))
        let after = stats.window(at: Self.at(606))
        #expect(after.sum.changes == 1)
        #expect(after.totals.changes == 3)
        #expect(!after.buckets.contains { $0?.index == Self.i0 })
    }

    @Test("memory stays bounded over a simulated day of a busy, hostile feed")
    func boundedOverADay() {
        var stats = FeedStatistics(startedAt: Self.at(0))
        let day = 86_400
        var expectedChanges: UInt64 = 0
        var expectedBytes: UInt64 = 0
        for second in 0..<day {
            let time = Self.at(Double(second))
            stats.record(.received(bytes: 200), at: time)
            expectedBytes += 200
            if second % 3 == 0 {
                // A section never seen before every time: the worst case for the set.
                let change = AcceptedChange(
                    documentBytes: 30_000, published: true, added: 1, sections: ["World", "Section \(second)"])
                stats.record(.accepted(change), at: time)
                expectedChanges += 1
            }
            if second % 10 == 0 { stats.record(.reconnect(reason: "flapping"), at: time) }
            if second % 600 == 0 {
                let retained = stats.retained
                #expect(retained.buckets == FeedStatistics.windowBuckets + 1)
                #expect(retained.notable <= FeedStatistics.maxNotableEvents)
                #expect(retained.sections <= FeedStatistics.maxSections)
            }
        }
        let window = stats.window(at: Self.at(Double(day)))
        #expect(window.buckets.count == FeedStatistics.windowBuckets)
        #expect(window.notable.count <= FeedStatistics.maxNotableEvents)
        #expect(stats.retained.buckets == FeedStatistics.windowBuckets + 1)
        #expect(stats.retained.sections == FeedStatistics.maxSections)
        #expect(window.totals.changes == expectedChanges)
        #expect(window.totals.bytesReceived == expectedBytes)
        #expect(window.totals.reconnects == UInt64(day / 10))
        // Sections are remembered up to the bound: the first document's two are the
        // baseline, then one new one per change until the set is full.
        #expect(window.totals.newSections == UInt64(FeedStatistics.maxSections - 2))
        // The last ten minutes: 600 s of 200 bytes, one change every 3 s.
        #expect(window.sum.bytesReceived == 600 * 200)
        #expect(window.sum.changes == 200)
        #expect(window.buckets.allSatisfy { $0 != nil })
    }

    // MARK: Notable events

    @Test("new sections, guard regressions and rejected patches come from the store's changes")
    func notableEventsFromTheStore() throws {
        let store = FeedStore(configuration: .init(profile: .nytNewswire))
        let changes = NIOLockedValueBox<[FeedChange]>([])
        store.observe { change in changes.withLockedValue { $0.append(change) } }
        // Stories a…d are 1…4, each in the section given.
        func document(_ version: Int64, _ stories: [(String, String)]) -> JSONValue {
            let numbers = ["a": 1, "b": 2, "c": 3, "d": 4]
            return NewswireFeed.document(
                stories.map { NewswireFeed.story(numbers[$0.0] ?? 0, section: $0.1) }, version: version)
        }
        store.replaceDocument(document(10, [("a", "World"), ("b", "Arts")]))
        store.replaceDocument(document(11, [("c", "Science"), ("a", "World"), ("b", "Arts")]))
        store.replaceDocument(document(9, [("a", "World")]))  // a lagging cache
        store.replaceDocument(document(12, [("d", "World"), ("c", "Science"), ("a", "World")]))

        var stats = FeedStatistics(startedAt: Self.at(0))
        for (offset, change) in changes.withLockedValue({ $0 }).enumerated() {
            stats.record(
                .accepted(AcceptedChange(change, versionPath: ItemProfile.nytNewswire.versionPath)),
                at: Self.at(Double(offset) * 5 + 1))
        }
        stats.record(.rejectedPatch(reason: nil), at: Self.at(21))
        let window = stats.window(at: Self.at(30))
        #expect(window.notable.map(\.kind) == [.newSection, .guardRegression, .rejectedPatch])
        #expect(window.notable[0].detail == "Science")
        #expect(window.notable[0].time == Self.at(6))
        #expect(window.notable[1].detail == "version 9, published 11")
        #expect(window.totals.changes == 4)
        // First document: 2 added; then c added; the regression is not published; then d
        // added and b removed.
        #expect(window.totals.itemsAdded == 4)
        #expect(window.totals.itemsRemoved == 1)
        #expect(window.totals.guardRegressions == 1)
        #expect(window.totals.newSections == 1)
        #expect(
            stats.ticker
                == TickerEntry(
                    title: "Story number 4", key: try #require(store.snapshot?.published.items.first?.key), isNew: true,
                    time: Self.at(16)))
    }

    @Test("detail text is cut to a bounded length")
    func detailIsBounded() {
        var stats = FeedStatistics(startedAt: Self.at(0))
        stats.record(.reconnect(reason: String(repeating: "x", count: 10_000)), at: Self.at(1))
        #expect(stats.window(at: Self.at(10)).notable.first?.detail?.count == NotableEvent.maxDetailLength)
    }

    // MARK: What polling would have cost

    /// A NYT-like document of about 30 KB: 30 stories of about 1 KB each.
    static func snapshotDocument() -> JSONValue {
        .object([
            "status": .string("OK"), "num_results": .int(30),
            "results": .array(
                (0..<30).map { index in
                    .object([
                        "uri": .string("nyt://article/\(index)"), "section": .string("World"),
                        "title": .string("Story \(index)"),
                        "abstract": .string(String(repeating: "Lorem ipsum dolor sit amet. ", count: 34)),
                    ])
                }),
        ])
    }

    @Test("the counterfactual and the saving for a 30 KB snapshot and small patches")
    func counterfactualForSnapshotAndPatches() throws {
        var document = Self.snapshotDocument()
        let snapshotEvent = SSEEncoder.event(type: "data", data: document.serializedString(), id: "1")
        #expect((29_000...32_000).contains(document.serializedBytes().count), "about 30 KB")

        // The script: the snapshot at 0.2 s, then a small patch every 2 s (a title edit
        // whose length varies, and the version), for one minute.
        struct Step {
            let time: Double
            let eventBytes: Int
            let documentBytes: Int
        }
        var steps = [Step(time: 0.2, eventBytes: snapshotEvent.count, documentBytes: document.serializedBytes().count)]
        for number in 1...29 {
            let patch = try JSONPatch(
                json: .array([
                    .object([
                        "op": .string("replace"), "path": .string("/results/\(number % 30)/title"),
                        "value": .string("Edited " + String(repeating: "!", count: number % 7)),
                    ]),
                    .object([
                        "op": .string("replace"), "path": .string("/num_results"), "value": .int(Int64(30 + number)),
                    ]),
                ]))
            try patch.apply(to: &document)
            let event = SSEEncoder.event(
                type: "patch", data: String(decoding: patch.serializedBytes(), as: UTF8.self), id: "\(number + 1)")
            steps.append(
                Step(
                    time: 0.2 + Double(number) * 2, eventBytes: event.count,
                    documentBytes: document.serializedBytes().count))
        }
        #expect(steps.dropFirst().allSatisfy { $0.eventBytes < 300 }, "the patches are small")

        var stats = FeedStatistics(startedAt: Self.at(0), pollInterval: 5)
        for step in steps {
            // As the upstream connection reports them: the bytes, then the change they carry.
            stats.record(.received(bytes: UInt64(step.eventBytes)), at: Self.at(step.time))
            stats.record(Self.change(bytes: step.documentBytes), at: Self.at(step.time + 0.001))
        }
        let now = 60.0
        let window = stats.window(at: Self.at(now))

        // Expected, from the script alone: a poller started with the first bytes (0.2 s)
        // fetches at 0.2, 5.2, 10.2, … before `now`, each time the document as it is then.
        var expectedPolling = 0
        var expectedPolls = 0
        var pollTime = 0.2
        var pollsPerBucket: [Int64: Int] = [:]
        while pollTime < now {
            // The document as of the last change at or before the poll (the first poll
            // sees the snapshot, which arrives right after the first bytes).
            let size = steps.last { $0.time + 0.001 <= pollTime }?.documentBytes ?? steps[0].documentBytes
            expectedPolling += size
            expectedPolls += 1
            pollsPerBucket[StatsBucket.index(of: Self.at(pollTime)), default: 0] += size
            pollTime += 5
        }
        let expectedReceived = steps.reduce(0) { $0 + $1.eventBytes }
        #expect(expectedPolls == 12)
        #expect(window.totals.polls == UInt64(expectedPolls))
        #expect(window.totals.pollingBytes == UInt64(expectedPolling))
        #expect(window.totals.bytesReceived == UInt64(expectedReceived))
        let ratio = try #require(window.totals.savingRatio)
        let saved = try #require(window.totals.savedFraction)
        #expect(abs(ratio - Double(expectedPolling) / Double(expectedReceived)) < 1e-12)
        #expect(abs(saved - (1 - Double(expectedReceived) / Double(expectedPolling))) < 1e-12)
        #expect(saved > 0.8, "a minute of small patches costs a fraction of polling")
        // Each poll is in the window of its time.
        for bucket in window.buckets.compactMap({ $0 }) {
            #expect(Int(bucket.pollingBytes) == pollsPerBucket[bucket.index, default: 0], "window \(bucket.index)")
        }
        #expect(window.sum.pollingBytes == UInt64(expectedPolling))
        #expect(window.sum.bytesReceived == UInt64(expectedReceived))
    }

    @Test("a poller is counted in closed form across a long gap")
    func longGap() {
        var polling = PollingCounterfactual(interval: 5)
        polling.start(at: Self.at(0))
        polling.setDocumentBytes(1000)
        var reported = 0
        polling.advance(to: Self.at(10 * 365 * 86_400), reportFrom: Self.at(10 * 365 * 86_400 - 600)) { _, _ in
            reported += 1
        }
        #expect(polling.polls == UInt64(10 * 365 * 86_400 / 5))
        #expect(polling.totalBytes == polling.polls * 1000)
        #expect(reported == 120)
    }

    @Test("nothing is polled before upstream sends anything, nor saved before anything is received")
    func nothingBeforeUpstream() {
        var stats = FeedStatistics(startedAt: Self.at(0))
        stats.record(Self.change(bytes: 5000), at: Self.at(1))
        let window = stats.window(at: Self.at(100))
        #expect(window.totals.pollingBytes == 0)
        #expect(window.totals.savingRatio == nil)
        #expect(window.totals.savedFraction == nil)
    }
}
