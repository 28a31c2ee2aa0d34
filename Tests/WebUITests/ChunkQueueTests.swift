import Testing

@testable import WebUI

/// A stream's queue of chunks against an array doing the same: whatever the mix of
/// appends, takes and clears, it gives the chunks back in the order they came, the same
/// buffers (not copies), and is empty exactly when the array is.
@Suite struct ChunkQueueTests {
    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func behavesAsAnArray(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var queue = ChunkQueue()
        var model: [[UInt8]] = []
        var next: UInt8 = 0
        for _ in 0..<5_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                next &+= 1
                let chunk = [UInt8](repeating: next, count: Int.random(in: 1...4, using: &random))
                queue.append(chunk)
                model.append(chunk)
            case 5..<9:
                let taken = queue.popFirst()
                #expect(taken == (model.isEmpty ? nil : model.removeFirst()))
            default:
                if Int.random(in: 0..<4, using: &random) == 0 {
                    queue.removeAll()
                    model.removeAll()
                }
            }
            #expect(queue.isEmpty == model.isEmpty)
            #expect(queue.first == model.first)
        }
        while let taken = queue.popFirst() { #expect(taken == model.removeFirst()) }
        #expect(model.isEmpty)
    }

    /// A fan-out's event is queued by reference: the chunk taken out is the very buffer
    /// put in, whether it waited alone or behind others.
    @Test func chunksAreSharedNotCopied() {
        let event: [UInt8] = Array("data: x\n\n".utf8)
        var queue = ChunkQueue()
        for _ in 0..<3 { queue.append(event) }
        var addresses: [UnsafeRawPointer?] = []
        while let taken = queue.popFirst() { addresses.append(taken.withUnsafeBytes { $0.baseAddress }) }
        let original = event.withUnsafeBytes { $0.baseAddress }
        #expect(addresses.count == 3)
        #expect(addresses.allSatisfy { $0 == original })
    }
}
