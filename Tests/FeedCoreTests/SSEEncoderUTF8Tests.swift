import TestSupport
import Testing

@testable import FeedCore

/// The encoder's UTF-8 check (``SSEEncoder/isWellFormedUTF8(_:)``) agrees with the standard
/// library's on every byte string: exhaustively up to two bytes, and on random strings of
/// valid scalars, stray leads and continuations, overlong forms and surrogates, at every
/// offset from the eight-byte ASCII steps.
@Suite("SSE encoder: UTF-8 check", .onThreadsOfItsOwn)
struct SSEEncoderUTF8Tests {
    static func standardLibrarySays(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    static func encoderSays(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { SSEEncoder.isWellFormedUTF8($0) }
    }

    @Test("every string of up to two bytes")
    func everyShortString() {
        var disagreements: [[UInt8]] = []
        for first in 0...255 {
            for second in -1...255 {
                let bytes = second < 0 ? [UInt8(first)] : [UInt8(first), UInt8(second)]
                if Self.encoderSays(bytes) != Self.standardLibrarySays(bytes) { disagreements.append(bytes) }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test("random strings around the sequences' edges", arguments: UInt64(1)...4)
    func randomStrings(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Bytes where the rules change: ASCII, continuations, leads and their neighbours.
        let edges: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
            0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        let scalars: [String] = ["a", "é", "中", "🎉", "\u{FFFD}", "\u{10FFFF}", "\u{7FF}", "\u{800}", "\u{FFFF}"]
        var disagreements: [[UInt8]] = []
        for _ in 0..<4000 {
            var bytes: [UInt8] = []
            // An ASCII run first, so the odd bytes fall at every offset of an 8-byte step.
            bytes += Array(repeating: 0x61, count: Int(rng.next() % 20))
            for _ in 0..<Int(rng.next() % 12) {
                switch rng.next() % 3 {
                case 0: bytes.append(edges[Int(rng.next() % UInt64(edges.count))])
                case 1: bytes += Array(scalars[Int(rng.next() % UInt64(scalars.count))].utf8)
                default: bytes += Array(repeating: 0x62, count: Int(rng.next() % 10))
                }
            }
            if Self.encoderSays(bytes) != Self.standardLibrarySays(bytes) { disagreements.append(bytes) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
