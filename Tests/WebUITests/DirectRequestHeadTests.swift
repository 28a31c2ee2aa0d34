import Testing

@testable import WebUI

/// Which request heads the front door answers itself, which streams it opens itself, and
/// which it leaves, untouched, to libmicrohttpd.
@Suite struct DirectRequestHeadTests {
    static let paths = [Array("/".utf8), Array("/other".utf8)]
    static let limit = 3584

    static let streamPaths = [Array("/events".utf8), Array("/events/items".utf8)]

    static func read(_ text: String, limit: Int = limit) -> DirectRequestHead {
        Array(text.utf8).withUnsafeBytes {
            DirectRequestHead.read($0, paths: paths, streamPaths: streamPaths, maxHeadBytes: limit)
        }
    }

    /// The length of the first head in `text`: through its first blank line.
    static func firstHeadLength(_ text: String) -> Int {
        let bytes = Array(text.utf8)
        let end = Array("\r\n\r\n".utf8)
        let index = (0...(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == end }
        return (index ?? -4) + 4
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 0, false),
        ("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", 0, true),
        ("GET /other HTTP/1.1\r\nhOsT:   127.0.0.1:8080  \r\nAccept: */*\r\n\r\n", 1, false),
        ("GET / HTTP/1.1\r\nHost: x\r\nConnection: Keep-Alive\r\nUser-Agent: wrk\r\n\r\n", 0, false),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-Empty:\r\n\r\n", 0, false),
    ])
    func plainRequestsForItsPathsAreAnswered(request: String, pathIndex: Int, isHead: Bool) {
        #expect(
            Self.read(request)
                == .answer(pathIndex: pathIndex, isHead: isHead, length: Self.firstHeadLength(request)))
    }

    @Test func aPipelinedRequestEndsAtItsOwnBlankLine() {
        let first = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
        let text = first + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(Self.read(text) == .answer(pathIndex: 0, isHead: false, length: first.utf8.count))
    }

    @Test(arguments: [
        "GET /? HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /?section=world HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /%2F HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.0\r\nHost: x\r\n\r\n",
        "GET / HTTP/2.0\r\nHost: x\r\n\r\n",
        "get / HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        "GET  / HTTP/1.1\r\nHost: x\r\n\r\n",
        "\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
        "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"a\"\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nif-modified-since: Wed, 25 Nov 2026 02:28:48 GMT\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost : x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX-Bad: a\u{1}b\r\n\r\n",
        "GET / HTTP/1.1\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\rY: z\r\n\r\n",
    ])
    func everythingElseIsLeftToLibmicrohttpd(request: String) {
        #expect(Self.read(request) == .elsewhere)
    }

    @Test func aHeadWithoutItsBlankLineIsIncompleteUntilTheLimit() {
        let partial = "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: "
        #expect(Self.read(partial) == .incomplete)
        let long = partial + String(repeating: "a", count: Self.limit)
        #expect(Self.read(long) == .elsewhere)
    }

    @Test func aHeadLongerThanTheLimitIsLeftToLibmicrohttpd() {
        let request = "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + String(repeating: "a", count: 200) + "\r\n\r\n"
        let length = Self.firstHeadLength(request)
        #expect(Self.read(request, limit: length) == .answer(pathIndex: 0, isHead: false, length: length))
        #expect(Self.read(request, limit: length - 1) == .elsewhere)
    }

    @Test func aPlainGetOfAStreamsPathIsTheRequestTheRouterWouldSee() {
        let text =
            "GET /events/items?section=World&since&x=a=b HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Last-Event-ID:  e1-7 \r\nOrigin: https://board.example\r\nConnection: keep-alive\r\n\r\n"
        let expected = HTTPRequest(
            method: "GET", path: "/events/items", version: "HTTP/1.1",
            queryArguments: [
                .init(name: "section", value: "World"), .init(name: "since", value: ""),
                .init(name: "x", value: "a=b"),
            ],
            headers: [
                .init(name: "Host", value: "127.0.0.1"), .init(name: "Last-Event-ID", value: "e1-7"),
                .init(name: "Origin", value: "https://board.example"), .init(name: "Connection", value: "keep-alive"),
            ])
        #expect(Self.read(text) == .stream(expected, length: Self.firstHeadLength(text)))
        #expect(expected.header("last-event-id") == "e1-7")
        #expect(expected.query("section") == "World")

        let bare = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(
            Self.read(bare)
                == .stream(
                    HTTPRequest(
                        method: "GET", path: "/events", version: "HTTP/1.1", queryArguments: [],
                        headers: [.init(name: "Host", value: "x")]),
                    length: bare.utf8.count))
    }

    /// A query's escapes and `+` are decoded as libmicrohttpd decodes them for feedweb: `+` a
    /// space, `%XX` its byte (`%00` DEL), a `%` without two hex digits as it is, the bytes
    /// read as UTF-8.
    @Test func aQueryIsDecodedAsLibmicrohttpdDecodesIt() {
        let text =
            "GET /events/items?section=%57orld&q=a+b%2Bc&%C3%A9t%C3%A9=1&bad=%zz%4&nul=%00&x=%3D%26 HTTP/1.1\r\n"
            + "Host: x\r\n\r\n"
        guard case .stream(let request, _) = Self.read(text) else {
            Issue.record("a stream's GET with escapes in its query is opened at the door")
            return
        }
        #expect(
            request.queryArguments == [
                .init(name: "section", value: "World"), .init(name: "q", value: "a b+c"),
                .init(name: "\u{E9}t\u{E9}", value: "1"), .init(name: "bad", value: "%zz%4"),
                .init(name: "nul", value: "\u{7F}"), .init(name: "x", value: "=&"),
            ])
    }

    /// Anything not in the form the door reads (an escaped path, a fragment, a byte past
    /// ASCII, an empty argument, `HEAD`, HTTP/1.0, a body, a folded header…) is
    /// libmicrohttpd's (which decodes and answers it as ever).
    @Test(arguments: [
        "HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /events HTTP/1.0\r\nHost: x\r\n\r\n",
        "GET /events? HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /events?section=World#top HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /events?section=\u{E9} HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /events?a&&b HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /events?=a HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /events/ HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /eventsx HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /%65vents HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /events/page HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /events HTTP/1.1\r\n\r\n",
        "GET /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /events HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab",
        "GET /events HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n",
    ])
    func streamRequestsNotInThePlainFormAreLeftToLibmicrohttpd(request: String) {
        #expect(Self.read(request) == .elsewhere)
    }
}
