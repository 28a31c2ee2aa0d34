import FeedCore
import Foundation
import Testing

/// Firebase's streaming dialect without I/O: each `put` and `patch` gives the document
/// Firebase's rules say, as a patch that turns the last document into it.
@Suite("Firebase protocol")
struct FirebaseProtocolTests {
    private func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    private func event(_ type: String, _ path: String, _ data: String) -> SSEEvent {
        SSEEvent(type: type, data: #"{"path":"\#(path)","data":\#(data)}"#)
    }

    /// Plays `events` and checks, after each, that the command turns the previous document
    /// into the protocol's new one; returns the final document and every command.
    private func play(_ events: [SSEEvent]) throws -> (document: JSONValue?, commands: [UpstreamCommand]) {
        var firebase = FirebaseProtocol()
        var mirror: JSONValue?
        var commands: [UpstreamCommand] = []
        for event in events {
            let command = firebase.interpret(event)
            commands.append(command)
            switch command {
            case .replaceDocument(let document):
                mirror = document
            case .applyPatch(let patch):
                var document = try #require(mirror, "a patch before any document")
                try patch.apply(to: &document)
                mirror = document
            default:
                break
            }
            #expect(mirror == firebase.document, "after \(event.type) \(event.data)")
        }
        return (mirror, commands)
    }

    @Test("Firebase's own example: put at /, put at /c, patch at /c")
    func officialExample() throws {
        let (document, commands) = try play([
            event("put", "/", #"{"a":1,"b":2}"#), event("put", "/c", #"{"foo":true,"bar":false}"#),
            event("patch", "/c", #"{"foo":3,"baz":4}"#),
        ])
        #expect(document == (try json(#"{"a":1,"b":2,"c":{"foo":3,"bar":false,"baz":4}}"#)))
        guard case .replaceDocument = commands[0] else {
            Issue.record("the first put at / is not the document")
            return
        }
        guard case .applyPatch(let patch) = commands[2] else {
            Issue.record("the patch is not a patch")
            return
        }
        // One operation per named child; the others are not touched.
        #expect(patch.operations.map(\.path.description).sorted() == ["/c/baz", "/c/foo"])
    }

    @Test("a put below / creates the missing objects on its way; null deletes and prunes emptied objects")
    func createsAndPrunes() throws {
        let (document, _) = try play([
            event("put", "/", #"{"a":1}"#), event("put", "/x/y/z", #""deep""#), event("put", "/x/y/w", "2"),
            event("put", "/x/y/z", "null"), event("put", "/x/y/w", "null"), event("put", "/missing", "null"),
        ])
        #expect(document == (try json(#"{"a":1}"#)), "x and x/y went with their last child")
    }

    @Test("patch: null deletes a child, a key with / reaches deeper, the other children stay")
    func patchChildren() throws {
        let (document, _) = try play([
            event("put", "/", #"{"c":{"k":1,"drop":2,"keep":3}}"#),
            event("patch", "/c", #"{"drop":null,"n/m":5,"k":10}"#),
        ])
        #expect(document == (try json(#"{"c":{"k":10,"keep":3,"n":{"m":5}}}"#)))
    }

    @Test("arrays: an index replaced, one appended, the last deleted in place; a hole makes the object Firebase holds")
    func arrays() throws {
        let (document, commands) = try play([
            event("put", "/", "[10,20,30]"), event("put", "/1", "21"), event("put", "/3", "40"),
            event("put", "/3", "null"),
        ])
        #expect(document == (try json("[10,21,30]")))
        guard case .applyPatch(let replace) = commands[1] else {
            Issue.record("no patch for an index")
            return
        }
        #expect(replace.operations == [.replace(path: try JSONPointer("/1"), value: .int(21))])
        let (holed, _) = try play([event("put", "/", "[10,20,30]"), event("put", "/0", "null")])
        #expect(holed == (try json(#"{"1":20,"2":30}"#)))
    }

    @Test("a put at / after a reconnect is the new document; keys with ~ are escaped in the pointers")
    func rootPutAndEscaping() throws {
        let (document, commands) = try play([
            event("put", "/", #"{"a~b":{"x":1}}"#), event("put", "/a~b/x", "2"), event("put", "/", #"{"z":0}"#),
        ])
        #expect(document == (try json(#"{"z":0}"#)))
        guard case .applyPatch(let patch) = commands[1] else {
            Issue.record("no patch")
            return
        }
        #expect(patch.operations.first?.path.description == "/a~0b/x")
    }

    @Test("keep-alive is a quiet heartbeat; cancel and auth_revoked end the stream; unknown types are counted")
    func controlEvents() {
        var firebase = FirebaseProtocol()
        guard case .ignore(_, false) = firebase.interpret(SSEEvent(type: "keep-alive", data: "null")) else {
            Issue.record("keep-alive not ignored quietly")
            return
        }
        guard case .endStream(let cancel) = firebase.interpret(SSEEvent(type: "cancel", data: "null")) else {
            Issue.record("cancel does not end the stream")
            return
        }
        #expect(cancel.contains("cancel"))
        guard case .endStream(let revoked) = firebase.interpret(SSEEvent(type: "auth_revoked", data: #""expired""#))
        else {
            Issue.record("auth_revoked does not end the stream")
            return
        }
        #expect(revoked.contains("auth_revoked"))
        guard case .ignore(_, true) = firebase.interpret(SSEEvent(type: "frobnicate", data: "{}")) else {
            Issue.record("unknown type not counted")
            return
        }
    }

    @Test(
        "bad input is an upstream error and changes nothing",
        arguments: [
            ("put", #"{"path":"/a/b","data":1}"#, "through a scalar at /a"),
            ("patch", #"{"path":"/c","data":[1,2]}"#, "not an object"),
            ("patch", #"{"path":"/c","data":5}"#, "not an object"),
            ("put", "not json", "not {\"path\""),
            ("put", #"{"data":1}"#, "not {\"path\""),
            ("patch", #"{"path":"/a/b/c","data":{"k":1}}"#, "through a scalar at /a"),
        ])
    func badInput(type: String, data: String, words: String) throws {
        var firebase = FirebaseProtocol()
        _ = firebase.interpret(event("put", "/", #"{"a":"text","c":{"k":1}}"#))
        let before = firebase.document
        guard case .reportError(let message) = firebase.interpret(SSEEvent(type: type, data: data)) else {
            Issue.record("\(type) \(data) was not reported")
            return
        }
        #expect(message.contains(words), "\(message)")
        #expect(firebase.document == before)
    }

    @Test("a put below / before the first put at / is an upstream error")
    func putBeforeSnapshot() {
        var firebase = FirebaseProtocol()
        guard case .reportError = firebase.interpret(event("put", "/a", "1")) else {
            Issue.record("accepted without a document")
            return
        }
        #expect(firebase.document == nil)
    }
}
