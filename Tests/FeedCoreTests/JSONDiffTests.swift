import FeedCore
import TestSupport
import Testing

@Suite("JSON diff")
struct JSONDiffTests {
    @Test("equal documents give an empty patch")
    func equal() {
        let document = NewswireFeed.fullDocument(stories: 0..<20)
        #expect(JSONDiff.diff(from: document, to: document).isEmpty)
        #expect(
            JSONDiff.diff(from: jsonValue(#"{"a":1,"b":[1,2]}"#), to: jsonValue(#"{"b":[1.0,2],"a":1}"#)).isEmpty)
    }

    @Test("a new story on top and the last one dropped: exactly one add and one remove")
    func newStoryOnTop() throws {
        let before = NewswireFeed.fullDocument(stories: 1...20)
        var after = NewswireFeed.fullDocument(stories: [100] + Array(1...19))
        // num_results stays 20 here, so only the array changes.
        let patch = JSONDiff.diff(from: before, to: after)
        #expect(
            patch.operations == [
                .add(path: try JSONPointer("/results/0"), value: NewswireFeed.fullStory(100)),
                .remove(path: try JSONPointer("/results/20")),
            ])
        #expect(try patch.applied(to: before) == after)

        // And with num_results changed as well: one more replace.
        after = NewswireFeed.fullDocument(stories: [100] + Array(1...18))
        let second = JSONDiff.diff(from: before, to: after)
        #expect(second.operations.count == 4)
        #expect(
            second.operations.first == .replace(path: try JSONPointer("/num_results"), value: .int(19)))
        #expect(try second.applied(to: before) == after)
    }

    @Test("an edited title of one story: one replace at the nested path")
    func editedTitle() throws {
        let before = NewswireFeed.fullDocument(stories: 0..<20)
        var after = before
        try JSONPatch(
            parsing: #"[{"op":"replace","path":"/results/5/title","value":"A corrected headline"}]"#
        )
        .apply(to: &after)
        let patch = JSONDiff.diff(from: before, to: after)
        #expect(
            patch.operations == [
                .replace(path: try JSONPointer("/results/5/title"), value: .string("A corrected headline"))
            ])
    }

    @Test("several edits in one array give correct sequential indices")
    func sequentialIndices() throws {
        let a = jsonValue(#"[1,2,3,4,5,6,7,8]"#)
        let b = jsonValue(#"[0,1,3,4,"x",6,8,9,10]"#)
        let patch = JSONDiff.diff(from: a, to: b)
        #expect(try patch.applied(to: a) == b)
        #expect(patch.operations.count <= 6)
        let removals = jsonValue(#"[1,2,3,4,5]"#)
        #expect(
            JSONDiff.diff(from: removals, to: jsonValue("[1,5]")).operations == [
                .remove(path: try JSONPointer("/1")), .remove(path: try JSONPointer("/1")),
                .remove(path: try JSONPointer("/1")),
            ])
    }

    @Test("objects: remove, add, recurse; scalars and kind changes: replace")
    func objects() throws {
        let a = jsonValue(#"{"keep":1,"gone":2,"nested":{"x":1,"y":[1,2]},"kind":[1],"n":1}"#)
        let b = jsonValue(#"{"keep":1,"nested":{"x":2,"y":[1,2]},"kind":{"0":1},"n":1.0,"new~/":true}"#)
        let patch = JSONDiff.diff(from: a, to: b)
        #expect(
            patch.operations == [
                .remove(path: try JSONPointer("/gone")),
                .replace(path: try JSONPointer("/nested/x"), value: .int(2)),
                .replace(path: try JSONPointer("/kind"), value: jsonValue(#"{"0":1}"#)),
                .add(path: JSONPointer(tokens: ["new~/"]), value: .bool(true)),
            ])
        #expect(try patch.applied(to: a) == b)
        #expect(
            JSONDiff.diff(from: .int(1), to: .string("1")).operations == [
                .replace(path: .root, value: .string("1"))
            ])
        #expect(
            JSONDiff.diff(from: jsonValue("[1]"), to: jsonValue(#"{"a":1}"#)).operations == [
                .replace(path: .root, value: jsonValue(#"{"a":1}"#))
            ])
    }

    @Test("unrelated containers become one replace")
    func unrelated() throws {
        let a = JSONValue.array((0..<3000).map { .int(Int64($0)) })
        let b = JSONValue.array((0..<2500).map { .int(Int64($0 + 100_000)) })
        #expect(JSONDiff.diff(from: a, to: b).operations == [.replace(path: .root, value: b)])
        let x = jsonValue(#"{"results":[{"a":1,"b":2,"c":3,"d":4}]}"#)
        let y = jsonValue(#"{"results":[{"e":5}]}"#)
        #expect(
            JSONDiff.diff(from: x, to: y).operations == [
                .replace(path: try JSONPointer("/results/0"), value: jsonValue(#"{"e":5}"#))
            ])
    }

    @Test("huge arrays fall back to positional pairing and stay correct")
    func hugeArrays() throws {
        // Every element changed a little: the edit distance (6000) is beyond the alignment
        // limit, so elements are paired by position and diffed recursively.
        let a = JSONValue.array(
            (0..<3000).map { .object(["id": .int(Int64($0)), "v": .int(Int64($0))]) })
        let b = JSONValue.array(
            (0..<3000).map { .object(["id": .int(Int64($0)), "v": .int(Int64($0 + 1))]) })
        let patch = JSONDiff.diff(from: a, to: b)
        #expect(patch.operations.count == 3000)
        #expect(patch.operations.first == .replace(path: try JSONPointer("/0/v"), value: .int(1)))
        #expect(try patch.applied(to: a) == b)
        // A big array with a small change is still aligned exactly.
        let c = JSONValue.array((0..<50_000).map { .int(Int64($0)) })
        var elements = (0..<50_000).map { JSONValue.int(Int64($0)) }
        elements.insert(.string("new"), at: 25_000)
        elements.remove(at: 40_000)
        let d = JSONValue.array(elements)
        let small = JSONDiff.diff(from: c, to: d)
        #expect(small.operations.count == 2)
        #expect(try small.applied(to: c) == d)
    }

    @Test("property: diff(A, B) applied to A gives B, also after a JSON round trip of the patch")
    func property() throws {
        let baseSeed: UInt64 = 0x00C0_FFEE
        var derivedPairs = 0
        for iteration in 0..<600 {
            let seed = baseSeed &+ UInt64(iteration)
            var random = RandomJSON(seed: seed)
            let a = random.document()
            let b: JSONValue
            if random.chance(80) {
                var edited = a
                random.edit(&edited, edits: random.int(1..<5))
                b = edited
                derivedPairs += 1
            } else {
                b = random.chance(50) ? random.document() : random.value()
            }
            let patch = JSONDiff.diff(from: a, to: b)
            let context =
                "seed \(seed): A=\(a.serializedString()) B=\(b.serializedString()) patch=\(patch.json.serializedString())"
            do throws(JSONPatchError) {
                #expect(try patch.applied(to: a) == b, "\(context)")
                let reparsed = try JSONPatch(parsing: patch.serializedBytes())
                #expect(reparsed == patch, "\(context)")
                #expect(try reparsed.applied(to: a) == b, "\(context)")
            } catch {
                Issue.record("\(error) — \(context)")
            }
            if a == b {
                #expect(patch.isEmpty, "\(context)")
            }
        }
        #expect(derivedPairs > 400)
    }

    @Test("property: small edits give small patches")
    func smallPatches() throws {
        let baseSeed: UInt64 = 0x5A11
        for iteration in 0..<200 {
            let seed = baseSeed &+ UInt64(iteration)
            var random = RandomJSON(seed: seed)
            let a = NewswireFeed.fullDocument(stories: 0..<random.int(0..<25))
            var b = a
            random.edit(&b, edits: 1)
            let patch = JSONDiff.diff(from: a, to: b)
            // One random edit never needs more than a handful of operations here (a
            // "drop last + insert first" edit is two; a replaced member is one).
            #expect(patch.operations.count <= 3, "seed \(seed): \(patch.json.serializedString())")
            #expect(try patch.applied(to: a) == b, "seed \(seed)")
        }
    }
}
