import FeedCore
import TestSupport
import Testing

@Suite("SSE encoder", .onThreadsOfItsOwn)
struct SSEEncoderTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Parses `wire` as one whole stream (in one chunk and byte by byte, which must agree).
    private func parse(_ wire: [UInt8]) throws -> SSETestOutcome {
        let whole = try SSETestSupport.run([wire])
        let bytewise = try SSETestSupport.run(SSETestSupport.byteByByte(wire))
        #expect(SSETestSupport.sameEvents(whole.events, bytewise.events))
        return whole
    }

    // MARK: Exact output

    @Test("event wire format")
    func eventWireFormat() {
        #expect(text(SSEEncoder.event(data: "hello")) == "data: hello\n\n")
        #expect(text(SSEEncoder.event(type: "patch", data: "[]", id: "7")) == "event: patch\nid: 7\ndata: []\n\n")
        #expect(text(SSEEncoder.event(type: "", data: "x", id: "")) == "id:\ndata: x\n\n")
        #expect(text(SSEEncoder.event(data: "")) == "data:\n\n")
        #expect(text(SSEEncoder.event(data: "a\nb")) == "data: a\ndata: b\n\n")
        #expect(text(SSEEncoder.event(data: "a\r\nb\rc")) == "data: a\ndata: b\ndata: c\n\n")
        #expect(text(SSEEncoder.event(data: "a\n")) == "data: a\ndata:\n\n")
        #expect(text(SSEEncoder.event(data: "\n")) == "data:\ndata:\n\n")
        #expect(text(SSEEncoder.event(data: " lead")) == "data:  lead\n\n")
    }

    @Test("CR, LF and NUL are stripped from type and id")
    func typeAndIDAreSanitised() throws {
        let wire = SSEEncoder.event(type: "pa\r\ntch\ndata: injected", data: "x", id: "1\n2\r3\u{0}4")
        #expect(text(wire) == "event: patchdata: injected\nid: 1234\ndata: x\n\n")
        let outcome = try parse(wire)
        #expect(outcome.events == [SSEEvent(type: "patchdata: injected", data: "x", id: "1234")])

        // A value that is nothing but line breaks writes no event line: type message.
        #expect(text(SSEEncoder.event(type: "\r\n", data: "x")) == "data: x\n\n")
        // NUL is legal in a type and kept.
        let nul = SSEEncoder.event(type: "a\u{0}b", data: "x")
        #expect(try parse(nul).events.first.map { SSETestSupport.same($0.type, "a\u{0}b") } == true)
    }

    @Test("comment wire format")
    func commentWireFormat() throws {
        #expect(text(SSEEncoder.comment("heartbeat")) == ": heartbeat\n")
        #expect(text(SSEEncoder.comment("")) == ":\n")
        #expect(text(SSEEncoder.comment("a\nb\r\n\rc")) == ": a\n: b\n:\n: c\n")
        // A comment never dispatches anything, even with field-like text.
        var wire = SSEEncoder.comment("x\n\ndata: no\n\n")
        #expect(try parse(wire).events.isEmpty)
        SSEEncoder.event(data: "yes", into: &wire)
        #expect(try parse(wire).events == [SSEEvent(data: "yes")])
    }

    @Test("retry wire format")
    func retryWireFormat() throws {
        #expect(text(SSEEncoder.retry(milliseconds: 3000)) == "retry: 3000\n\n")
        #expect(text(SSEEncoder.retry(milliseconds: 0)) == "retry: 0\n\n")
        #expect(text(SSEEncoder.retry(milliseconds: -5)) == "retry: 0\n\n")
        #expect(text(SSEEncoder.retry(milliseconds: Int.max)) == "retry: 9223372036854775807\n\n")
        var wire = SSEEncoder.retry(milliseconds: 4_294_967_296)
        SSEEncoder.event(data: "x", into: &wire)
        let outcome = try parse(wire)
        #expect(outcome.reconnectionTime == 4_294_967_296)
        #expect(outcome.events == [SSEEvent(data: "x")])
    }

    @Test("the into: forms append exactly what the returning forms return")
    func intoMatchesReturning() {
        var out: [UInt8] = Array("prefix".utf8)
        SSEEncoder.event(type: "t", data: "a\nb", id: "1", into: &out)
        SSEEncoder.comment("c", into: &out)
        SSEEncoder.retry(milliseconds: 5, into: &out)
        let big = String(repeating: "0123456789", count: 1000)  // past the small-event path
        SSEEncoder.event(type: "big", data: big + "\r\n" + big, id: "2", into: &out)
        let expected =
            Array("prefix".utf8) + SSEEncoder.event(type: "t", data: "a\nb", id: "1") + SSEEncoder.comment("c")
            + SSEEncoder.retry(milliseconds: 5) + SSEEncoder.event(type: "big", data: big + "\r\n" + big, id: "2")
        #expect(out == expected)
        #expect(text(out).hasSuffix("event: big\nid: 2\ndata: \(big)\ndata: \(big)\n\n"))
    }

    @Test(
        "bytes given as UTF-8 encode exactly as the String made from them, ill-formed ones included",
        arguments: [
            Array("{\"a\":[1,2]}".utf8), Array("a\nb\r\nc\rd".utf8), [], Array("é中🎉".utf8), [0xC3],
            [0x61, 0xFF, 0x62], [0xED, 0xA0, 0x80], Array("x\u{0}y".utf8), [0xF0, 0x9F, 0x8E], [0x0A, 0xC0, 0xAF],
        ] as [[UInt8]])
    func utf8DataMatchesString(_ data: [UInt8]) throws {
        let wire = SSEEncoder.event(type: "data", utf8Data: data, id: "e-1")
        #expect(wire == SSEEncoder.event(type: "data", data: String(decoding: data, as: UTF8.self), id: "e-1"))
        let outcome = try parse(wire)
        #expect(outcome.events.count == 1)
    }

    @Test("an event whose data is written into it equals the event made from that data")
    func writtenDataMatchesGivenData() throws {
        let document = JSONValue.object([
            "items": .array(
                (0..<300).map { .object(["title": .string("Story \($0) \u{2028} é\n\"q\""), "n": .int($0)]) })
        ])
        let encoded = document.serializedBytes()
        let written = SSEEncoder.event(type: "data", id: "ep-9", dataByteCount: encoded.count) {
            JSONSerializer.serialize(document, into: &$0)
        }
        #expect(written == SSEEncoder.event(type: "data", utf8Data: encoded, id: "ep-9"))
        #expect(try parse(written).events == [SSEEvent(type: "data", data: text(encoded), id: "ep-9")])
        // A wrong size is only a hint.
        let misjudged = SSEEncoder.event(id: nil, dataByteCount: 1) { $0.append(contentsOf: encoded) }
        #expect(misjudged == SSEEncoder.event(utf8Data: encoded))
    }

    @Test(
        "data written with a line break, ill-formed UTF-8 or nothing still makes a well-formed event",
        arguments: [Array("a\nb".utf8), Array("a\rb".utf8), Array("a\r\n".utf8), [0x61, 0xFF], []] as [[UInt8]])
    func writtenDataThatIsNotOneLine(_ data: [UInt8]) throws {
        let written = SSEEncoder.event(type: "t", id: "1", dataByteCount: data.count) { $0.append(contentsOf: data) }
        #expect(written == SSEEncoder.event(type: "t", data: String(decoding: data, as: UTF8.self), id: "1"))
        let outcome = try parse(written)
        #expect(outcome.events.count == 1)
        #expect(outcome.lastEventID == "1")
    }

    // MARK: Round trips

    @Test(
        "round trip",
        arguments: [
            "", "plain", "a\nb", "a\r\nb", "a\rb", "a\n", "a\r\n", "a\r", "\n", "\n\n", "\r\r", "\r\n\r\n",
            "\n\rmixed\r\n\n\r", " leading space", "  two spaces", "trailing space ", ":colon", "data: inner",
            "é", "e\u{301}", "caf\u{E9} vs cafe\u{301}", "中文", "🎉 emoji 👩‍👩‍👧", "\u{FEFF}bom", "nul\u{0}inside",
            "\u{2028}line sep\u{2029}para sep\u{85}nel\u{0B}vt\u{0C}ff", "\t tab",
            String(repeating: "long ", count: 5000), String(repeating: "x\n", count: 300),
        ])
    func roundTrip(_ data: String) throws {
        for (type, id) in [(String?.none, String?.none), ("update", "id-1"), ("", ""), ("ü", "😀 1")] {
            let wire = SSEEncoder.event(type: type, data: data, id: id)
            let outcome = try parse(wire)
            let expected = SSEEvent(
                type: (type ?? "").isEmpty ? "message" : (type ?? ""),
                data: SSETestSupport.normalizedLineBreaks(data),
                id: id ?? ""
            )
            #expect(
                SSETestSupport.sameEvents(outcome.events, [expected]),
                "type \(type.map(SSETestSupport.show) ?? "nil"), id \(id.map(SSETestSupport.show) ?? "nil"): got \(SSETestSupport.show(outcome.events)) for \(SSETestSupport.show(data))"
            )
        }
    }

    @Test("random events round-trip through encoder and parser", arguments: UInt64(1)...8)
    func randomRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let pieces: [String] = [
            "a", "b", "z", "0", " ", "  ", ":", ": ", "\n", "\r", "\r\n", "\n\r", "\t", "data", "id", "event", "retry",
            "é", "e\u{301}", "ß", "中", "🎉", "👩‍👩‍👧", "\u{FEFF}", "\u{0}", "\u{2028}", "\u{85}", "\u{FFFD}", "{\"k\":[1,2]}",
        ]
        func randomString(maxPieces: Int) -> String {
            let n = Int(rng.next() % UInt64(maxPieces + 1))
            return (0..<n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        }

        var wire: [UInt8] = []
        var expected: [SSEEvent] = []
        var currentID = ""
        var retry: Int?
        for _ in 0..<300 {
            switch rng.next() % 10 {
            case 0:
                SSEEncoder.comment(randomString(maxPieces: 6), into: &wire)
            case 1:
                let ms = Int(rng.next() % 100_000)
                SSEEncoder.retry(milliseconds: ms, into: &wire)
                retry = ms
            default:
                let type: String? = rng.next() % 3 == 0 ? nil : randomString(maxPieces: 3)
                let id: String? = rng.next() % 2 == 0 ? nil : randomString(maxPieces: 3)
                let data = randomString(maxPieces: 12)
                SSEEncoder.event(type: type, data: data, id: id, into: &wire)
                let strip: (String, Bool) -> String = { value, nul in
                    String(
                        value.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && !(nul && $0 == "\u{0}") }.map(
                            Character.init))
                }
                let cleanType = strip(type ?? "", false)
                if let id { currentID = strip(id, true) }
                expected.append(
                    SSEEvent(
                        type: cleanType.isEmpty ? "message" : cleanType,
                        data: SSETestSupport.normalizedLineBreaks(data),
                        id: currentID
                    )
                )
            }
        }
        for k in UInt64(0)..<4 {
            let splitSeed = seed &* 1000 &+ k
            let outcome = try SSETestSupport.run(SSETestSupport.randomSplit(wire, seed: splitSeed))
            #expect(outcome.events.count == expected.count, "seed \(seed), split seed \(splitSeed)")
            for (index, (got, want)) in zip(outcome.events, expected).enumerated() {
                #expect(
                    SSETestSupport.sameEvents([got], [want]),
                    "seed \(seed), split seed \(splitSeed), event \(index): got \(SSETestSupport.show([got])), expected \(SSETestSupport.show([want]))"
                )
            }
            #expect(outcome.lastEventID == currentID, "seed \(seed)")
            #expect(outcome.reconnectionTime == retry, "seed \(seed)")
        }
    }
}
