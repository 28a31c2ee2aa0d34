import FeedCore
import Testing

@Suite("Document protocol")
struct DocumentProtocolTests {
    /// The command for one event, on a fresh connection.
    private func command(_ type: String, _ data: String) -> UpstreamCommand {
        var dialect = DocumentProtocol()
        return dialect.interpret(SSEEvent(type: type, data: data, id: "7"))
    }

    private func document(_ command: UpstreamCommand) -> JSONValue? {
        if case .replaceDocument(let document) = command { return document }
        return nil
    }

    private func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    // MARK: data, snapshot, unnamed

    @Test("data and snapshot carry a complete document", arguments: ["data", "snapshot"])
    func documentEvents(type: String) throws {
        let text = #"{"num_results":2,"results":[{"uri":"a"},{"uri":"b"}]}"#
        #expect(document(command(type, text)) == (try json(text)))
    }

    @Test("a data document may be any JSON value, also an array or a scalar")
    func dataAnyValue() throws {
        #expect(document(command("data", "[1,2]")) == (try json("[1,2]")))
        #expect(document(command("data", "42")) == .int(42))
    }

    @Test("data that is not JSON is rejected, not applied", arguments: ["data", "snapshot"])
    func dataNotJSON(type: String) {
        for text in ["", "{", "{\"a\":}", "not json", "{\"a\":1} trailing"] {
            guard case .reject(let reason) = command(type, text) else {
                Issue.record("\(type) \(text.debugDescription) was not rejected")
                continue
            }
            #expect(reason.contains(type))
        }
    }

    @Test("an unnamed event (type message) whose data is a JSON object is a document")
    func unnamedObject() throws {
        let text = "{\"results\":[],\n\"num_results\":0}"
        #expect(document(command("message", text)) == (try json(text)))
    }

    @Test("an unnamed event whose data is a JSON array is a document, or a patch when it is one")
    func unnamedArray() throws {
        let rows = #"[{"symbol":"AAPL","price":1.5},{"symbol":"MSFT","price":2}]"#
        #expect(document(command("message", rows)) == (try json(rows)))
        #expect(document(command("message", "[]")) == (try json("[]")))
        // An array of operations: a patch, as an unnamed Streamdata-like stream sends it.
        let ops = #"[{"op":"replace","path":"/0/price","value":3},{"op":"remove","path":"/1"}]"#
        guard case .applyPatch(let patch) = command("message", ops) else {
            Issue.record("an unnamed patch is not a patch")
            return
        }
        #expect(patch == (try JSONPatch(parsing: ops)))
        // One element that is not an operation: a document of rows that happen to have an op.
        let mixed = #"[{"op":"replace","path":"/a","value":1},{"op":"buy","path":"/b"}]"#
        #expect(document(command("message", mixed)) == (try json(mixed)))
    }

    @Test("an unnamed event whose data is not a JSON object or array is counted and ignored")
    func unnamedOther() {
        for text in ["\"text\"", "12", "hello", ""] {
            guard case .ignore(_, let counted) = command("message", text) else {
                Issue.record("message \(text.debugDescription) was not ignored")
                continue
            }
            #expect(counted)
        }
    }

    // MARK: patch

    @Test("a patch event carries an RFC 6902 patch")
    func patch() throws {
        let text = #"[{"op":"replace","path":"/num_results","value":3},{"op":"remove","path":"/results/1"}]"#
        guard case .applyPatch(let patch) = command("patch", text) else {
            Issue.record("not a patch")
            return
        }
        #expect(patch == (try JSONPatch(parsing: text)))
        #expect(patch.operations.count == 2)
    }

    @Test("an empty patch array is a patch with no operations")
    func emptyPatch() {
        guard case .applyPatch(let patch) = command("patch", "[]") else {
            Issue.record("not a patch")
            return
        }
        #expect(patch.operations.isEmpty)
    }

    @Test(
        "a patch that cannot be decoded is rejected",
        arguments: [
            "not json",
            "{\"op\":\"add\",\"path\":\"/a\",\"value\":1}",
            "[{\"op\":\"frobnicate\",\"path\":\"/a\"}]",
            "[{\"op\":\"add\",\"value\":1}]",
            "[{\"op\":\"add\",\"path\":\"a\",\"value\":1}]",
            "[{\"op\":\"replace\",\"path\":\"/a\"}]",
            "",
        ])
    func badPatch(text: String) {
        guard case .reject(let reason) = command("patch", text) else {
            Issue.record("\(text.debugDescription) was not rejected")
            return
        }
        #expect(reason.contains("patch"))
    }

    // MARK: error

    @Test("Streamdata's legacy error shape {status, cause, message, timestamp, sessionId}")
    func legacyError() {
        let text = """
            {"status":2001,"cause":"HTTP error","message":"Fail to connect to the target url","timestamp":1445443200,\
            "sessionId":"c3a1f2"}
            """
        guard case .reportError(let message) = command("error", text) else {
            Issue.record("not an error")
            return
        }
        #expect(message == "2001: Fail to connect to the target url (HTTP error)")
    }

    @Test("Streamdata's later error shape {code, message, category, datetime}")
    func laterError() {
        let text = """
            {"code":4001,"message":"Target API answered 500","category":"TargetError",\
            "datetime":"2019-03-14T09:12:40.123Z"}
            """
        guard case .reportError(let message) = command("error", text) else {
            Issue.record("not an error")
            return
        }
        #expect(message == "4001: Target API answered 500")
    }

    @Test("an error object with only a cause, only a category, or nothing useful")
    func sparseErrors() {
        let cases: [(String, String)] = [
            (#"{"cause":"timeout"}"#, "timeout"),
            (#"{"category":"TargetError"}"#, "TargetError"),
            (#"{"status":"503"}"#, "503: upstream error"),
            (#"{"message":""}"#, "upstream error"),
            ("{}", "upstream error"),
            ("", "upstream error"),
            ("the proxy is sad", "the proxy is sad"),
            ("line one\nline two", "line one line two"),
        ]
        for (text, expected) in cases {
            guard case .reportError(let message) = command("error", text) else {
                Issue.record("\(text.debugDescription) is not an error")
                continue
            }
            #expect(message == expected, "data \(text.debugDescription)")
        }
    }

    @Test("a long error message is cut to 300 characters")
    func longError() {
        let text = "{\"message\":\"" + String(repeating: "x", count: 5000) + "\"}"
        guard case .reportError(let message) = command("error", text) else {
            Issue.record("not an error")
            return
        }
        #expect(message.count == 300)
    }

    // MARK: monitor and unknown

    @Test("monitor is ignored and not counted")
    func monitor() {
        guard case .ignore(_, let counted) = command("monitor", #"{"heartbeat":true}"#) else {
            Issue.record("monitor not ignored")
            return
        }
        #expect(!counted)
    }

    @Test("a feed's own event name carries its document: learned from the first that holds one")
    func namedDocuments() throws {
        var dialect = DocumentProtocol()
        func read(_ type: String, _ data: String) -> UpstreamCommand {
            dialect.interpret(SSEEvent(type: type, data: data))
        }
        // Liveness and scalars first: neither is the document, and liveness is not counted.
        guard case .ignore(_, false) = read("ping", #"{"time":1}"#) else {
            Issue.record("a ping was counted")
            return
        }
        guard case .ignore(let reason, true) = read("info", #"{"server":"x","version":2}"#) else {
            Issue.record("a hello of scalars was read")
            return
        }
        #expect(reason.contains("info events are not read") && reason.contains("--mode append"), "\(reason)")
        #expect(dialect.documentEvents == nil)
        let prices = #"{"updated":5,"quotes":[{"symbol":"AAPL","price":1.5}]}"#
        #expect(document(read("prices", prices)) == (try json(prices)))
        #expect(dialect.documentEvents == "prices")
        let next = #"{"updated":6,"quotes":[]}"#
        #expect(document(read("prices", next)) == (try json(next)), "the same name again: the next document")
        // Another name is not the document now, whatever it holds.
        guard case .ignore(let other, true) = read("stats", #"{"latency":[1,2]}"#) else {
            Issue.record("a second name was read")
            return
        }
        #expect(other.contains("stats") && other.contains("prices"), "\(other)")
        #expect(dialect.documentEvents == "prices")
        // A patch under any name is a patch.
        guard case .applyPatch(let patch) = read("delta", #"[{"op":"replace","path":"/updated","value":7}]"#)
        else {
            Issue.record("a named patch is not a patch")
            return
        }
        #expect(patch.operations.count == 1)
    }

    @Test("a stream that began with data learns no other name")
    func namesAfterData() throws {
        var dialect = DocumentProtocol()
        #expect(document(dialect.interpret(SSEEvent(type: "data", data: #"{"results":[]}"#))) != nil)
        guard case .ignore(_, true) = dialect.interpret(SSEEvent(type: "state", data: #"{"items":[{"a":1}]}"#)) else {
            Issue.record("a name after data was read")
            return
        }
        #expect(dialect.documentEvents == nil)
    }

    @Test("GraphQL over SSE: next carries a result whose data is the document, errors say what failed")
    func graphQL() throws {
        let quotes = #"{"quotes":[{"symbol":"AAPL","price":1.5}]}"#
        #expect(document(command("next", #"{"data":\#(quotes)}"#)) == (try json(quotes)))
        // The single-connection mode's envelope.
        #expect(document(command("next", #"{"id":"s1","payload":{"data":\#(quotes)}}"#)) == (try json(quotes)))
        guard
            case .reportError(let message) = command(
                "next", #"{"data":null,"errors":[{"message":"Cannot query field \"x\""},{"message":"two"}]}"#)
        else {
            Issue.record("GraphQL errors not reported")
            return
        }
        #expect(message == #"GraphQL: Cannot query field "x" (and 1 more)"#)
        guard case .ignore(_, false) = command("complete", "") else {
            Issue.record("complete was counted")
            return
        }
        // A next event that is no GraphQL result is a feed's own name.
        #expect(document(command("next", quotes)) == (try json(quotes)))
    }

    @Test(
        "any other event type is ignored and counted",
        arguments: ["Data", "PATCH", "update", "datas", "info"])
    func unknown(type: String) {
        guard case .ignore(_, let counted) = command(type, #"{"a":1}"#) else {
            Issue.record("\(type) not ignored")
            return
        }
        #expect(counted)
    }
}

extension DocumentProtocolTests {
    @Test(
        "events named for liveness are ignored and not counted, whatever they hold",
        arguments: ["ping", "open", "keep-alive", "Heartbeat", "complete"])
    func liveness(type: String) {
        guard case .ignore(_, let counted) = command(type, #"{"items":[{"a":1}]}"#) else {
            Issue.record("\(type) not ignored")
            return
        }
        #expect(!counted)
    }
}
