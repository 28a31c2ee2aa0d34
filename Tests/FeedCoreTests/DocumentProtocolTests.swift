import FeedCore
import Testing

@Suite("Document protocol")
struct DocumentProtocolTests {
    private func command(_ type: String, _ data: String) -> UpstreamCommand {
        DocumentProtocol.interpret(SSEEvent(type: type, data: data, id: "7"))
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

    @Test("an unnamed event whose data is not a JSON object is counted and ignored")
    func unnamedOther() {
        for text in ["[1,2,3]", "\"text\"", "12", "hello", ""] {
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

    @Test(
        "any other event type is ignored and counted",
        arguments: ["ping", "Data", "PATCH", "update", "open", "keep-alive", "datas"])
    func unknown(type: String) {
        guard case .ignore(_, let counted) = command(type, #"{"a":1}"#) else {
            Issue.record("\(type) not ignored")
            return
        }
        #expect(counted)
    }
}
