import FeedCore
import Foundation
import Testing

@Suite("JSON byte count")
struct JSONByteCountTests {
    @Test("the count of a value is the length of its compact text, for every kind of value")
    func countEqualsSerializedLength() {
        var random = RandomJSON(seed: 0x5EED_B17E)
        for _ in 0..<2000 {
            let value = random.value()
            #expect(JSONByteCount.of(value) == value.serializedBytes().count, "\(value.serializedString())")
        }
        for text in ["", "\u{0}", "\u{1F}", "\"\\", "\n\r\t\u{8}\u{C}", "café 日本 😀", "\u{7F}"] {
            #expect(JSONByteCount.of(.string(text)) == JSONValue.string(text).serializedBytes().count)
        }
        for number in [0, 9, 10, -1, -10, Int64.max, Int64.min] {
            #expect(JSONByteCount.of(.int(number)) == JSONValue.int(number).serializedBytes().count)
        }
    }

    @Test("the store knows the encoded length of every state without encoding it: random edits as patches")
    func storeFollowsRandomPatches() throws {
        var random = RandomJSON(seed: 0xB1_7E5)
        for round in 0..<60 {
            let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
            var document = random.document()
            store.replaceDocument(document)
            for step in 0..<8 {
                var next = document
                random.edit(&next, edits: 1 + step % 3)
                let patch = JSONDiff.diff(from: document, to: next)
                try store.apply(patch)
                let snapshot = try #require(store.snapshot)
                #expect(
                    snapshot.encodedByteCount == next.serializedBytes().count,
                    "round \(round), step \(step): \(String(decoding: patch.serializedBytes(), as: UTF8.self))")
                document = next
            }
        }
    }

    @Test(
        "each operation moves the count by exactly what it writes or removes",
        arguments: [
            #"[{"op":"add","path":"/a/-","value":"x"}]"#,
            #"[{"op":"add","path":"/a/0","value":{"k":[1,2]}}]"#,
            #"[{"op":"add","path":"/new","value":null}]"#,
            #"[{"op":"add","path":"/o/k","value":true}]"#,
            #"[{"op":"add","path":"/e/first","value":1}]"#,
            #"[{"op":"add","path":"/ea/-","value":1}]"#,
            #"[{"op":"remove","path":"/a/1"}]"#,
            #"[{"op":"remove","path":"/one/0"}]"#,
            #"[{"op":"remove","path":"/o/k"}]"#,
            #"[{"op":"remove","path":"/single/only"}]"#,
            #"[{"op":"replace","path":"/o/k","value":"a much longer string"}]"#,
            #"[{"op":"replace","path":"","value":[1,2,3]}]"#,
            #"[{"op":"add","path":"","value":{"x":"y"}}]"#,
            #"[{"op":"move","from":"/a/0","path":"/a/2"}]"#,
            #"[{"op":"move","from":"/o/k","path":"/moved"}]"#,
            #"[{"op":"move","from":"/o/k","path":"/o/k"}]"#,
            #"[{"op":"copy","from":"/o","path":"/copy"}]"#,
            #"[{"op":"copy","from":"/a/1","path":"/a/0"}]"#,
            #"[{"op":"test","path":"/a/0","value":1}]"#,
            #"[{"op":"add","path":"/a/-","value":"x"},{"op":"remove","path":"/a/0"},{"op":"move","from":"/one/0","path":"/ea/0"}]"#,
        ])
    func operations(patch text: String) throws {
        let document = try JSONValue(
            parsing:
                #"{"a":[1,"two",{"three":3}],"o":{"k":"v","other":[]},"e":{},"ea":[],"one":["x"],"single":{"only":1}}"#
        )
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        store.replaceDocument(document)
        let patch = try JSONPatch(parsing: text)
        try store.apply(patch)
        let expected = try patch.applied(to: document)
        #expect(store.snapshot?.encodedByteCount == expected.serializedBytes().count)
        #expect(store.snapshot?.encodedDocument == expected.serializedBytes())
    }
}
