import FeedCore
import TestSupport
import Testing

@Suite("JSON parser (RFC 8259)")
struct JSONParserTests {
    func parseError(_ text: String) -> JSONParseError? {
        parseError(Array(text.utf8))
    }

    func parseError(_ bytes: [UInt8]) -> JSONParseError? {
        do throws(JSONParseError) {
            _ = try JSONValue(parsing: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("scalars, containers and whitespace")
    func basics() throws {
        #expect(try JSONValue(parsing: "null") == .null)
        #expect(try JSONValue(parsing: " true ") == .bool(true))
        #expect(try JSONValue(parsing: "\t\r\nfalse\n") == .bool(false))
        #expect(try JSONValue(parsing: "42") == .int(42))
        #expect(try JSONValue(parsing: #""hi""#) == .string("hi"))
        #expect(try JSONValue(parsing: "[]") == .array([]))
        #expect(try JSONValue(parsing: "{}") == .object([:]))
        #expect(
            try JSONValue(parsing: " [ 1 , [ ] , { } , \"x\" ] ")
                == .array([.int(1), .array([]), .object([:]), .string("x")]))
        let object = try JSONValue(parsing: "{ \"b\" : 1 ,\n\"a\":[true,null] }")
        #expect(object.objectValue?.keys.elements == ["b", "a"])
        #expect(object["a"] == .array([.bool(true), .null]))
    }

    @Test("duplicate keys: last value wins")
    func duplicateKeys() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        #expect(value == jsonValue(#"{"a":3,"b":2}"#))
        #expect(value.objectValue?.count == 2)
    }

    @Test(
        "rejects what RFC 8259 does not allow",
        arguments: [
            ("", JSONParseError.unexpectedEndOfInput(offset: 0)),
            ("   ", .unexpectedEndOfInput(offset: 3)),
            ("[1,]", .unexpectedByte(UInt8(ascii: "]"), offset: 3)),
            (#"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}"), offset: 7)),
            ("[,1]", .unexpectedByte(UInt8(ascii: ","), offset: 1)),
            ("[1 2]", .unexpectedByte(UInt8(ascii: "2"), offset: 3)),
            (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1"), offset: 5)),
            ("{a:1}", .unexpectedByte(UInt8(ascii: "a"), offset: 1)),
            ("{'a':1}", .unexpectedByte(UInt8(ascii: "'"), offset: 1)),
            ("NaN", .unexpectedByte(UInt8(ascii: "N"), offset: 0)),
            ("Infinity", .unexpectedByte(UInt8(ascii: "I"), offset: 0)),
            ("-Infinity", .invalidNumber(offset: 0)),
            ("[nan]", .invalidLiteral(offset: 1)),
            ("tru", .invalidLiteral(offset: 0)),
            ("nul", .invalidLiteral(offset: 0)),
            ("True", .unexpectedByte(UInt8(ascii: "T"), offset: 0)),
            ("01", .invalidNumber(offset: 0)),
            ("-01", .invalidNumber(offset: 0)),
            ("[00]", .invalidNumber(offset: 1)),
            ("1.", .invalidNumber(offset: 0)),
            ("1.e5", .invalidNumber(offset: 0)),
            (".5", .unexpectedByte(UInt8(ascii: "."), offset: 0)),
            ("+1", .unexpectedByte(UInt8(ascii: "+"), offset: 0)),
            ("-", .invalidNumber(offset: 0)),
            ("1e", .invalidNumber(offset: 0)),
            ("1e+", .invalidNumber(offset: 0)),
            ("0x10", .trailingData(offset: 1)),
            ("1 2", .trailingData(offset: 2)),
            ("{}}", .trailingData(offset: 2)),
            ("[1]x", .trailingData(offset: 3)),
            ("[", .unexpectedEndOfInput(offset: 1)),
            ("[1", .unexpectedEndOfInput(offset: 2)),
            (#"{"a""#, .unexpectedEndOfInput(offset: 4)),
            (#"{"a":"#, .unexpectedEndOfInput(offset: 5)),
            (#""abc"#, .unexpectedEndOfInput(offset: 4)),
            (#""abcdefghijklmnop"#, .unexpectedEndOfInput(offset: 17)),
            ("]", .unexpectedByte(UInt8(ascii: "]"), offset: 0)),
            (#""\x""#, .invalidEscape(offset: 1)),
            (#""\'""#, .invalidEscape(offset: 1)),
            (#""\u12""#, .invalidUnicodeEscape(offset: 1)),
            (#""\u12G4""#, .invalidUnicodeEscape(offset: 1)),
            (#""\"#, .unexpectedEndOfInput(offset: 2)),
            ("\"a\tb\"", .controlCharacterInString(0x09, offset: 2)),
            ("\"line\nbreak\"", .controlCharacterInString(0x0A, offset: 5)),
            ("\"0123456789\u{1F}\"", .controlCharacterInString(0x1F, offset: 11)),
            ("\u{0C}1", .unexpectedByte(0x0C, offset: 0)),
            ("\u{A0}1", .unexpectedByte(0xC2, offset: 0)),
            ("\u{FEFF}{}", .unexpectedByte(0xEF, offset: 0)),
            ("1e400", .numberOutOfRange(offset: 0)),
            ("[-1e400]", .numberOutOfRange(offset: 1)),
            ("1" + String(repeating: "0", count: 400), .numberOutOfRange(offset: 0)),
        ]
    )
    func strictness(text: String, expected: JSONParseError) {
        #expect(parseError(text) == expected)
    }

    @Test("error descriptions say what and where")
    func errorDescription() {
        #expect(parseError("[1,]")?.description == "unexpected ']' (0x5D) at byte 3")
        #expect(parseError("[1,]")?.offset == 3)
        #expect(
            parseError("\"a\u{1}\"")?.description
                == "unescaped control character byte 0x01 in string at byte 2")
        #expect(parseError("[1e999]")?.description == "number out of range of Double at byte 1")
    }

    @Test("nesting depth limit instead of a stack overflow")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONValue(parsing: ok).arrayValue?.count == 1)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(parseError(tooDeep) == .nestingTooDeep(limit: 512, offset: 512))
        let objects =
            String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
        #expect(parseError(objects) == .nestingTooDeep(limit: 512, offset: 512 * 5))
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(parseError(hostile) == .nestingTooDeep(limit: 512, offset: 512))
        #expect(throws: JSONParseError.nestingTooDeep(limit: 2, offset: 2)) {
            try JSONParser.parse("[[[1]]]", maxDepth: 2)
        }
        #expect(try JSONParser.parse("[[1]]", maxDepth: 2) == jsonValue("[[1]]"))
    }

    @Test("escapes and unicode")
    func unicode() throws {
        #expect(try JSONValue(parsing: #""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try JSONValue(parsing: #""\u0041\u00e9\u00E9\u20AC\u0000""#) == .string("Aéé€\u{0}"))
        #expect(try JSONValue(parsing: #""\ud83d\ude00 \uD834\uDD1E""#) == .string("😀 𝄞"))
        #expect(try JSONValue(parsing: "\"raw é € 😀 日本\"") == .string("raw é € 😀 日本"))
        #expect(try JSONValue(parsing: #"{"k\u00e9y":"v"}"#) == .object(["kéy": .string("v")]))
        // Escapes mixed with long plain runs and raw non-ASCII (exercises the 8-byte scan).
        let long = String(repeating: "abcdefgh", count: 10)
        #expect(
            try JSONValue(parsing: "\"\(long)\\n\(long)é\(long)\"")
                == .string(long + "\n" + long + "é" + long))
    }

    @Test("lone surrogate escapes become U+FFFD")
    func loneSurrogates() throws {
        #expect(try JSONValue(parsing: #""\ud800""#) == .string("\u{FFFD}"))
        #expect(try JSONValue(parsing: #""a\udc00b""#) == .string("a\u{FFFD}b"))
        #expect(try JSONValue(parsing: #""\ud800\u0041""#) == .string("\u{FFFD}A"))
        #expect(try JSONValue(parsing: #""\ud800\ud800\udc00""#) == .string("\u{FFFD}𐀀"))
        #expect(try JSONValue(parsing: #""\udc00\ud800""#) == .string("\u{FFFD}\u{FFFD}"))
        #expect(parseError(#""\ud800\u00""#) == .invalidUnicodeEscape(offset: 7))
    }

    @Test(
        "invalid UTF-8 is an error at the offending byte",
        arguments: [
            ([0x22, 0xC0, 0x80, 0x22], 1),  // overlong NUL
            ([0x22, 0xC1, 0xBF, 0x22], 1),  // overlong
            ([0x22, 0xE0, 0x80, 0x80, 0x22], 1),  // overlong 3-byte
            ([0x22, 0x61, 0xED, 0xA0, 0x80, 0x22], 2),  // encoded surrogate U+D800
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
            ([0x22, 0xE2, 0x82, 0x22], 1),  // truncated
            ([0x22, 0xE2, 0x82], 1),  // truncated at end of input
            ([0x22, 0x80, 0x22], 1),  // stray continuation
            ([0x22, 0xFF, 0x22], 1),
            ([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 3),  // after an escape
            (Array("\"0123456789abcdef".utf8) + [0xC3, 0x22], 17),
        ] as [([UInt8], Int)]
    )
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        #expect(parseError(bytes) == .invalidUTF8(offset: offset))
    }

    @Test("integers: Int64 range is .int, beyond is .double")
    func integers() throws {
        #expect(try JSONValue(parsing: "0") == .int(0))
        #expect(try JSONValue(parsing: "-7") == .int(-7))
        guard case .int(let max) = try JSONValue(parsing: "9223372036854775807") else {
            Issue.record("Int64.max is not .int")
            return
        }
        #expect(max == Int64.max)
        guard case .int(let min) = try JSONValue(parsing: "-9223372036854775808") else {
            Issue.record("Int64.min is not .int")
            return
        }
        #expect(min == Int64.min)
        guard case .double(let above) = try JSONValue(parsing: "9223372036854775808") else {
            Issue.record("2^63 is not .double")
            return
        }
        #expect(above == 9_223_372_036_854_775_808.0)
        guard case .double(let below) = try JSONValue(parsing: "-9223372036854775809") else {
            Issue.record("-2^63-1 is not .double")
            return
        }
        #expect(below == -9_223_372_036_854_775_808.0)
        guard case .double(let huge) = try JSONValue(parsing: "123456789012345678901234567890") else {
            Issue.record("30 digits is not .double")
            return
        }
        #expect(huge == 1.2345678901234568e29)
        #expect(try JSONValue(parsing: "18446744073709551615") == .double(18_446_744_073_709_551_615.0))
    }

    @Test("-0 keeps its sign as a double; fractions and exponents are doubles")
    func negativeZeroAndDoubles() throws {
        guard case .double(let negativeZero) = try JSONValue(parsing: "-0") else {
            Issue.record("-0 is not .double")
            return
        }
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        #expect(try JSONValue(parsing: "-0") == .int(0))
        guard case .double(let d) = try JSONValue(parsing: "-0.0e5") else {
            Issue.record("-0.0e5 is not .double")
            return
        }
        #expect(d.sign == .minus && d == 0)
        guard case .double(let oneHalf) = try JSONValue(parsing: "1.0") else {
            Issue.record("1.0 is not .double")
            return
        }
        #expect(oneHalf == 1)
        #expect(try JSONValue(parsing: "1E2") == .double(100))
        #expect(try JSONValue(parsing: "1e-2") == .double(0.01))
        #expect(try JSONValue(parsing: "1.5e+3") == .double(1500))
        #expect(try JSONValue(parsing: "0.1") == .double(0.1))
        #expect(try JSONValue(parsing: "1e-400") == .double(0))
        #expect(try JSONValue(parsing: "0e99999999999") == .double(0))
        #expect(try JSONValue(parsing: "1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(try JSONValue(parsing: "4.9e-324") == .double(.leastNonzeroMagnitude))
        #expect(
            try JSONValue(parsing: "2.2250738585072011e-308")
                == .double(Double.leastNormalMagnitude.nextDown))
        #expect(try JSONValue(parsing: "0.00000000000000000000000000012345") == .double(1.2345e-28))
        #expect(try JSONValue(parsing: "9007199254740993.0") == .double(9_007_199_254_740_992))
        #expect(try JSONValue(parsing: "3.14159265358979323846264338327950288") == .double(Double.pi))
    }

    @Test("doubles round-trip bit for bit through the serializer")
    func doubleRoundTrip() throws {
        var random = SplitMix64(seed: 0xD0_0B1E)
        for _ in 0..<20_000 {
            let d = Double(bitPattern: random.next())
            guard d.isFinite else { continue }
            let text = JSONValue.double(d).serializedString()
            let parsed = try JSONValue(parsing: text)
            guard case .double(let back) = parsed else {
                Issue.record("\(text) did not parse as a double")
                return
            }
            #expect(back.bitPattern == d.bitPattern, "\(text)")
        }
    }

    @Test("decimal texts parse to the same Double as the standard library's strtod")
    func decimalTexts() throws {
        var random = SplitMix64(seed: 0xDEC1_3A1)
        for _ in 0..<20_000 {
            let digits = String(random.next() % 100_000_000_000_000_000)
            let point = Int(random.next() % UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + "." + digits.dropFirst(point)
            if text.hasPrefix(".") { text = "0" + text }
            if text.hasSuffix(".") { text += "0" }
            if random.next() % 2 == 0 { text += "e\(Int(random.next() % 80) - 40)" }
            let expected = Double(text)
            guard case .double(let parsed) = try JSONValue(parsing: text) else {
                Issue.record("\(text) is not a double")
                return
            }
            #expect(parsed == expected, "\(text)")
        }
    }

    @Test("every input form gives the same result")
    func inputForms() throws {
        let text = #"{"a":[1,2.5,"é"],"b":null}"#
        let expected = try JSONValue(parsing: text)
        let bytes = Array(text.utf8)
        #expect(try JSONValue(parsing: bytes) == expected)
        #expect(try JSONValue(parsing: bytes[...]) == expected)
        #expect(try JSONValue(parsing: text.utf8) == expected)
        #expect(try JSONValue(parsing: bytes.lazy.map { $0 }) == expected)
        #expect(
            try bytes.withUnsafeBytes { buffer throws(JSONParseError) in try JSONParser.parse(buffer) }
                == expected)
        #expect(try JSONValue(parsing: Substring(text).utf8) == expected)
    }

    @Test("random documents round-trip: parse(serialize(v)) == v")
    func randomRoundTrip() throws {
        let seed: UInt64 = 0xA11CE
        var random = RandomJSON(seed: seed)
        for i in 0..<1000 {
            let value = random.value()
            let text = value.serializedBytes()
            let parsed = try JSONValue(parsing: text)
            #expect(
                parsed == value, "seed \(seed) iteration \(i): \(String(decoding: text, as: UTF8.self))")
            #expect(parsed.serializedBytes() == text, "seed \(seed) iteration \(i)")
        }
    }

    @Test("mutated inputs either parse consistently or throw, never crash")
    func mutations() {
        let seed: UInt64 = 0xF022
        var random = RandomJSON(seed: seed)
        let alphabet =
            Array(#"{}[],:"\/-+.0123456789eEtrufalsn \#t\#n\#r"#.utf8) + [
                0x00, 0x80, 0xC3, 0xA9, 0xED, 0xF4, 0xFF,
            ]
        var parsed = 0
        var rejected = 0
        for iteration in 0..<3000 {
            var bytes = random.value().serializedBytes()
            for _ in 0..<random.int(1..<4) {
                let position = random.int(0..<(bytes.count + 1))
                let byte = alphabet[random.int(0..<alphabet.count)]
                switch random.int(0..<3) {
                case 0: bytes.insert(byte, at: position)
                case 1: if position < bytes.count { bytes[position] = byte }
                default: if position < bytes.count { bytes.remove(at: position) }
                }
            }
            do throws(JSONParseError) {
                let value = try JSONValue(parsing: bytes)
                parsed += 1
                // Whatever was accepted must serialize and parse back to the same value.
                #expect(
                    try JSONValue(parsing: value.serializedBytes()) == value,
                    "seed \(seed) iteration \(iteration)")
            } catch {
                rejected += 1
                #expect(
                    error.offset >= 0 && error.offset <= bytes.count,
                    "seed \(seed) iteration \(iteration): \(error)")
            }
        }
        #expect(parsed > 100)
        #expect(rejected > 1000)
    }

    @Test("a Newswire-shaped document round-trips")
    func newswire() throws {
        let document = NewswireFeed.fullDocument(stories: 0..<20)
        let text = document.serializedBytes()
        #expect(text.count > 25_000)
        let parsed = try JSONValue(parsing: text)
        #expect(parsed == document)
        #expect(parsed.serializedBytes() == text)
    }
}
