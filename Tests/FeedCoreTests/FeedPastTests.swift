import FeedCore
import TestSupport
import Testing

/// The store's past (``FeedPast``): the state after every kept change by id and by time,
/// the changes after an id, and the bounds on count and bytes.
@Suite("Feed past", .onThreadsOfItsOwn)
struct FeedPastTests {
    static func document(_ n: Int) -> JSONValue {
        .object(["n": .int(Int64(n)), "items": .array((0...n % 5).map { .string("item \($0)") })])
    }

    /// A store through `count` changes (a document, then replaced documents as patches),
    /// and the documents after each, by id.
    static func store(changes count: Int, history: Int = 1000, bytes: Int = 1 << 20) -> (
        FeedStore, [(EventID, JSONValue)]
    ) {
        let store = FeedStore(
            configuration: .init(profile: .generic, historyCount: history, historyBytes: bytes), epoch: "e")
        var after: [(EventID, JSONValue)] = []
        for n in 0..<count {
            if let change = store.replaceDocument(document(n)) { after.append((change.snapshot.id, document(n))) }
        }
        return (store, after)
    }

    @Test("every kept id gives the document after it, encoded as /api/state encodes it")
    func byID() throws {
        let (store, after) = Self.store(changes: 50)
        for (id, document) in after {
            guard case .found(let entry) = store.past(at: id) else {
                Issue.record("\(id) not found")
                continue
            }
            #expect(entry.id == id)
            #expect(try JSONValue(parsing: entry.snapshot.encodedDocumentKeepingNothing()) == document)
        }
        guard case .outside(let earliest) = store.past(at: EventID(epoch: "other", seq: 3)) else {
            Issue.record("another epoch's id was found")
            return
        }
        #expect(earliest?.id == after.first?.0)
    }

    @Test("the bounds: at most --history changes and the byte bound; the newest always kept")
    func bounds() {
        let (store, after) = Self.store(changes: 30, history: 10)
        #expect(store.pastUsage.count == 10)
        guard case .outside(let earliest) = store.past(at: after[0].0) else {
            Issue.record("the oldest is still kept")
            return
        }
        #expect(earliest?.id == after[20].0)
        let (small, kept) = Self.store(changes: 30, history: 1000, bytes: 1)
        #expect(small.pastUsage.count == 1)
        if case .found(let entry) = small.past(at: kept.last!.0) {
            #expect(entry.id == kept.last!.0)
        } else {
            Issue.record("the newest is not kept")
        }
    }

    @Test("by time: the last change committed at or before it; before the first: outside")
    func byTime() {
        let (store, after) = Self.store(changes: 20)
        var times: [WallTime] = []
        for (id, _) in after {
            guard case .found(let entry) = store.past(at: id) else {
                Issue.record("\(id) missing")
                return
            }
            times.append(entry.time)
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "times never go back")
        for (index, time) in times.enumerated() {
            guard case .found(let entry) = store.past(atOrBefore: time) else {
                Issue.record("nothing at \(time)")
                continue
            }
            let last = times.lastIndex { $0 <= time }!
            #expect(entry.id == after[last].0, "\(index)")
        }
        if case .found = store.past(atOrBefore: WallTime(microseconds: times[0].microseconds - 1)) {
            Issue.record("found a change before the first")
        }
    }

    @Test("changes after an id: the patches in order, bounded, with more; an unknown id starts over")
    func changesAfter() throws {
        let (store, after) = Self.store(changes: 40)
        guard case .entries(let entries, let more) = store.changes(after: after[10].0, maxCount: 5, maxBytes: 1 << 20)
        else {
            Issue.record("no entries")
            return
        }
        #expect(entries.map(\.id) == after[11...15].map(\.0))
        #expect(more)
        var document = after[10].1
        for entry in entries {
            guard case .patch(let bytes) = entry.change else {
                Issue.record("not a patch")
                continue
            }
            try JSONPatch(parsing: bytes).apply(to: &document)
        }
        #expect(document == after[15].1)
        if case .entries(let none, let more) = store.changes(after: after[39].0, maxCount: 5, maxBytes: 10) {
            #expect(none.isEmpty && !more)
        } else {
            Issue.record("the newest id is not kept")
        }
        if case .entries = store.changes(after: EventID(epoch: "x", seq: 1), maxCount: 5, maxBytes: 10) {
            Issue.record("an unknown id gave entries")
        }
    }

    @Test("RFC 3339 times: read back to the microsecond, with offsets and fractions")
    func wallTimes() {
        let time = WallTime(microseconds: 1_795_960_992_345_678)
        #expect(WallTime(rfc3339: time.description) == time)
        #expect(time.description == "2026-11-29T14:03:12.345678Z")
        #expect(WallTime(rfc3339: "2026-11-29T15:03:12.345678+01:00") == time)
        #expect(WallTime(rfc3339: "2026-11-29T14:03:12.3456789Z") == time)
        #expect(WallTime(rfc3339: "2026-11-29T14:03:12Z")?.microseconds == 1_795_960_992_000_000)
        #expect(WallTime(rfc3339: "1970-01-01T00:00:00Z")?.microseconds == 0)
        for bad in ["", "2026-11-29", "2026-11-29T11:23:12", "2026-13-01T00:00:00Z", "2026-11-29T11:23:12.Z", "x"] {
            #expect(WallTime(rfc3339: bad) == nil, "\(bad)")
        }
    }

    @Test("times without a zone (Open-Meteo's, a database's): read at the offset given, seconds optional")
    func localTimes() {
        let utc = WallTime(rfc3339: "2026-11-30T13:00:00Z")
        #expect(WallTime(localTime: "2026-11-30T13:00", offsetSeconds: 0) == utc)
        #expect(WallTime(localTime: "2026-11-30 14:00:00", offsetSeconds: 3600) == utc, "CET is an hour east")
        #expect(WallTime(localTime: "2026-11-30T08:00:00.000", offsetSeconds: -18_000) == utc)
        #expect(WallTime(localTime: "2026-11-30T15:00:00+02:00", offsetSeconds: 0) == utc, "a zone given wins")
        for bad in ["2026-11-30", "2026-11-30T13", "2026-11-30T13:00:", "2026-11-30T25:00", "13:00"] {
            #expect(WallTime(localTime: bad, offsetSeconds: 0) == nil, "\(bad)")
        }
        #expect(WallTime(rfc3339: "2026-11-30T13:00") == nil, "RFC 3339 keeps its zone and seconds")
    }
}
