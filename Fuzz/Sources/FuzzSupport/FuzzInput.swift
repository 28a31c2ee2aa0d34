/// A fuzzer's input read as several values, front to back: a few control bytes (how to
/// split, which mode), then the payload. Reading past the end yields zeros and empty
/// slices, so every input, however short, is a valid one.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ start: UnsafeRawPointer, _ count: Int) {
        bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// The number of bytes not read yet.
    public var remainingCount: Int { bytes.count - offset }

    /// The next byte, or 0 at the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = end }
        return Array(bytes[offset..<end])
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] {
        take(remainingCount)
    }

    /// The rest split at the first `separator` byte: what is before it and what is after it
    /// (everything and nothing when there is none).
    public mutating func restSplit(at separator: UInt8) -> (head: [UInt8], tail: [UInt8]) {
        let all = rest()
        guard let index = all.firstIndex(of: separator) else { return (all, []) }
        return (Array(all[..<index]), Array(all[(index + 1)...]))
    }
}
