import FeedCore
import TestSupport
import Testing

/// A state of append mode (the current one, or one of the past) encoded from its chunks'
/// cached encodings (``EncodedChunks``): byte for byte the serializer's encoding of the same
/// document, whichever states were asked before, and with a cache too small to keep them all.
@Suite("Encoded chunks", .onThreadsOfItsOwn)
struct EncodedChunksTests {
    /// An item of append mode, with text that needs escaping.
    static func item(_ n: Int) -> JSONValue {
        .object([
            "id": .int(Int64(n)), "title": .string("Story \(n) \"quoted\" <b>&</b> \u{1F600}\n"),
            "tags": .array((0..<(abs(n) % 4)).map { .string("t\($0)") }),
        ])
    }

    /// A store in append mode through `changes` items, keeping `keep`, and the documents
    /// after each change by id (made the slow way: the serializer over the whole value).
    static func store(changes: Int, keep: Int) -> (FeedStore, [(EventID, [UInt8])]) {
        let store = FeedStore(configuration: .init(profile: .generic, historyCount: changes), epoch: "e")
        var after: [(EventID, [UInt8])] = []
        for n in 0..<changes {
            let change = store.prependItem(item(n), keep: keep)
            let serialized = JSONSerializer.serialize(change.snapshot.document)
            after.append((change.snapshot.id, serialized))
            // The current state, as `/api/state` and a new client's `data` send it.
            if n % 7 == 0 { #expect(change.snapshot.encodedDocument == serialized, "after item \(n)") }
        }
        return (store, after)
    }

    @Test("every state of the past is spliced to exactly the serializer's bytes, asked in any order")
    func splicedEqualsSerialized() throws {
        let (store, after) = Self.store(changes: 400, keep: 150)
        var order = Array(after.indices)
        var random = SplitMix64(seed: 7)
        order.shuffle(using: &random)
        for index in order + order.prefix(50) {
            let (id, expected) = after[index]
            guard case .found(let entry) = store.past(at: id) else {
                Issue.record("\(id) not kept")
                continue
            }
            #expect(entry.snapshot.encodedDocumentKeepingNothing() == expected, "\(id)")
        }
    }

    @Test("with a cache of a few chunks, the answers stay exact and the cache in its bound")
    func smallCache() {
        let chunks = EncodedChunks(maxBytes: 20_000)
        var items = ChunkedArray<JSONValue>()
        var versions: [ChunkedArray<JSONValue>] = []
        for n in 0..<300 {
            items.insert(Self.item(n), at: 0)
            if items.count > 120 { _ = items.removeLast() }
            if n % 3 == 0, items.count > 10 { items[5] = Self.item(-n) }
            versions.append(items)
        }
        for version in versions.reversed() + versions {
            let expected = JSONSerializer.serialize(.object(["items": .array(Array(version))]))
            var bytes: [UInt8] = []
            chunks.appendItemList(version, to: &bytes)
            #expect(bytes == expected)
            #expect(chunks.byteCount <= chunks.maxBytes)
        }
    }
}
