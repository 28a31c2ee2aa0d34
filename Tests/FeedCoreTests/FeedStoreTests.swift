import FeedCore
import Foundation
import NIOConcurrencyHelpers
import Testing

/// Collects every change a store delivers, in order.
final class ChangeRecorder: Sendable {
    private let box = NIOLockedValueBox<[FeedChange]>([])

    init(_ store: FeedStore) {
        store.observe { [box] change in box.withLockedValue { $0.append(change) } }
    }

    var changes: [FeedChange] { box.withLockedValue { $0 } }
    var seqs: [UInt64] { changes.map(\.snapshot.id.seq) }
}

@Suite("Feed store")
struct FeedStoreTests {
    private func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    private func patch(_ text: String) throws -> JSONPatch {
        try JSONPatch(parsing: text)
    }

    /// An NYT-shaped document with `version` as num_results and one story per title.
    private func nyt(_ version: Int, _ titles: [String]) throws -> JSONValue {
        let results = titles.map { #"{"uri":"nyt://article/\#($0)","title":"\#($0)","section":"World"}"# }
        return try json(#"{"status":"OK","num_results":\#(version),"results":[\#(results.joined(separator: ","))]}"#)
    }

    private func nytStore(epoch: String = "testepoch1") -> FeedStore {
        FeedStore(configuration: .init(profile: .nytNewswire), epoch: epoch)
    }

    private func titles(_ view: PublishedView?) -> [String] {
        view?.items.compactMap(\.title) ?? []
    }

    // MARK: The version guard

    @Test("a lower num_results changes the mirror but not the published view")
    func lowerVersionNotPublished() throws {
        let store = nytStore()
        store.replaceDocument(try nyt(10, ["a", "b"]))
        let published = try #require(store.snapshot?.published)
        #expect(published.version == 10)

        // A stale state from a caching upstream: fewer results, version 9.
        let change = try #require(
            try store.apply(
                patch(#"[{"op":"replace","path":"/num_results","value":9},{"op":"remove","path":"/results/1"}]"#)))
        #expect(!change.publishedChanged)
        let snapshot = try #require(store.snapshot)
        #expect(snapshot.document == (try nyt(9, ["a"])))
        #expect(snapshot.published === published)
        #expect(titles(snapshot.published) == ["a", "b"])
        #expect(snapshot.published.version == 10)
    }

    @Test("an equal num_results does not publish either")
    func equalVersionNotPublished() throws {
        let store = nytStore()
        store.replaceDocument(try nyt(10, ["a", "b"]))
        let published = store.snapshot?.published
        let change = try store.apply(patch(#"[{"op":"replace","path":"/results/0/title","value":"edited"}]"#))
        #expect(change?.publishedChanged == false)
        #expect(store.snapshot?.published === published)
        #expect(store.snapshot?.document.value(atPointer: "/results/0/title") == .string("edited"))
    }

    @Test("a higher num_results publishes the mirror as it is then")
    func higherVersionPublishes() throws {
        let store = nytStore()
        store.replaceDocument(try nyt(10, ["a", "b"]))
        try store.apply(patch(#"[{"op":"replace","path":"/num_results","value":9}]"#))
        let change = try #require(
            try store.apply(
                patch(
                    #"[{"op":"replace","path":"/num_results","value":11},"#
                        + #"{"op":"add","path":"/results/0","value":{"uri":"nyt://article/c","title":"c"}}]"#)))
        #expect(change.publishedChanged)
        #expect(change.snapshot.published.version == 11)
        #expect(change.snapshot.published.seq == change.snapshot.id.seq)
        #expect(titles(change.snapshot.published) == ["c", "a", "b"])
        #expect(change.previousPublished?.version == 10)
    }

    @Test("the guard also holds for whole documents (data events)")
    func guardOnReplace() throws {
        let store = nytStore()
        store.replaceDocument(try nyt(5, ["a"]))
        let stale = try #require(store.replaceDocument(try nyt(4, ["old"])))
        #expect(!stale.publishedChanged)
        #expect(titles(store.snapshot?.published) == ["a"])
        let fresh = try #require(store.replaceDocument(try nyt(6, ["b", "a"])))
        #expect(fresh.publishedChanged)
        #expect(titles(store.snapshot?.published) == ["b", "a"])
    }

    @Test("a version written as a float compares by value")
    func floatVersion() throws {
        let store = nytStore()
        store.replaceDocument(try json(#"{"num_results":2.5,"results":[]}"#))
        #expect(store.replaceDocument(try json(#"{"num_results":2,"results":[]}"#))?.publishedChanged == false)
        #expect(store.replaceDocument(try json(#"{"num_results":3,"results":[]}"#))?.publishedChanged == true)
    }

    @Test("without a version path every change publishes")
    func noVersionPathPublishesAll() throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "e")
        let recorder = ChangeRecorder(store)
        store.replaceDocument(try json(#"{"num_results":10,"items":[{"id":"a","title":"A"}]}"#))
        try store.apply(patch(#"[{"op":"replace","path":"/num_results","value":3}]"#))
        try store.apply(patch(#"[{"op":"replace","path":"/items/0/title","value":"A2"}]"#))
        store.replaceDocument(try json(#"{"num_results":1,"items":[]}"#))
        #expect(recorder.changes.count == 4)
        #expect(recorder.changes.allSatisfy { $0.publishedChanged })
        #expect(recorder.changes.allSatisfy { $0.snapshot.published.version == nil })
        #expect(store.snapshot?.published.items.isEmpty == true)
        #expect(recorder.changes[2].snapshot.published.items.first?.title == "A2")
    }

    @Test("with a version path, a document that has no version publishes until one with a version is published")
    func missingVersion() throws {
        let store = nytStore()
        store.replaceDocument(try json(#"{"results":[{"uri":"u1","title":"one"}]}"#))
        #expect(store.snapshot?.published.version == nil)
        let next = try store.apply(patch(#"[{"op":"replace","path":"/results/0/title","value":"two"}]"#))
        #expect(next?.publishedChanged == true)
        try store.apply(patch(#"[{"op":"add","path":"/num_results","value":1}]"#))
        #expect(store.snapshot?.published.version == 1)
        // Losing the version does not publish.
        let lost = try store.apply(patch(#"[{"op":"remove","path":"/num_results"}]"#))
        #expect(lost?.publishedChanged == false)
        #expect(store.snapshot?.published.version == 1)
    }

    // MARK: Sequence numbers and ids

    @Test("every accepted change gets the next sequence number; the id is EPOCH-SEQ")
    func sequenceAndIDs() throws {
        let store = nytStore(epoch: "k3x9q2m7p1")
        #expect(store.snapshot == nil)
        let first = try #require(store.replaceDocument(try nyt(1, ["a"])))
        #expect(first.snapshot.id == EventID(epoch: "k3x9q2m7p1", seq: 1))
        #expect(first.snapshot.id.description == "k3x9q2m7p1-1")
        for n in 2...6 {
            let change = try #require(
                try store.apply(patch(#"[{"op":"replace","path":"/num_results","value":\#(n)}]"#)))
            #expect(change.snapshot.id.seq == UInt64(n))
            #expect(change.snapshot.id.description == "k3x9q2m7p1-\(n)")
            #expect(EventID(parsing: change.snapshot.id.description) == change.snapshot.id)
        }
    }

    @Test("no-ops are not changes: an empty patch and an identical document keep the sequence")
    func noOps() throws {
        let store = nytStore()
        let recorder = ChangeRecorder(store)
        let document = try nyt(3, ["a", "b"])
        store.replaceDocument(document)
        #expect(try store.apply(JSONPatch()) == nil)
        #expect(store.replaceDocument(document) == nil)
        // The same document with members in another order is the same JSON.
        let results = try #require(document["results"]).serializedString()
        #expect(store.replaceDocument(try json(#"{"results":\#(results),"status":"OK","num_results":3}"#)) == nil)
        #expect(store.snapshot?.id.seq == 1)
        #expect(recorder.seqs == [1])
    }

    @Test("each store start has its own random epoch of 10 base-36 characters")
    func epochs() {
        let epochs = (0..<20).map { _ in FeedStore(configuration: .init(profile: .generic)).epoch }
        #expect(Set(epochs).count == 20)
        for epoch in epochs {
            #expect(epoch.count == 10)
            #expect(epoch.allSatisfy { ("0"..."9").contains($0) || ("a"..."z").contains($0) })
        }
    }

    @Test("EventID parsing accepts EPOCH-SEQ only")
    func eventIDParsing() {
        #expect(EventID(parsing: "abc123-42") == EventID(epoch: "abc123", seq: 42))
        #expect(EventID(parsing: "abc-0") == EventID(epoch: "abc", seq: 0))
        for bad in [
            "", "abc", "-5", "abc-", "abc-x", "ab-c-5", "abc--5", "abc-+5", "abc- 5", "abc-05", "abc-٣", "é-5",
            "abc-99999999999999999999",
        ] {
            #expect(EventID(parsing: bad) == nil, "\(bad.debugDescription)")
        }
    }

    // MARK: replaceDocument

    @Test("the first document is a snapshot, later ones become the diff that leads to them")
    func snapshotThenDiff() throws {
        let store = nytStore()
        let recorder = ChangeRecorder(store)
        let a = try nyt(20, (1...20).map { "s\($0)" })
        let b = try nyt(21, ["new"] + (1...19).map { "s\($0)" })
        store.replaceDocument(a)
        let change = try #require(store.replaceDocument(b))
        guard case .snapshot = recorder.changes[0].kind else {
            Issue.record("the first change is not a snapshot")
            return
        }
        guard case .patch(let patch, let encoded) = change.kind else {
            Issue.record("the second change is not a patch")
            return
        }
        #expect(try patch.applied(to: a) == b)
        #expect(encoded == patch.serializedBytes())
        #expect(try JSONPatch(parsing: encoded) == patch)
        // Small where the change is small: not a replace of the whole array.
        #expect(patch.operations.count <= 3)
        #expect(change.snapshot.document == b)
        #expect(change.snapshot.encodedDocument == b.serializedBytes())
        // The history holds that patch for resuming clients.
        guard case .patches(let entries) = store.resume(after: EventID(epoch: store.epoch, seq: 1), through: 2) else {
            Issue.record("no history for the diff")
            return
        }
        #expect(entries.map(\.seq) == [2])
        #expect(entries.first?.encodedPatch == encoded)
    }

    // MARK: Atomic rejection

    @Test(
        "a patch that fails anywhere is rejected whole: nothing changes, nobody is told",
        arguments: [
            #"[{"op":"replace","path":"/num_results","value":99},{"op":"remove","path":"/missing"}]"#,
            #"[{"op":"add","path":"/results/0/title","value":"x"},{"op":"test","path":"/status","value":"NOT OK"}]"#,
            #"[{"op":"remove","path":"/results/0"},{"op":"add","path":"/results/7","value":{}}]"#,
            #"[{"op":"copy","from":"/results","path":"/copy"},{"op":"move","from":"/results","path":"/results/0/x"}]"#,
            #"[{"op":"replace","path":"/results/01","value":1}]"#,
        ])
    func atomicRejection(text: String) throws {
        let store = nytStore()
        let recorder = ChangeRecorder(store)
        store.replaceDocument(try nyt(10, ["a", "b"]))
        let before = try #require(store.snapshot)
        let usage = store.historyUsage
        #expect(throws: FeedStoreError.self) { try store.apply(try patch(text)) }
        let after = try #require(store.snapshot)
        #expect(after === before)
        #expect(after.document == (try nyt(10, ["a", "b"])))
        #expect(recorder.seqs == [1])
        #expect(store.historyUsage == usage)
    }

    @Test("a patch before any document is refused")
    func patchBeforeDocument() throws {
        let store = nytStore()
        #expect(throws: FeedStoreError.self) {
            try store.apply(try patch(#"[{"op":"add","path":"/a","value":1}]"#))
        }
        #expect(store.snapshot == nil)
    }

    // MARK: The observer

    @Test("the one observer gets every change, in order, each exactly once")
    func observerInOrder() throws {
        let store = nytStore()
        let first = ChangeRecorder(store)
        store.replaceDocument(try nyt(1, ["a"]))
        for n in 2...40 {
            if n % 3 == 0 {
                store.replaceDocument(try nyt(n, ["a", "x\(n)"]))
            } else {
                try store.apply(patch(#"[{"op":"replace","path":"/num_results","value":\#(n)}]"#))
            }
        }
        #expect(first.seqs == Array(1...40))
        #expect(first.changes.last?.snapshot === store.snapshot)
    }

    @Test("concurrent writers: the observer still sees one gap-free sequence, and the mirror has every patch")
    func concurrentWriters() async throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "e")
        let recorder = ChangeRecorder(store)
        store.replaceDocument(try json(#"{"items":[],"counts":{}}"#))
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for n in 0..<50 {
                        let text = #"[{"op":"add","path":"/counts/w\#(writer)-\#(n)","value":\#(n)}]"#
                        _ = try? store.apply(JSONPatch(parsing: text))
                    }
                }
            }
        }
        #expect(recorder.seqs == Array(1...201))
        #expect(store.snapshot?.document["counts"]?.objectValue?.count == 200)
        // Each observed snapshot is the previous one plus its patch.
        for (previous, change) in zip(recorder.changes, recorder.changes.dropFirst()) {
            guard case .patch(let patch, _) = change.kind else {
                Issue.record("change \(change.snapshot.id) is not a patch")
                continue
            }
            #expect(try patch.applied(to: previous.snapshot.document) == change.snapshot.document)
        }
    }

    @Test("an observer added later sees only later changes")
    func lateObserver() throws {
        let store = nytStore()
        store.replaceDocument(try nyt(1, ["a"]))
        let recorder = ChangeRecorder(store)
        try store.apply(patch(#"[{"op":"replace","path":"/num_results","value":2}]"#))
        #expect(recorder.seqs == [2])
    }

    // MARK: History and resume

    @Test("resume: inside the history the missed patches, else a snapshot")
    func resume() throws {
        let store = FeedStore(configuration: .init(profile: .nytNewswire, historyCount: 5), epoch: "epoch1")
        store.replaceDocument(try nyt(0, []))
        for n in 1...9 {
            try store.apply(patch(#"[{"op":"replace","path":"/num_results","value":\#(n)}]"#))
        }
        #expect(store.snapshot?.id.seq == 10)
        #expect(store.historyUsage.count == 5)
        guard case .patches(let entries) = store.resume(after: EventID(epoch: "epoch1", seq: 7), through: 10) else {
            Issue.record("not patches")
            return
        }
        #expect(entries.map(\.seq) == [8, 9, 10])
        let replayed = try entries.reduce(try nyt(6, [])) { document, entry in
            try JSONPatch(parsing: entry.encodedPatch).applied(to: document)
        }
        #expect(replayed == store.snapshot?.document)

        func isSnapshot(_ resume: ChangeHistory.Resume) -> Bool {
            if case .needsSnapshot = resume { return true }
            return false
        }
        #expect(isSnapshot(store.resume(after: EventID(epoch: "epoch1", seq: 4), through: 10)))
        #expect(isSnapshot(store.resume(after: EventID(epoch: "other", seq: 9), through: 10)))
        #expect(isSnapshot(store.resume(after: EventID(epoch: "epoch1", seq: 11), through: 10)))
        if case .upToDate = store.resume(after: EventID(epoch: "epoch1", seq: 10), through: 10) {
        } else {
            Issue.record("not up to date")
        }
    }

    @Test("the history is bounded by bytes as configured")
    func historyBytes() throws {
        let store = FeedStore(
            configuration: .init(profile: .generic, historyCount: 1000, historyBytes: 2000), epoch: "e")
        store.replaceDocument(try json(#"{"items":[]}"#))
        let value = String(repeating: "v", count: 300)
        for n in 0..<50 {
            try store.apply(patch(#"[{"op":"add","path":"/k\#(n)","value":"\#(value)"}]"#))
            #expect(store.historyUsage.bytes <= 2000)
        }
        #expect(store.historyUsage.count >= 1 && store.historyUsage.count < 10)
    }

    @Test("restore sets the starting state without telling observers; later changes continue the sequence")
    func restore() throws {
        let store = nytStore()
        let recorder = ChangeRecorder(store)
        store.restore(document: try nyt(7, ["a"]), seq: 41)
        #expect(store.snapshot?.id.seq == 41)
        #expect(store.snapshot?.published.version == 7)
        #expect(recorder.seqs.isEmpty)
        let change = try store.apply(patch(#"[{"op":"replace","path":"/num_results","value":8}]"#))
        #expect(change?.snapshot.id.seq == 42)
        #expect(recorder.seqs == [42])
    }

    @Test("the published view's items come from the profile, indexed by key")
    func publishedItems() throws {
        let store = nytStore()
        store.replaceDocument(try nyt(2, ["a", "b"]))
        let view = try #require(store.snapshot?.published)
        #expect(view.items.map(\.title) == ["a", "b"])
        #expect(Set(view.items.map(\.key)).count == 2)
        for item in view.items {
            #expect(view.item(forKey: item.key) == item)
        }
        #expect(view.item(forKey: "missing") == nil)
    }
}
