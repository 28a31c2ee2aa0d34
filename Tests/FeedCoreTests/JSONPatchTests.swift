import FeedCore
import TestSupport
import Testing

@Suite("JSON Patch decoding and semantics")
struct JSONPatchTests {
    func failure(_ patchText: String, on documentText: String) -> JSONPatchError? {
        do throws(JSONPatchError) {
            _ = try JSONPatch(parsing: patchText).applied(to: jsonValue(documentText))
            return nil
        } catch {
            return error
        }
    }

    @Test("decodes all six operations and encodes them back")
    func decodeEncode() throws {
        let text =
            #"[{"op":"add","path":"/a","value":1},{"op":"remove","path":"/b"},{"op":"replace","path":"/c","value":[]},"#
            + #"{"op":"move","from":"/d","path":"/e"},{"op":"copy","from":"/f","path":"/g~1h"},{"op":"test","path":"/i","value":null}]"#
        let patch = try JSONPatch(parsing: text)
        #expect(
            patch.operations == [
                .add(path: try JSONPointer("/a"), value: .int(1)),
                .remove(path: try JSONPointer("/b")),
                .replace(path: try JSONPointer("/c"), value: .array([])),
                .move(from: try JSONPointer("/d"), path: try JSONPointer("/e")),
                .copy(from: try JSONPointer("/f"), path: JSONPointer(tokens: ["g/h"])),
                .test(path: try JSONPointer("/i"), value: .null),
            ])
        #expect(patch.json == jsonValue(text))
        #expect(String(decoding: patch.serializedBytes(), as: UTF8.self) == text)
        #expect(try JSONPatch(json: patch.json) == patch)
    }

    @Test("malformed operations report their index and reason")
    func malformed() {
        let cases: [(String, JSONPatchError)] = [
            (#"{"op":"add"}"#, .notAnArray),
            (#"[1]"#, .invalidOperation(index: 0, .notAnObject)),
            (
                #"[{"op":"test","path":"","value":1},{"path":"/a"}]"#,
                .invalidOperation(index: 1, .missingMember("op"))
            ),
            (#"[{"op":"spam","path":"/a"}]"#, .invalidOperation(index: 0, .unknownOperation("spam"))),
            (
                #"[{"op":"ADD","path":"/a","value":1}]"#,
                .invalidOperation(index: 0, .unknownOperation("ADD"))
            ),
            (#"[{"op":"add","value":1}]"#, .invalidOperation(index: 0, .missingMember("path"))),
            (
                #"[{"op":"add","path":null,"value":1}]"#,
                .invalidOperation(index: 0, .memberNotAString("path"))
            ),
            (#"[{"op":"add","path":"/a"}]"#, .invalidOperation(index: 0, .missingMember("value"))),
            (#"[{"op":"move","path":"/a"}]"#, .invalidOperation(index: 0, .missingMember("from"))),
            (
                #"[{"op":"copy","from":5,"path":"/a"}]"#,
                .invalidOperation(index: 0, .memberNotAString("from"))
            ),
            (
                #"[{"op":"remove","path":"a"}]"#,
                .invalidOperation(index: 0, .invalidPointer(member: "path", .missingLeadingSlash))
            ),
            (
                #"[{"op":"remove","path":"/a~2"}]"#,
                .invalidOperation(index: 0, .invalidPointer(member: "path", .invalidEscape(offset: 2)))
            ),
        ]
        for (text, expected) in cases {
            #expect(throws: expected) { try JSONPatch(parsing: text) }
        }
        #expect(throws: JSONPatchError.invalidJSON(.unexpectedByte(UInt8(ascii: "]"), offset: 3))) {
            try JSONPatch(parsing: "[1,]")
        }
    }

    @Test("a null value counts as present; unknown members are ignored")
    func nullValueAndExtraMembers() throws {
        let patch = try JSONPatch(
            parsing: #"[{"op":"add","path":"/a","value":null,"extra":{"x":1},"from":7}]"#)
        #expect(patch.operations == [.add(path: try JSONPointer("/a"), value: .null)])
    }

    @Test("root path: add/replace/test work on the whole document, remove fails")
    func rootPath() throws {
        let doc = jsonValue(#"{"a":1}"#)
        #expect(
            try JSONPatch(parsing: #"[{"op":"add","path":"","value":[1]}]"#).applied(to: doc)
                == jsonValue("[1]"))
        #expect(
            try JSONPatch(parsing: #"[{"op":"replace","path":"","value":"s"}]"#).applied(to: doc)
                == .string("s"))
        #expect(
            try JSONPatch(parsing: #"[{"op":"test","path":"","value":{"a":1.0}}]"#).applied(to: doc)
                == doc)
        #expect(
            failure(#"[{"op":"remove","path":""}]"#, on: #"{"a":1}"#) == .cannotRemoveRoot(index: 0))
        #expect(
            try JSONPatch(parsing: #"[{"op":"copy","from":"","path":"/self"}]"#).applied(to: doc)
                == jsonValue(#"{"a":1,"self":{"a":1}}"#))
        #expect(try JSONPatch(parsing: #"[{"op":"move","from":"","path":""}]"#).applied(to: doc) == doc)
        #expect(
            failure(#"[{"op":"move","from":"","path":"/x"}]"#, on: #"{"a":1}"#)
                == .moveIntoOwnChild(index: 0, from: JSONPointer.root, path: try JSONPointer("/x")))
    }

    @Test("array index rules")
    func arrayIndices() throws {
        let doc = #"{"a":[10,20,30]}"#
        let pA1 = try JSONPointer("/a/1")
        #expect(
            try JSONPatch(parsing: #"[{"op":"add","path":"/a/-","value":40}]"#).applied(to: jsonValue(doc))
                == jsonValue(#"{"a":[10,20,30,40]}"#))
        #expect(
            try JSONPatch(parsing: #"[{"op":"add","path":"/a/3","value":40}]"#).applied(to: jsonValue(doc))
                == jsonValue(#"{"a":[10,20,30,40]}"#))
        #expect(
            try JSONPatch(parsing: #"[{"op":"add","path":"/a/0","value":5}]"#).applied(to: jsonValue(doc))
                == jsonValue(#"{"a":[5,10,20,30]}"#))
        #expect(
            failure(#"[{"op":"add","path":"/a/4","value":1}]"#, on: doc)
                == .indexOutOfBounds(index: 0, path: try JSONPointer("/a/4"), arrayIndex: 4, count: 3))
        #expect(
            failure(#"[{"op":"add","path":"/a/01","value":1}]"#, on: doc)
                == .invalidArrayIndex(index: 0, path: try JSONPointer("/a/01"), token: "01"))
        #expect(
            failure(#"[{"op":"add","path":"/a/1e0","value":1}]"#, on: doc)
                == .invalidArrayIndex(index: 0, path: try JSONPointer("/a/1e0"), token: "1e0"))
        #expect(
            failure(#"[{"op":"remove","path":"/a/-"}]"#, on: doc)
                == .invalidArrayIndex(index: 0, path: try JSONPointer("/a/-"), token: "-"))
        #expect(
            failure(#"[{"op":"remove","path":"/a/3"}]"#, on: doc)
                == .pathNotFound(index: 0, path: try JSONPointer("/a/3")))
        #expect(
            failure(#"[{"op":"test","path":"/a/-","value":30}]"#, on: doc)
                == .pathNotFound(index: 0, path: try JSONPointer("/a/-")))
        #expect(
            try JSONPatch(parsing: #"[{"op":"replace","path":"/a/1","value":"x"}]"#).applied(
                to: jsonValue(doc)
            ).value(at: pA1) == .string("x"))
        // `1e0` is an ordinary member name in an object.
        #expect(
            try JSONPatch(parsing: #"[{"op":"add","path":"/1e0","value":1}]"#).applied(to: jsonValue("{}"))
                == jsonValue(#"{"1e0":1}"#))
    }

    @Test("add into a scalar parent fails; add to a missing parent fails")
    func addParents() throws {
        #expect(
            failure(#"[{"op":"add","path":"/a/b","value":1}]"#, on: #"{"a":"str"}"#)
                == .notAContainer(index: 0, path: try JSONPointer("/a/b")))
        #expect(
            failure(#"[{"op":"add","path":"/x/b","value":1}]"#, on: #"{"a":1}"#)
                == .pathNotFound(index: 0, path: try JSONPointer("/x/b")))
    }

    @Test("move semantics: arrays, same location, own child")
    func move() throws {
        #expect(
            try JSONPatch(parsing: #"[{"op":"move","from":"/a/0","path":"/a/2"}]"#).applied(
                to: jsonValue(#"{"a":[1,2,3]}"#))
                == jsonValue(#"{"a":[2,3,1]}"#))
        #expect(
            try JSONPatch(parsing: #"[{"op":"move","from":"/a","path":"/b/a"}]"#).applied(
                to: jsonValue(#"{"a":[1],"b":{}}"#))
                == jsonValue(#"{"b":{"a":[1]}}"#))
        #expect(
            failure(#"[{"op":"move","from":"/a","path":"/a/0"}]"#, on: #"{"a":[1]}"#)
                == .moveIntoOwnChild(index: 0, from: try JSONPointer("/a"), path: try JSONPointer("/a/0")))
        #expect(
            failure(#"[{"op":"move","from":"/zz","path":"/zz"}]"#, on: #"{"a":[1]}"#)
                == .pathNotFound(index: 0, path: try JSONPointer("/zz")))
        // "/a" is not a prefix of "/ab".
        #expect(
            try JSONPatch(parsing: #"[{"op":"move","from":"/a","path":"/ab"}]"#).applied(
                to: jsonValue(#"{"a":1}"#))
                == jsonValue(#"{"ab":1}"#))
    }

    @Test("copy is deep and test uses JSON equality")
    func copyAndTest() throws {
        let result = try JSONPatch(
            parsing: #"[{"op":"copy","from":"/a","path":"/b"},{"op":"add","path":"/b/x/-","value":2}]"#
        ).applied(to: jsonValue(#"{"a":{"x":[1]}}"#))
        #expect(result == jsonValue(#"{"a":{"x":[1]},"b":{"x":[1,2]}}"#))
        // A passing test (equal as JSON: other key order, 1.0 and 1e0 for 1) changes nothing.
        let tested = jsonValue(#"{"a":{"x":[1],"y":1}}"#)
        #expect(
            try JSONPatch(parsing: #"[{"op":"test","path":"/a","value":{"y":1.0,"x":[1e0]}}]"#).applied(to: tested)
                == tested)
        #expect(
            failure(#"[{"op":"test","path":"/a","value":"1"}]"#, on: #"{"a":1}"#)
                == .testFailed(index: 0, path: try JSONPointer("/a")))
        #expect(
            failure(#"[{"op":"test","path":"/a","value":[2,1]}]"#, on: #"{"a":[1,2]}"#)
                == .testFailed(index: 0, path: try JSONPointer("/a")))
    }

    @Test("scalar documents")
    func scalarDocuments() throws {
        #expect(
            try JSONPatch(parsing: #"[{"op":"replace","path":"","value":42}]"#).applied(
                to: .string("foo")) == .int(42))
        #expect(
            failure(#"[{"op":"add","path":"/a","value":1}]"#, on: #""foo""#)
                == .notAContainer(index: 0, path: try JSONPointer("/a")))
    }

    @Test("errors describe the operation")
    func descriptions() throws {
        let error = failure(
            #"[{"op":"test","path":"","value":{}},{"op":"remove","path":"/a~1b"}]"#, on: "{}")
        #expect(error == .pathNotFound(index: 1, path: JSONPointer(tokens: ["a/b"])))
        #expect(error?.description == #"operation 1: path "/a~1b" not found"#)
        #expect(error?.operationIndex == 1)
    }
}

@Suite("JSON Patch applies in place")
struct JSONPatchInPlaceTests {
    /// The address of an array's storage, to tell whether it was copied.
    static func storage(_ value: JSONValue?) -> UnsafeRawPointer? {
        switch value {
        case .array(let elements)?:
            return elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        case .object(let members)?:
            return members.values.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        default:
            return nil
        }
    }

    @Test("a single operation mutates a uniquely held document without copying containers")
    func singleOperation() throws {
        var document = try JSONValue(parsing: NewswireFeed.fullDocument(stories: 0..<20).serializedBytes())
        let results = try JSONPointer("/results")
        let story = try JSONPointer("/results/5")
        let resultsBefore = Self.storage(document.value(at: results))
        let storyBefore = Self.storage(document.value(at: story))
        try JSONPatch(parsing: #"[{"op":"replace","path":"/results/5/title","value":"new"}]"#).apply(
            to: &document)
        #expect(document.value(at: try JSONPointer("/results/5/title")) == .string("new"))
        #expect(Self.storage(document.value(at: results)) == resultsBefore)
        #expect(Self.storage(document.value(at: story)) == storyBefore)
    }

    @Test("a multi-operation patch copies only the touched path; untouched stories stay shared")
    func sharedStructure() throws {
        let original = try JSONValue(parsing: NewswireFeed.fullDocument(stories: 0..<20).serializedBytes())
        let patch = try JSONPatch(
            parsing:
                #"[{"op":"replace","path":"/results/5/title","value":"new"},{"op":"remove","path":"/results/19"},"#
                + #"{"op":"replace","path":"/num_results","value":19}]"#)
        let patched = try patch.applied(to: original)
        for i in 0..<19 where i != 5 {
            let pointer = try JSONPointer("/results/\(i)")
            #expect(Self.storage(patched.value(at: pointer)) == Self.storage(original.value(at: pointer)))
        }
        let five = try JSONPointer("/results/5")
        #expect(Self.storage(patched.value(at: five)) != Self.storage(original.value(at: five)))
        #expect(original.value(at: try JSONPointer("/results/5/title")) != .string("new"))
    }
}
