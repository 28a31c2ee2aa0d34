import FeedCore
import Testing

/// ``JSONTextSplitter``: the texts of newline-delimited JSON, JSON text sequences and
/// streamed values, however the bytes are split into reads.
@Suite("JSON text splitter")
struct JSONTextSplitterTests {
    /// The texts of `stream` fed in reads of `size` bytes, then finished; the error, if any.
    static func split(
        _ stream: String, framing: JSONTextSplitter.Framing, size: Int = .max, limit: Int = 1 << 20
    ) -> (texts: [String], error: JSONTextSplitterError?) {
        let bytes = Array(stream.utf8)
        var splitter = JSONTextSplitter(framing: framing, maxTextBytes: limit)
        var texts: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + max(1, min(size, bytes.count)))
            do {
                try bytes[start..<end].withUnsafeBytes { try splitter.split($0, into: &texts) }
            } catch {
                return (texts.map { String(decoding: $0, as: UTF8.self) }, error as? JSONTextSplitterError)
            }
            start = end
        }
        splitter.finish(into: &texts)
        return (texts.map { String(decoding: $0, as: UTF8.self) }, nil)
    }

    /// Every way of splitting `stream` in two reads, and byte by byte, gives `expected`.
    static func expectEverySplit(_ stream: String, framing: JSONTextSplitter.Framing, give expected: [String]) {
        #expect(split(stream, framing: framing).texts == expected, "whole")
        #expect(split(stream, framing: framing, size: 1).texts == expected, "byte by byte")
        let bytes = Array(stream.utf8)
        for cut in 1..<max(1, bytes.count) {
            var splitter = JSONTextSplitter(framing: framing, maxTextBytes: 1 << 20)
            var texts: [[UInt8]] = []
            try? bytes[..<cut].withUnsafeBytes { try splitter.split($0, into: &texts) }
            try? bytes[cut...].withUnsafeBytes { try splitter.split($0, into: &texts) }
            splitter.finish(into: &texts)
            #expect(texts.map { String(decoding: $0, as: UTF8.self) } == expected, "cut at \(cut)")
        }
    }

    @Test("NDJSON: one text per line; blank lines, CRLF and a last line without its line feed")
    func lines() {
        Self.expectEverySplit(
            "{\"a\":1}\n\n  [1,2]\r\n\"x\"\n{\"b\":{\"c\":\"}\\\"{\"}}\n7",
            framing: .lines, give: ["{\"a\":1}", "[1,2]\r", "\"x\"", "{\"b\":{\"c\":\"}\\\"{\"}}", "7"])
    }

    @Test("NDJSON: a broken line costs that line only")
    func brokenLine() {
        Self.expectEverySplit(
            "{\"a\":1\n{\"b\":2}\n{\"s\":\"no end\n[3]\n", framing: .lines,
            give: ["{\"a\":1", "{\"b\":2}", "{\"s\":\"no end", "[3]"])
    }

    @Test("JSON text sequences (RFC 7464): a record separator before each text")
    func textSequences() {
        Self.expectEverySplit(
            "\u{1E}{\"a\":1}\n\u{1E}{\"b\":\n\u{1E}[2]\n", framing: .lines, give: ["{\"a\":1}", "{\"b\":", "[2]"])
        Self.expectEverySplit("\u{1E}{\"a\":\n1}\u{1E}[2]", framing: .values, give: ["{\"a\":\n1}", "[2]"])
    }

    @Test("values: pretty-printed over lines, back to back, scalars between white space")
    func values() {
        let pretty = "{\n  \"id\": \"x\",\n  \"nested\": [\n    1,\n    {\"k\": \"]}\"}\n  ]\n}"
        Self.expectEverySplit(
            pretty + "{\"b\":2}[3]\n\"s\\\"}\" 12 true\nnull{\"c\":3}",
            framing: .values,
            give: [pretty, "{\"b\":2}", "[3]", "\"s\\\"}\"", "12", "true", "null", "{\"c\":3}"])
    }

    @Test("a byte-order mark at the very start is skipped, elsewhere kept")
    func byteOrderMark() {
        Self.expectEverySplit("\u{FEFF}{\"a\":1}\n", framing: .lines, give: ["{\"a\":1}"])
        Self.expectEverySplit("\u{FEFF}[1]", framing: .values, give: ["[1]"])
        // Two bytes of a mark and then something else: the bytes belong to the text.
        var splitter = JSONTextSplitter(framing: .lines, maxTextBytes: 64)
        var texts: [[UInt8]] = []
        let bytes: [UInt8] = [0xEF, 0xBB, UInt8(ascii: "x"), UInt8(ascii: "\n"), 0xEF, 0xBB, 0xBF, UInt8(ascii: "1")]
        try? bytes.withUnsafeBytes { try splitter.split($0, into: &texts) }
        splitter.finish(into: &texts)
        #expect(texts == [[0xEF, 0xBB, UInt8(ascii: "x")], [0xEF, 0xBB, 0xBF, UInt8(ascii: "1")]])
    }

    @Test("a text over the limit throws, after the texts before it in the same read")
    func tooLarge() {
        let (texts, error) = Self.split("[1]\n[22222222222]\n[3]\n", framing: .lines, limit: 8)
        #expect(texts == ["[1]"])
        #expect(error == .textTooLarge(limit: 8))
        // At the limit exactly: taken.
        #expect(Self.split("[1234567]\n", framing: .lines, limit: 9).texts == ["[1234567]"])
        // A value whose brackets never balance is bounded the same way.
        let (_, unbalanced) = Self.split("{\"a\":[" + String(repeating: "1,", count: 100), framing: .values, limit: 64)
        #expect(unbalanced == .textTooLarge(limit: 64))
    }
}
