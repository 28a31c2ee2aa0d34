import FeedCore
import Testing

@Suite("JSON serializer")
struct JSONSerializerTests {
    @Test("compact output in stored member order")
    func compact() {
        var members = JSONObject()
        members["z"] = .int(1)
        members["a"] = .array([.null, .bool(true), .bool(false), .array([]), .object([:])])
        members["m"] = .string("x")
        #expect(
            JSONValue.object(members).serializedString()
                == #"{"z":1,"a":[null,true,false,[],{}],"m":"x"}"#)
        #expect(
            JSONValue.object(members).serializedString(sortedKeys: true)
                == #"{"a":[null,true,false,[],{}],"m":"x","z":1}"#)
        #expect(JSONSerializer.serialize(.array([.int(1), .int(2)])) == Array("[1,2]".utf8))
    }

    @Test("string escapes")
    func escapes() {
        #expect(JSONValue.string("\"\\/").serializedString() == #""\"\\/""#)
        #expect(JSONValue.string("\n\r\t\u{8}\u{C}").serializedString() == #""\n\r\t\b\f""#)
        #expect(
            JSONValue.string("\u{0}\u{1}\u{1F}\u{7F}").serializedString()
                == #""\u0000\u0001\u001f\#u{7F}""#)
        #expect(JSONValue.string("é€😀\u{2028}").serializedString() == "\"é€😀\u{2028}\"")
        #expect(JSONValue.string("").serializedString() == #""""#)
        #expect(JSONValue.object(["a\"b": .string("c\nd")]).serializedString() == #"{"a\"b":"c\nd"}"#)
        // Every control character is escaped.
        for byte in UInt8(0)..<0x20 {
            let text = JSONValue.string(String(UnicodeScalar(byte))).serializedBytes()
            #expect(!text.dropFirst().dropLast().contains(where: { $0 < 0x20 }))
            #expect((try? JSONValue(parsing: text)) == .string(String(UnicodeScalar(byte))))
        }
    }

    @Test("integers")
    func integers() {
        #expect(JSONValue.int(0).serializedString() == "0")
        #expect(JSONValue.int(7).serializedString() == "7")
        #expect(JSONValue.int(-7).serializedString() == "-7")
        #expect(JSONValue.int(1_234_567_890).serializedString() == "1234567890")
        #expect(JSONValue.int(.max).serializedString() == "9223372036854775807")
        #expect(JSONValue.int(.min).serializedString() == "-9223372036854775808")
    }

    @Test("doubles: shortest round-trip text, always valid JSON")
    func doubles() throws {
        let cases: [(Double, String)] = [
            (0.1, "0.1"), (2.0, "2.0"), (-0.0, "-0.0"), (1.5, "1.5"), (1e16, "1e+16"), (1e-5, "1e-05"),
            (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (123.456, "123.456"),
        ]
        for (value, text) in cases {
            #expect(JSONValue.double(value).serializedString() == text)
            #expect(try JSONValue(parsing: text) == .double(value))
        }
        #expect(JSONValue.double(.nan).serializedString() == "null")
        #expect(JSONValue.double(.infinity).serializedString() == "null")
        #expect(JSONValue.array([.double(-.infinity)]).serializedString() == "[null]")
    }

    @Test("serialize(into:) appends")
    func appending() {
        var output = Array("prefix:".utf8)
        JSONSerializer.serialize(.array([.string("a")]), into: &output)
        #expect(String(decoding: output, as: UTF8.self) == #"prefix:["a"]"#)
    }

    @Test("parse → serialize is the identity on compact input")
    func identity() throws {
        let texts = [
            #"{"status":"OK","n":[1,-2,3.5,1e+100,null,true],"s":"a\"b\\c\nd\u0001é","o":{"":{}}}"#,
            #"[[],[[]],{"a":[{"b":[]}]}]"#,
            #""just a string""#,
            "-12",
        ]
        for text in texts {
            #expect(try JSONValue(parsing: text).serializedString() == text)
        }
    }
}

@Suite("JSON equality and hashing")
struct JSONEqualityTests {
    @Test("numbers compare by value, objects unordered, arrays ordered")
    func equality() {
        #expect(JSONValue.int(1) == .double(1.0))
        #expect(JSONValue.double(1.0) == .int(1))
        #expect(JSONValue.int(0) == .double(-0.0))
        #expect(JSONValue.int(1) != .double(1.5))
        #expect(JSONValue.int(9_007_199_254_740_993) != .double(9_007_199_254_740_992))
        #expect(JSONValue.int(.max) != .double(9_223_372_036_854_775_808.0))
        #expect(JSONValue.int(.min) == .double(-9_223_372_036_854_775_808.0))
        #expect(JSONValue.double(.nan) != .double(.nan))
        #expect(jsonValue(#"{"a":1,"b":[1,2]}"#) == jsonValue(#"{"b":[1.0,2],"a":1e0}"#))
        #expect(jsonValue("[1,2]") != jsonValue("[2,1]"))
        #expect(jsonValue(#"{"a":1}"#) != jsonValue(#"{"a":1,"b":2}"#))
        #expect(jsonValue(#"{"a":1,"c":2}"#) != jsonValue(#"{"a":1,"b":2}"#))
        #expect(JSONValue.string("1") != .int(1))
        #expect(JSONValue.null != .bool(false))
        #expect(JSONValue.array([]) != .object([:]))
    }

    @Test("equal values hash equally")
    func hashing() {
        let pairs: [(JSONValue, JSONValue)] = [
            (.int(1), .double(1.0)),
            (.int(0), .double(-0.0)),
            (.int(.min), .double(-9_223_372_036_854_775_808.0)),
            (jsonValue(#"{"a":1,"b":{"x":[1,{"y":2}]}}"#), jsonValue(#"{"b":{"x":[1.0,{"y":2e0}]},"a":1}"#)),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
        }
        let set: Set<JSONValue> = [
            .int(2), .double(2.0), .double(2.5), jsonValue(#"{"a":1,"b":2}"#), jsonValue(#"{"b":2,"a":1}"#),
        ]
        #expect(set.count == 3)
        // Different values mostly hash differently.
        #expect(
            JSONValue.array([.int(1), .int(2)]).hashValue
                != JSONValue.array([.int(2), .int(1)]).hashValue)
    }

    @Test("random values: equal after reordering members, hashes agree")
    func randomReordering() {
        var random = RandomJSON(seed: 0x4A5E)
        for i in 0..<300 {
            let value = random.value()
            let reordered = Self.reorder(value)
            #expect(value == reordered, "iteration \(i)")
            #expect(value.hashValue == reordered.hashValue, "iteration \(i)")
        }
    }

    static func reorder(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result = JSONObject()
            for (key, member) in members.reversed() { result[key] = reorder(member) }
            return .object(result)
        case .array(let elements):
            return .array(elements.map(reorder))
        case .int(let i) where Double(exactly: i) != nil:
            return .double(Double(i))
        default:
            return value
        }
    }
}
