import FeedCore
import TestSupport
import Testing

/// One record of the json-patch-tests suite (Fixtures/json-patch, see its README).
struct PatchConformanceCase: Sendable, CustomTestStringConvertible {
    let file: String
    let index: Int
    let comment: String?
    let doc: JSONValue
    let patch: JSONValue
    let expected: JSONValue?
    let error: String?
    let disabled: Bool

    var testDescription: String {
        "\(file) #\(index): \(comment ?? error ?? "(no comment)")"
    }

    /// All records of one fixture file, parsed with FeedCore's own parser.
    static func load(_ file: String) throws -> [PatchConformanceCase] {
        let bytes = try fixtureBytes("json-patch/\(file)")
        guard case .array(let records) = try JSONValue(parsing: bytes) else {
            throw PatchFixtureError.notAnArray(file)
        }
        return try records.enumerated().map { index, record in
            guard case .object(let members) = record, let doc = members["doc"],
                let patch = members["patch"]
            else {
                throw PatchFixtureError.badRecord(file, index)
            }
            return PatchConformanceCase(
                file: file,
                index: index,
                comment: members["comment"]?.stringValue,
                doc: doc,
                patch: patch,
                expected: members["expected"],
                error: members["error"]?.stringValue,
                disabled: members["disabled"] == .bool(true)
            )
        }
    }

    static let files = ["tests.json", "spec_tests.json"]

    static func enabled() throws -> [PatchConformanceCase] {
        try files.flatMap { try load($0) }.filter { !$0.disabled }
    }
}

enum PatchFixtureError: Error {
    case notAnArray(String)
    case badRecord(String, Int)
}

@Suite("JSON Patch conformance (json-patch-tests)", .onThreadsOfItsOwn)
struct JSONPatchConformanceTests {
    @Test("fixture files load with the expected record counts")
    func fixtureCounts() throws {
        let main = try PatchConformanceCase.load("tests.json")
        let spec = try PatchConformanceCase.load("spec_tests.json")
        #expect(main.count == 95)
        #expect(spec.count == 17)
        #expect(main.filter(\.disabled).count == 3)
        #expect(spec.filter(\.disabled).count == 1)
        #expect(try PatchConformanceCase.enabled().count == 108)
    }

    @Test("conformance case", arguments: try PatchConformanceCase.enabled())
    func conformance(_ testCase: PatchConformanceCase) throws {
        var document = testCase.doc
        let before = document.serializedBytes()

        if let expected = testCase.expected {
            let patch = try JSONPatch(json: testCase.patch)
            try patch.apply(to: &document)
            #expect(document == expected)
            // The same patch also works after an encode/decode round trip.
            let reencoded = try JSONPatch(parsing: patch.serializedBytes())
            #expect(reencoded == patch)
            #expect(try reencoded.applied(to: testCase.doc) == expected)
        } else if testCase.error != nil {
            var failure: JSONPatchError?
            do throws(JSONPatchError) {
                try JSONPatch(json: testCase.patch).apply(to: &document)
            } catch {
                failure = error
            }
            #expect(failure != nil, "expected an error: \(testCase.error ?? "")")
            #expect(
                document.serializedBytes() == before, "a failed patch must leave the document unchanged")
            #expect(document == testCase.doc)
        } else {
            // Neither expected nor error: applying must merely succeed.
            #expect(throws: Never.self) {
                _ = try JSONPatch(json: testCase.patch).applied(to: testCase.doc)
            }
        }
    }
}

@Suite("JSON Patch atomicity")
struct JSONPatchAtomicityTests {
    static let documentText = #"{"a":{"b":[1,2,3],"c":"x"},"list":[{"id":1},{"id":2}],"n":null}"#

    /// Two operations that succeed and change the document, then `failing`.
    static func patch(thirdOperation failing: String) -> String {
        #"[{"op":"add","path":"/a/b/0","value":0},{"op":"replace","path":"/n","value":{"deep":[true]}},"#
            + failing + "]"
    }

    @Test(
        "a failing third operation leaves the document byte-identical",
        arguments: [
            #"{"op":"add","path":"/a/b/9","value":1}"#,
            #"{"op":"add","path":"/missing/x","value":1}"#,
            #"{"op":"remove","path":"/a/nope"}"#,
            #"{"op":"remove","path":"/list/2"}"#,
            #"{"op":"replace","path":"/a/b/01","value":1}"#,
            #"{"op":"replace","path":"/zzz","value":1}"#,
            #"{"op":"move","from":"/a/nope","path":"/b"}"#,
            #"{"op":"move","from":"/a","path":"/a/c/d"}"#,
            #"{"op":"copy","from":"/list/5","path":"/c"}"#,
            #"{"op":"copy","from":"/a","path":"/a/c/d"}"#,
            #"{"op":"test","path":"/a/c","value":"y"}"#,
            #"{"op":"test","path":"/n","value":null}"#,
        ]
    )
    func failingThirdOperation(_ failing: String) throws {
        var document = jsonValue(Self.documentText)
        let original = document.serializedBytes()
        let patch = try JSONPatch(parsing: Self.patch(thirdOperation: failing))
        #expect(patch.operations.count == 3)

        var failure: JSONPatchError?
        do throws(JSONPatchError) {
            try patch.apply(to: &document)
        } catch {
            failure = error
        }
        #expect(failure?.operationIndex == 2, "error: \(String(describing: failure))")
        #expect(document.serializedBytes() == original)

        // The first two operations alone do succeed (so they really were rolled back).
        let firstTwo = JSONPatch(operations: Array(patch.operations.prefix(2)))
        let partial = try firstTwo.applied(to: document)
        #expect(partial != document)
        #expect(document.serializedBytes() == original)
    }

    @Test("a patch applied to a shared document does not change the other copies")
    func valueSemantics() throws {
        let original = jsonValue(Self.documentText)
        var copy = original
        try JSONPatch(parsing: #"[{"op":"replace","path":"/a/b/1","value":"changed"}]"#).apply(
            to: &copy)
        #expect(original == jsonValue(Self.documentText))
        #expect(copy.value(at: try JSONPointer("/a/b/1")) == .string("changed"))
    }
}
