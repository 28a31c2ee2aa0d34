import FeedCore
import Foundation
import TestSupport
import Testing

/// One record of `Fixtures/sse/cases.json` (see `Fixtures/sse/README.md`).
struct SSEConformanceCase: Decodable, Sendable, CustomTestStringConvertible {
    struct ExpectedEvent: Decodable, Sendable {
        var type: String
        var data: String
        var id: String
    }

    struct Generator: Decodable, Sendable {
        var text: String
        var times: Int
    }

    var name: String
    var category: String
    var chunks: [String]?
    var chunksB64: [String]?
    var `repeat`: [String: Generator]?
    var events: [ExpectedEvent]
    var lastEventId: String
    var lastEventIdString: String?
    var retryMs: Int?

    var testDescription: String { name }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }

    /// `text` with every `repeat` placeholder expanded.
    func expand(_ text: String) -> String {
        guard let generators = `repeat` else { return text }
        var text = text
        for (placeholder, generator) in generators {
            text = text.replacingOccurrences(
                of: placeholder,
                with: String(repeating: generator.text, count: generator.times)
            )
        }
        return text
    }

    /// The input chunks as bytes, exactly as the record gives them (empty ones included).
    func inputChunks() throws -> [[UInt8]] {
        switch (chunks, chunksB64) {
        case (let chunks?, nil):
            return chunks.map { Array(expand($0).utf8) }
        case (nil, let encoded?):
            guard `repeat` == nil else { throw FixtureError(description: "\(name): repeat with chunks_b64") }
            return try encoded.map { text in
                guard let data = Data(base64Encoded: text) else {
                    throw FixtureError(description: "\(name): bad base64 \(text)")
                }
                return [UInt8](data)
            }
        default:
            throw FixtureError(description: "\(name): needs exactly one of chunks / chunks_b64")
        }
    }

    var expectedEvents: [SSEEvent] {
        events.map { SSEEvent(type: expand($0.type), data: expand($0.data), id: expand($0.id)) }
    }

    static func loadAll() throws -> [SSEConformanceCase] {
        let url = SSETestSupport.fixturesDirectory.appendingPathComponent("cases.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode([SSEConformanceCase].self, from: Data(contentsOf: url))
    }
}

/// How the record's bytes are fed to the parser.
enum SSESplitMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The record's chunks, one call each, as the runner rules require.
    case asGiven = "chunks as given"
    /// Every byte of the input in its own chunk.
    case byteByByte = "byte by byte"
    /// Several random splits from seeded generators.
    case randomSplits = "random splits"

    var testDescription: String { rawValue }
}

@Suite("SSE parser conformance (Fixtures/sse/cases.json)", .onThreadsOfItsOwn)
struct SSEParserConformanceTests {
    static let randomSplitsPerRecord = 6

    @Test("fixture has 140 records with unique names and one input form each")
    func fixtureShape() throws {
        let cases = try SSEConformanceCase.loadAll()
        #expect(cases.count == 140)
        #expect(Set(cases.map(\.name)).count == cases.count)
        for record in cases {
            #expect((record.chunks == nil) != (record.chunksB64 == nil), "\(record.name)")
        }
        #expect(cases.filter { $0.chunksB64 != nil }.count == 11)
        #expect(cases.filter { $0.repeat != nil }.count == 2)
        #expect(cases.filter { $0.lastEventIdString != nil }.count == 2)
    }

    @Test("record", arguments: try SSEConformanceCase.loadAll(), SSESplitMode.allCases)
    func record(_ record: SSEConformanceCase, mode: SSESplitMode) throws {
        let given = try record.inputChunks()
        switch mode {
        case .asGiven:
            try check(record, given, how: "chunks as given")
        case .byteByByte:
            try check(record, SSETestSupport.byteByByte(given.flatMap { $0 }), how: "byte by byte")
        case .randomSplits:
            let bytes = given.flatMap { $0 }
            var nameHash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a of the record name
            for byte in record.name.utf8 { nameHash = (nameHash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            for k in 0..<UInt64(Self.randomSplitsPerRecord) {
                let seed = nameHash &+ k
                let chunks = SSETestSupport.randomSplit(bytes, seed: seed)
                try check(record, chunks, how: "random split, seed \(seed) (\(chunks.count) chunks)")
            }
        }
    }

    private func check(_ record: SSEConformanceCase, _ chunks: [[UInt8]], how: String) throws {
        let outcome = try SSETestSupport.run(chunks)
        let expected = record.expectedEvents
        #expect(
            SSETestSupport.sameEvents(outcome.events, expected),
            "\(how): events \(SSETestSupport.show(outcome.events)), expected \(SSETestSupport.show(expected))"
        )
        #expect(
            SSETestSupport.same(outcome.lastEventIDBuffer, record.lastEventId),
            "\(how): last event ID buffer \(SSETestSupport.show(outcome.lastEventIDBuffer)), expected \(SSETestSupport.show(record.lastEventId))"
        )
        let expectedString = record.lastEventIdString ?? record.lastEventId
        #expect(
            SSETestSupport.same(outcome.lastEventID, expectedString),
            "\(how): last event ID string \(SSETestSupport.show(outcome.lastEventID)), expected \(SSETestSupport.show(expectedString))"
        )
        #expect(outcome.reconnectionTime == record.retryMs, "\(how): reconnection time")
    }
}
