/// The demo's own deterministic random source: ``SplitMix64`` and the draws the demo needs.
///
/// The demo never touches `SystemRandomNumberGenerator`, and every helper here
/// (bounded integers, picks, shuffles) is implemented locally rather than through the
/// standard library's `random(in:using:)`, whose exact use of the generator is not a
/// documented contract. So a seed reproduces the same feed on every platform and
/// toolchain.
struct DemoRandom: Sendable {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        generator.next()
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-and-reject, no modulo bias).
    ///
    /// - Precondition: `bound > 0`.
    mutating func int(below bound: Int) -> Int {
        precondition(bound > 0, "DemoRandom.int(below:) needs a positive bound")
        let limit = UInt64(bound)
        var product = next().multipliedFullWidth(by: limit)
        if product.low < limit {
            let threshold = (0 &- limit) % limit
            while product.low < threshold {
                product = next().multipliedFullWidth(by: limit)
            }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(below: range.upperBound - range.lowerBound + 1)
    }

    /// `true` with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        int(below: denominator) < numerator
    }

    /// A uniformly chosen element.
    ///
    /// - Precondition: `items` is not empty. Only ever called on the story bank's static,
    ///   non-empty tables (the tests check that they are non-empty).
    mutating func pick<T>(_ items: [T]) -> T {
        precondition(!items.isEmpty, "DemoRandom.pick(_:) needs a non-empty array")
        return items[int(below: items.count)]
    }

    /// `items` in a uniformly random order (Fisher–Yates).
    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var result = items
        var i = result.count - 1
        while i > 0 {
            result.swapAt(i, int(below: i + 1))
            i -= 1
        }
        return result
    }

    /// A lowercase UUID-shaped string (version 4 and RFC 4122 variant bits set), made
    /// from this generator so it is reproducible.
    mutating func uuidString() -> String {
        let high = (next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = Self.hex(high, digits: 16) + Self.hex(low, digits: 16)
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-"
            + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
