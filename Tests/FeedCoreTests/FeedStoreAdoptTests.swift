import FeedCore
import Foundation
import Testing

/// ``FeedStore/adopt(_:)``: a change taken with another feedweb's id and bytes (a relay's
/// upstream, the cluster log).
@Suite("Feed store: adopting published changes")
struct FeedStoreAdoptTests {
    private func store() -> FeedStore {
        FeedStore(configuration: .init(profile: .generic), epoch: "ownepoch")
    }

    private func document(_ text: String) throws -> PublishedChange.Body {
        let bytes = Array(text.utf8)
        return .document(try JSONValue(parsing: bytes), encoded: bytes)
    }

    private func patch(_ text: String) throws -> PublishedChange.Body {
        .patch(try JSONPatch(parsing: text), encoded: Array(text.utf8))
    }

    @Test("a document starts the state over at its id, in its epoch; the bytes served are the ones given")
    func documentStartsOver() throws {
        let store = store()
        let recorder = ChangeRecorder(store)
        try store.adopt(
            PublishedChange(id: EventID(epoch: "rootepoch", seq: 41), body: document(#"{"a":1,"items":[]}"#)))
        #expect(store.epoch == "rootepoch")
        #expect(store.snapshot?.id == EventID(epoch: "rootepoch", seq: 41))
        #expect(store.snapshot?.encodedDocument == Array(#"{"a":1,"items":[]}"#.utf8))
        guard case .snapshot = recorder.changes.last?.kind else {
            Issue.record("a document is a snapshot change")
            return
        }
        #expect(recorder.changes.last?.previousPublished == nil, "a fresh view: item streams send a snapshot")
        #expect(store.snapshot?.published.id == EventID(epoch: "rootepoch", seq: 41))
    }

    @Test("a patch must be the next id of the same epoch; its bytes go into the history as given")
    func patchFollows() throws {
        let store = store()
        try store.adopt(PublishedChange(id: EventID(epoch: "e1", seq: 7), body: document(#"{"n":1}"#)))
        // Not the next one: refused, nothing changes.
        #expect(throws: FeedStoreError.self) {
            try store.adopt(
                PublishedChange(
                    id: EventID(epoch: "e1", seq: 9), body: self.patch(#"[{"op":"replace","path":"/n","value":2}]"#)))
        }
        #expect(throws: FeedStoreError.self) {
            try store.adopt(
                PublishedChange(
                    id: EventID(epoch: "e2", seq: 8), body: self.patch(#"[{"op":"replace","path":"/n","value":2}]"#)))
        }
        #expect(store.snapshot?.id.seq == 7)
        // The bytes as published, spaces and all.
        let text = #"[ {"op": "replace", "path": "/n", "value": 2} ]"#
        let change = try store.adopt(PublishedChange(id: EventID(epoch: "e1", seq: 8), body: patch(text)))
        #expect(change.snapshot.id == EventID(epoch: "e1", seq: 8))
        guard case .patches(let entries) = store.resume(after: EventID(epoch: "e1", seq: 7), through: 8) else {
            Issue.record("the history covers change 8")
            return
        }
        #expect(entries.map(\.encodedPatch) == [Array(text.utf8)])
        #expect(store.snapshot?.document == (try JSONValue(parsing: #"{"n":2}"#)))
    }

    @Test("a patch that does not apply is refused whole")
    func patchRejected() throws {
        let store = store()
        try store.adopt(PublishedChange(id: EventID(epoch: "e1", seq: 1), body: document(#"{"n":1}"#)))
        #expect(throws: FeedStoreError.self) {
            try store.adopt(
                PublishedChange(
                    id: EventID(epoch: "e1", seq: 2),
                    body: self.patch(#"[{"op":"replace","path":"/n","value":2},{"op":"remove","path":"/missing"}]"#)))
        }
        #expect(store.snapshot?.document == (try JSONValue(parsing: #"{"n":1}"#)))
    }

    @Test("resuming across an epoch change gets a snapshot, never patches of the other epoch")
    func resumeAcrossEpochs() throws {
        let store = store()
        try store.adopt(PublishedChange(id: EventID(epoch: "e1", seq: 1), body: document(#"{"n":1}"#)))
        try store.adopt(
            PublishedChange(id: EventID(epoch: "e1", seq: 2), body: patch(#"[{"op":"replace","path":"/n","value":2}]"#))
        )
        try store.adopt(PublishedChange(id: EventID(epoch: "e2", seq: 1), body: document(#"{"n":3}"#)))
        try store.adopt(
            PublishedChange(id: EventID(epoch: "e2", seq: 2), body: patch(#"[{"op":"replace","path":"/n","value":4}]"#))
        )
        guard case .needsSnapshot = store.resume(after: EventID(epoch: "e1", seq: 1), through: 2) else {
            Issue.record("an id of the old epoch needs a snapshot")
            return
        }
        guard case .patches(let entries) = store.resume(after: EventID(epoch: "e2", seq: 1), through: 2) else {
            Issue.record("an id of the new epoch resumes")
            return
        }
        #expect(entries.map(\.seq) == [2])
    }

    @Test("changes made here after adopting carry on the adopted epoch's sequence, with upstream's position")
    func ownChangesAfterAdopting() throws {
        let store = store()
        try store.adopt(PublishedChange(id: EventID(epoch: "e1", seq: 10), body: document(#"{"items":[1]}"#)))
        let change = store.prependItem(.int(2), keep: 5, position: "u-11")
        #expect(change.snapshot.id == EventID(epoch: "e1", seq: 11))
        #expect(change.upstreamPosition == "u-11")
        #expect(
            store.replaceDocument(try JSONValue(parsing: #"{"items":[3]}"#), position: "etag")?.upstreamPosition
                == "etag")
    }
}
