import FeedCore
import Foundation

/// What a parser produced for a whole input.
struct SSETestOutcome {
    var events: [SSEEvent]
    var lastEventIDBuffer: String
    var lastEventID: String
    var reconnectionTime: Int?
}

enum SSETestSupport {
    /// Runs a new parser over `chunks`, one `parse` call per chunk, then `finish()`.
    static func run(_ chunks: [[UInt8]], maxEventBytes: Int = SSEParser.defaultMaxEventBytes) throws
        -> SSETestOutcome
    {
        var parser = SSEParser(maxEventBytes: maxEventBytes)
        var events: [SSEEvent] = []
        for chunk in chunks {
            try parser.parse(chunk, into: &events)
        }
        parser.finish()
        return SSETestOutcome(
            events: events,
            lastEventIDBuffer: parser.lastEventIDBuffer,
            lastEventID: parser.lastEventID,
            reconnectionTime: parser.reconnectionTime
        )
    }

    /// `bytes` cut into one-byte chunks.
    static func byteByByte(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.map { [$0] }
    }

    /// `bytes` cut at random places, with some empty chunks thrown in.
    static func randomSplit(_ bytes: [UInt8], seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        // Vary the typical chunk size from run to run: tiny, small, or large.
        let maxLength = [1, 2, 3, 7, 16, 64, 1024, 70_000][Int(rng.next() % 8)]
        var chunks: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            if rng.next() % 8 == 0 { chunks.append([]) }
            let length = min(bytes.count - i, 1 + Int(rng.next() % UInt64(maxLength)))
            chunks.append(Array(bytes[i..<(i + length)]))
            i += length
        }
        if rng.next() % 2 == 0 { chunks.append([]) }
        return chunks
    }

    /// Exact comparison, by UTF-8 bytes (`String ==` would accept canonically
    /// equivalent but different strings).
    static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    static func sameEvents(_ a: [SSEEvent], _ b: [SSEEvent]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { same($0.type, $1.type) && same($0.data, $1.data) && same($0.id, $1.id) }
    }

    /// A readable, escaped form of a string for failure messages (long strings cut).
    static func show(_ s: String) -> String {
        let scalars = s.unicodeScalars
        let shown = scalars.prefix(80).map { $0.escaped(asASCII: true) }.joined()
        return "\"" + shown + (scalars.count > 80 ? "…(\(scalars.count) scalars)" : "") + "\""
    }

    static func show(_ events: [SSEEvent]) -> String {
        "["
            + events.map { "{type: \(show($0.type)), data: \(show($0.data)), id: \(show($0.id))}" }
            .joined(separator: ", ") + "]"
    }

    /// The data a receiver sees for `data`: CRLF and lone CR turned into LF.
    static func normalizedLineBreaks(_ data: String) -> String {
        var out: [UInt8] = []
        var previousWasCR = false
        for byte in data.utf8 {
            if byte == 0x0A, previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 0x0D
            out.append(byte == 0x0D ? 0x0A : byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The directory of the fixtures, found next to this source file.
    static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sse", isDirectory: true)
}
