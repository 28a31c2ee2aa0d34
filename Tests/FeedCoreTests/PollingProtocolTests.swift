import FeedCore
import Testing

@Suite("Polling protocol")
struct PollingProtocolTests {
    private typealias Validators = PollingProtocol.Validators

    private func answer(
        _ status: Int, _ headers: [(name: String, value: String)] = [], body: String = "",
        sent: Validators = Validators()
    ) -> PollingProtocol.Answer {
        PollingProtocol.interpret(status: status, headers: headers, body: Array(body.utf8), sent: sent)
    }

    @Test("the first request is unconditional and asks for JSON")
    func firstRequest() {
        let headers = PollingProtocol.requestHeaders(configured: [("X-Key", "k")], validators: Validators())
        #expect(headers.map(\.name) == ["Accept", "X-Key"])
        #expect(headers.first?.value == "application/json")
    }

    @Test(
        "a POSTed query: sent as JSON unless configured; a GraphQL result's data is the document, its errors upstream's"
    )
    func postedQuery() throws {
        let posting = PollingProtocol.requestHeaders(configured: [], validators: Validators(), posting: true)
        #expect(posting.map(\.name) == ["Accept", "Content-Type"])
        let form = PollingProtocol.requestHeaders(
            configured: [("Content-Type", "application/graphql")], validators: Validators(), posting: true)
        #expect(form.map(\.name) == ["Accept", "Content-Type"] && form[1].value == "application/graphql")
        func posted(_ body: String) -> PollingProtocol.Answer {
            PollingProtocol.interpret(
                status: 200, headers: [], body: Array(body.utf8), sent: Validators(), posted: true)
        }
        guard case .document(let document, _) = posted(#"{"data":{"builds":[{"id":"b1"}]}}"#) else {
            Issue.record("data is not the document")
            return
        }
        #expect(document == (try JSONValue(parsing: #"{"builds":[{"id":"b1"}]}"#)))
        guard
            case .failure(let message) = posted(#"{"errors":[{"message":"Cannot query field \"x\""},{"message":"b"}]}"#)
        else {
            Issue.record("errors without data are no failure")
            return
        }
        #expect(message == #"GraphQL: Cannot query field "x" (and 1 more)"#)
        // Not a GraphQL result, or not posted: the answer as it is.
        guard case .document(let plain, _) = posted(#"{"builds":[]}"#),
            case .document(let envelope, _) = answer(200, body: #"{"data":[{"id":1}]}"#)
        else {
            Issue.record("a plain answer is changed")
            return
        }
        #expect(plain["builds"] == .array([]) && envelope["data"] != nil)
    }

    @Test("later requests send the validators; a configured Accept replaces the default")
    func conditionalRequest() {
        let validators = Validators(etag: #"W/"v1""#, lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")
        let headers = PollingProtocol.requestHeaders(
            configured: [("Accept", "application/vnd+json")], validators: validators)
        #expect(headers.map(\.name) == ["If-None-Match", "If-Modified-Since", "Accept"])
        #expect(headers[0].value == #"W/"v1""#)
        #expect(headers[1].value == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(headers[2].value == "application/vnd+json")
    }

    @Test("200 with JSON: the document and the new validators")
    func documentAnswer() throws {
        let result = answer(
            200,
            [
                ("Content-Type", "application/json"), ("ETag", #""abc""#),
                ("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT"),
            ],
            body: #"{"items":[1]}"#)
        #expect(
            result
                == .document(
                    try JSONValue(parsing: #"{"items":[1]}"#),
                    validators: Validators(etag: #""abc""#, lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")))
        // Without validators the next request is unconditional again.
        #expect(answer(200, body: "[1]") == .document(.array([.int(1)]), validators: Validators()))
    }

    @Test("304 to a conditional request: unchanged; to an unconditional one: a failure")
    func notModified() {
        #expect(answer(304, sent: Validators(etag: #""a""#)) == .notModified)
        guard case .failure = answer(304) else {
            Issue.record("304 without validators accepted")
            return
        }
    }

    @Test("a body that is not JSON is a failure naming the content type")
    func notJSON() {
        guard case .failure(let message) = answer(200, [("Content-Type", "text/html")], body: "<html>oops</html>")
        else {
            Issue.record("HTML accepted")
            return
        }
        #expect(message.contains("not JSON"))
        #expect(message.contains("text/html"))
    }

    @Test(
        "errors, empty bodies and 204 are failures; redirects name their target", arguments: [204, 400, 404, 500, 503])
    func failures(status: Int) {
        guard case .failure(let message) = answer(status, body: status == 204 ? "" : "x") else {
            Issue.record("\(status) accepted")
            return
        }
        #expect(message.contains("\(status)"))
    }

    @Test("an empty 200 is a failure; which answers have a body worth reading")
    func emptyAnswer() {
        guard case .failure = answer(200) else {
            Issue.record("empty body accepted")
            return
        }
        #expect(PollingProtocol.wantsBody(status: 200))
        #expect(!PollingProtocol.wantsBody(status: 204))
        #expect(!PollingProtocol.wantsBody(status: 304))
        #expect(!PollingProtocol.wantsBody(status: 500))
    }
}
