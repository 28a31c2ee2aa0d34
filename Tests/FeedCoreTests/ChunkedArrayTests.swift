import TestSupport
import Testing

@testable import FeedCore

/// `ChunkedArray` behaves as an `Array` under every operation, and its copies are
/// independent values.
@Suite(.onThreadsOfItsOwn)
struct ChunkedArrayTests {
    @Test("random inserts, removals and writes match an Array", arguments: UInt64(1)...6)
    func matchesArray(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var model: [Int] = Array(0..<Int(rng.next() % 300))
        var chunked = ChunkedArray(model)
        var versions: [([Int], ChunkedArray<Int>)] = []
        for step in 0..<3000 {
            let choice = rng.next() % 10
            if choice < 4 || model.isEmpty {
                // Mostly at the top, as an append feed does, sometimes anywhere.
                let position = choice < 2 ? 0 : Int(rng.next() % UInt64(model.count + 1))
                model.insert(step + 1000, at: position)
                chunked.insert(step + 1000, at: position)
            } else if choice < 7 {
                let position = choice == 4 ? model.count - 1 : Int(rng.next() % UInt64(model.count))
                #expect(chunked.remove(at: position) == model.remove(at: position))
            } else if choice < 9 {
                let position = Int(rng.next() % UInt64(model.count))
                model[position] = -step
                chunked[position] = -step
            } else {
                versions.append((model, chunked))
            }
            #expect(chunked.count == model.count)
        }
        #expect(Array(chunked) == model)
        #expect(chunked.indices.map { chunked[$0] } == model, "subscript agrees with iteration")
        // Every kept copy still holds what it held when it was taken.
        for (expected, version) in versions {
            #expect(Array(version) == expected)
        }
    }

    @Test func aCopyIsUnchangedByChangesToTheOriginal() {
        var original = ChunkedArray(0..<500)
        let copy = original
        original.insert(-1, at: 0)
        original.removeLast()
        original[250] = 0
        #expect(Array(copy) == Array(0..<500))
        #expect(Array(original) == [-1] + Array(0..<249) + [0] + Array(250..<499))
        #expect(copy != original)
        #expect(ChunkedArray(copy) == copy)
    }

    @Test func emptyAndSingle() {
        var array = ChunkedArray<String>()
        #expect(array.isEmpty && Array(array).isEmpty)
        array.insert("a", at: 0)
        #expect(array.first == "a" && array.count == 1)
        #expect(array.removeLast() == "a")
        #expect(array.isEmpty)
        array.append("b")
        #expect(array == ["b"])
    }
}
