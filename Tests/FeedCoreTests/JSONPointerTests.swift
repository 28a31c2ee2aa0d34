import FeedCore
import Testing

@Suite("JSON Pointer (RFC 6901)")
struct JSONPointerTests {
    /// The example document of RFC 6901 section 5.
    static let rfcDocument = #"""
        {"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}
        """#

    @Test(
        "RFC 6901 section 5 examples",
        arguments: [
            (
                "",
                #"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}"#
            ),
            ("/foo", #"["bar","baz"]"#),
            ("/foo/0", #""bar""#),
            ("/", "0"),
            ("/a~1b", "1"),
            ("/c%d", "2"),
            ("/e^f", "3"),
            ("/g|h", "4"),
            (#"/i\j"#, "5"),
            (#"/k"l"#, "6"),
            ("/ ", "7"),
            ("/m~0n", "8"),
        ]
    )
    func rfcExamples(pointer: String, expected: String) throws {
        let parsed = try JSONPointer(pointer)
        #expect(jsonValue(Self.rfcDocument).value(at: parsed) == jsonValue(expected))
        #expect(parsed.description == pointer)
    }

    @Test("tokens are unescaped, ~01 is ~1 not /")
    func tokens() throws {
        #expect(try JSONPointer("").tokens == [])
        #expect(try JSONPointer("/").tokens == [""])
        #expect(try JSONPointer("//").tokens == ["", ""])
        #expect(try JSONPointer("/a/b/").tokens == ["a", "b", ""])
        #expect(try JSONPointer("/~01").tokens == ["~1"])
        #expect(try JSONPointer("/~10").tokens == ["/0"])
        #expect(try JSONPointer("/x~0~1y/é/日本").tokens == ["x~/y", "é", "日本"])
        #expect(JSONPointer(tokens: ["~1", "a/b", ""]).description == "/~01/a~1b/")
    }

    @Test(
        "invalid pointers",
        arguments: [
            ("a", JSONPointerError.missingLeadingSlash),
            ("#/a", .missingLeadingSlash),
            ("/~", .invalidEscape(offset: 1)),
            ("/~2", .invalidEscape(offset: 1)),
            ("/a/b~", .invalidEscape(offset: 4)),
            ("/a~x", .invalidEscape(offset: 2)),
            ("/é~", .invalidEscape(offset: 3)),
        ]
    )
    func invalid(text: String, error: JSONPointerError) {
        #expect(throws: error) { try JSONPointer(text) }
    }

    @Test("description round-trips through the parser")
    func roundTrip() throws {
        var random = RandomJSON(seed: 0x5EED_0001)
        for _ in 0..<300 {
            var tokens: [String] = []
            for _ in 0..<random.int(0..<5) {
                tokens.append(random.chance(50) ? random.key() : random.string())
            }
            let pointer = JSONPointer(tokens: tokens)
            #expect(try JSONPointer(pointer.description) == pointer)
        }
    }

    @Test("appending, parent, lastToken, prefixes")
    func navigation() throws {
        let root = JSONPointer.root
        #expect(root.isRoot)
        #expect(root.parent == nil)
        #expect(root.lastToken == nil)
        let p = root.appending("results").appending(index: 5).appending("a/b")
        #expect(p.description == "/results/5/a~1b")
        #expect(p.lastToken == "a/b")
        #expect(p.parent == (try JSONPointer("/results/5")))
        #expect(p.parent?.parent?.parent == root)
        #expect(try JSONPointer("/a").isProperPrefix(of: JSONPointer("/a/b")))
        #expect(try !JSONPointer("/a").isProperPrefix(of: JSONPointer("/a")))
        #expect(try !JSONPointer("/a").isProperPrefix(of: JSONPointer("/ab")))
        #expect(root.isProperPrefix(of: try JSONPointer("/")))
    }

    @Test("array index tokens")
    func arrayIndex() {
        #expect(JSONPointer.arrayIndex("0") == 0)
        #expect(JSONPointer.arrayIndex("10") == 10)
        #expect(JSONPointer.arrayIndex("9223372036854775807") == Int.max)
        #expect(JSONPointer.arrayIndex("9223372036854775808") == nil)
        for bad in ["", "-", "01", "00", "-1", "+1", "1e0", "1.0", " 1", "1 ", "a", "١"] {
            #expect(JSONPointer.arrayIndex(bad) == nil, "\(bad)")
        }
    }

    @Test("reading: '-' and out-of-range indices never resolve; scalars have no children")
    func reading() throws {
        let doc = jsonValue(#"{"a":[1,2],"s":"str","n":null}"#)
        #expect(doc.value(at: try JSONPointer("/a/1")) == .int(2))
        #expect(doc.value(at: try JSONPointer("/a/2")) == nil)
        #expect(doc.value(at: try JSONPointer("/a/-")) == nil)
        #expect(doc.value(at: try JSONPointer("/a/01")) == nil)
        #expect(doc.value(at: try JSONPointer("/s/0")) == nil)
        #expect(doc.value(at: try JSONPointer("/n")) == .null)
        #expect(doc.value(at: try JSONPointer("/n/x")) == nil)
        #expect(doc.value(at: try JSONPointer("/missing")) == nil)
        #expect(doc.value(atPointer: "/a/0") == .int(1))
        #expect(doc.value(atPointer: "a/0") == nil)
    }
}
