import FeedCore
import Testing

/// ``FeedStore``'s edits of kept items by an id the protocol names (a Kubernetes watch's
/// `metadata.uid`): objects put in place or first, in at most two changes per batch.
@Suite("Feed store: items put by id")
struct FeedStoreItemEditsTests {
    static let uid = JSONPointer(tokens: ["metadata", "uid"])

    static func pod(_ uid: String, _ phase: String) -> JSONValue {
        .object(["metadata": .object(["uid": .string(uid)]), "status": .object(["phase": .string(phase)])])
    }

    static func kept(_ store: FeedStore) -> [String] {
        (store.snapshot?.document["items"]?.arrayValue ?? []).map {
            "\($0["metadata"]?["uid"]?.stringValue ?? "-"):\($0["status"]?["phase"]?.stringValue ?? "-")"
        }
    }

    @Test("a burst of new objects is one change, newest first; one that came twice is put once, as it came last")
    func burst() {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        let batch = (1...500).map { Self.pod("u\($0)", "Pending") } + [Self.pod("u3", "Running")]
        let changes = store.putItems(batch, idAt: Self.uid, keep: 1000)
        #expect(changes.count == 1)
        #expect(changes.first?.upstreamChanges == 500, "each object counted")
        let kept = Self.kept(store)
        #expect(kept.count == 500 && kept.first == "u500:Pending" && kept.last == "u1:Pending")
        #expect(kept.contains("u3:Running") && !kept.contains("u3:Pending"))
    }

    @Test("kept objects replaced in place and new ones put first: two changes; the same again: none")
    func mixed() throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        store.putItems(
            [Self.pod("a", "Pending"), Self.pod("b", "Pending"), Self.pod("c", "Pending")], idAt: Self.uid, keep: 3)
        #expect(Self.kept(store) == ["c:Pending", "b:Pending", "a:Pending"])
        let batch = [Self.pod("a", "Running"), Self.pod("d", "Pending"), Self.pod("c", "Failed")]
        let changes = store.putItems(batch, idAt: Self.uid, keep: 3)
        #expect(changes.count == 2)
        // d first; b, put the least recently (a and c were just put), past keep.
        #expect(Self.kept(store) == ["d:Pending", "c:Failed", "a:Running"])
        #expect(store.putItems([Self.pod("c", "Failed")], idAt: Self.uid, keep: 3).isEmpty, "no change")
        // An object without the id is put first, as an item without a key is.
        // a, put before d and c, goes.
        store.putItems([.object(["status": .object(["phase": .string("Unknown")])])], idAt: Self.uid, keep: 3)
        #expect(Self.kept(store) == ["-:Unknown", "d:Pending", "c:Failed"])
        let removed = store.removeItem(withID: .string("c"), at: Self.uid)
        #expect(removed != nil && Self.kept(store) == ["-:Unknown", "d:Pending"])
        #expect(store.removeItem(withID: .string("c"), at: Self.uid) == nil, "gone already")
    }

    @Test("a list replaces the kept objects: the ones it lacks go in one change, the rest put as a batch")
    func listReplaces() throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        store.putItems(
            [Self.pod("a", "Running"), Self.pod("b", "Running"), Self.pod("c", "Running"), Self.pod("d", "Running")],
            idAt: Self.uid, keep: 10)
        store.prependItem(.object(["status": .object(["phase": .string("Unknown")])]), keep: 10)
        #expect(Self.kept(store) == ["-:Unknown", "d:Running", "c:Running", "b:Running", "a:Running"])
        let listed = [Self.pod("c", "Failed"), Self.pod("a", "Running"), Self.pod("e", "Pending")]
        let changes = store.replaceItems(
            listed, listedIDs: Set(listed.compactMap { $0.value(at: Self.uid) }), idAt: Self.uid, keep: 10,
            position: "p")
        // b and d out; c changed in place, a as it was; e first; the object without a uid stays.
        #expect(Self.kept(store) == ["e:Pending", "-:Unknown", "c:Failed", "a:Running"])
        #expect(changes.count == 3, "the removals, the one put in place, the new one first")
        #expect(changes.allSatisfy { $0.upstreamPosition == "p" })
        #expect(
            store.replaceItems([], listedIDs: [], idAt: Self.uid, keep: 10).count == 1,
            "an empty list: every object goes")
        #expect(Self.kept(store) == ["-:Unknown"])
        #expect(
            store.replaceItems([], listedIDs: [], idAt: Self.uid, keep: 10).isEmpty, "nothing to take out: no change")
    }

    @Test("a full keep lets go of the item put least recently, wherever it is; items never put go first, from the last")
    func leastRecentlyPutGoes() throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        store.putItems([Self.pod("a", "1"), Self.pod("b", "1"), Self.pod("c", "1")], idAt: Self.uid, keep: 3)
        // a, last in place, keeps ticking; b does not.
        for tick in 2...5 { store.putItems([Self.pod("a", "\(tick)")], idAt: Self.uid, keep: 3) }
        store.putItems([Self.pod("c", "2")], idAt: Self.uid, keep: 3)
        #expect(Self.kept(store) == ["c:2", "b:1", "a:5"])
        let changes = store.putItems([Self.pod("d", "1")], idAt: Self.uid, keep: 3)
        #expect(Self.kept(store) == ["d:1", "c:2", "a:5"], "b, quiet the longest, goes; the rows in place stay")
        // Downstream: b tested and removed where it was, then d put first.
        let first = try #require(changes.first)
        guard case .patch(let removal, _) = first.kind else {
            Issue.record("the first change is a patch")
            return
        }
        #expect(
            removal.operations == [
                .test(path: JSONPointer(tokens: ["items", "1", "metadata", "uid"]), value: .string("b")),
                .remove(path: JSONPointer(tokens: ["items", "1"])),
            ])
        #expect(changes.count == 2)

        // Items never put (the document's before, or without the id) go before any put one,
        // the one further down first.
        let restored = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        restored.prependItems([Self.pod("x", "old"), Self.pod("y", "old")], keep: 10)
        restored.putItems([Self.pod("z", "1")], idAt: Self.uid, keep: 3)
        #expect(Self.kept(restored) == ["z:1", "y:old", "x:old"])
        restored.putItems([Self.pod("w", "1"), Self.pod("v", "1")], idAt: Self.uid, keep: 3)
        #expect(Self.kept(restored) == ["v:1", "w:1", "z:1"])
    }

    @Test("of 64 kept, one new lets the quietest go, and a batch of ten the ten quietest, as a model of the puts says")
    func leastRecentAmongMany() throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        var lastPut: [String: Int] = [:]
        var clock = 0
        func put(_ uids: [String]) {
            store.putItems(uids.map { Self.pod($0, "Running") }, idAt: Self.uid, keep: 64)
            for uid in uids {
                clock += 1
                lastPut[uid] = clock
            }
        }
        func keptUIDs() -> Set<String> { Set(Self.kept(store).map { String($0.prefix { $0 != ":" }) }) }
        for index in 0..<64 { put(["p\(index)"]) }
        put(stride(from: 0, to: 64, by: 2).map { "p\($0)" })
        for batch in [["n0"], (1...10).map { "n\($0)" }] {
            let before = keptUIDs()
            let quietest = before.sorted { lastPut[$0, default: 0] < lastPut[$1, default: 0] }.prefix(batch.count)
            put(batch)
            let after = keptUIDs()
            #expect(after == before.subtracting(quietest).union(batch), "\(batch.count) new: \(quietest)")
            #expect(after.count == 64)
        }
        #expect(!keptUIDs().contains("p1") && keptUIDs().contains("p0") && keptUIDs().contains("p23"))
    }
}
