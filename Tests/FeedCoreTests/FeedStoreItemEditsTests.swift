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
        // d first; the oldest, a (replaced first), past keep.
        #expect(Self.kept(store) == ["d:Pending", "c:Failed", "b:Pending"])
        #expect(store.putItems([Self.pod("c", "Failed")], idAt: Self.uid, keep: 3).isEmpty, "no change")
        // An object without the id is put first, as an item without a key is.
        store.putItems([.object(["status": .object(["phase": .string("Unknown")])])], idAt: Self.uid, keep: 3)
        #expect(Self.kept(store) == ["-:Unknown", "d:Pending", "c:Failed"])
        let removed = store.removeItem(withID: .string("c"), at: Self.uid)
        #expect(removed != nil && Self.kept(store) == ["-:Unknown", "d:Pending"])
        #expect(store.removeItem(withID: .string("c"), at: Self.uid) == nil, "gone already")
    }
}
