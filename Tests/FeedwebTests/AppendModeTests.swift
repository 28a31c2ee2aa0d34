import FeedCore
import Foundation
import TestSupport
import Testing

/// `--mode append --keep N` through the real binary against a scripted
/// Wikimedia-EventStreams-like feed: one `message` event per item, opaque JSON ids.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct AppendModeTests {
    static func item(_ n: Int) -> JSONValue {
        .object([
            "meta": .object([
                "id": .string("evt-\(n)"), "uri": .string("https://en.wikipedia.org/wiki/Page_\(n)"),
                "dt": .string("2024-01-01T00:00:\(String(format: "%02d", n % 60))Z"),
            ]),
            "title": .string("Page \(n)"), "wiki": .string("enwiki"), "type": .string("edit"),
            "user": .string("Editor\(n)"), "comment": .string("edit \(n)"),
        ])
    }

    /// EventStreams' ids are JSON arrays of Kafka positions: opaque to feedweb.
    static func id(_ n: Int) -> String {
        #"[{"topic":"eqiad.mediawiki.recentchange","partition":0,"offset":\#(1000 + n)}]"#
    }

    static func event(_ n: Int) -> String {
        SSEText.event("message", data: item(n).serializedString(), id: id(n))
    }

    private func state(_ port: UInt16) async throws -> JSONValue? {
        let response = try await HTTPTestClient.get(port: port, "/api/state", timeout: 3)
        return response.status == 200 ? try JSONValue(parsing: response.body) : nil
    }

    static func document(_ numbers: [Int]) -> JSONValue {
        .object(["items": .array(numbers.map(item))])
    }

    @Test("keeps the newest N in order, newest first; patches downstream; echoes the opaque id on reconnect")
    func keepsNewest() async throws {
        let server = try await ScriptedSSEServer.start(script: [
            .stream([.text(":ok\n\n")] + (1...5).map { .text(Self.event($0)) }, ending: .stayOpen),
            .stream((6...7).map { .text(Self.event($0)) }, ending: .stayOpen),
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/v2/stream/recentchange"), "--mode", "append", "--keep", "3",
            "--max-backoff", "0.2",
        ])
        defer { feedweb.kill() }

        try await Eventually.check("the newest three of five") {
            try await state(feedweb.port) == Self.document([5, 4, 3])
        }
        let first = try #require(server.requests.first)
        #expect(first.header("Last-Event-ID") == nil)
        #expect(first.header("Accept") == "text/event-stream, application/x-ndjson;q=0.9, application/json;q=0.8")

        // Downstream: the document, then add /items/0 + remove /items/3 per new item.
        let events = try await SSETestClient(port: feedweb.port)
        #expect(try await JSONValue(parsing: events.next(type: "data", within: 5).data) == Self.document([5, 4, 3]))
        try await server.push(Self.event(8))
        let patch = try await JSONPatch(parsing: events.next(type: "patch", within: 5).data)
        #expect(
            patch.operations == [
                .add(path: try JSONPointer("/items/0"), value: Self.item(8)),
                .remove(path: try JSONPointer("/items/3")),
            ])
        try await Eventually.check("item 8 first") { try await state(feedweb.port) == Self.document([8, 5, 4]) }

        // The pages and the API show the items through the wikimedia-recentchange profile.
        let items =
            try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/items").body).arrayValue ?? []
        #expect(items.compactMap { $0["title"]?.stringValue } == ["Page 8", "Page 5", "Page 4"])
        #expect(items.first?["url"]?.stringValue == "https://en.wikipedia.org/wiki/Page_8")
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("Page 8"))

        // Upstream ends the stream: the reconnect sends the last id back, as it came.
        server.finish(connection: 0)
        let requests = try await server.waitForRequests(2)
        #expect(requests[1].header("Last-Event-ID") == Self.id(8))
        try await Eventually.check("items 6 and 7 on top") {
            try await state(feedweb.port) == Self.document([7, 6, 8])
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    @Test("a non-JSON message is ignored and counted; the stream and the state go on")
    func notJSONIgnored() async throws {
        let server = try await ScriptedSSEServer.start(script: [
            .stream(
                [
                    .text(Self.event(1)), .text(SSEText.event("message", data: "{broken", id: "x")),
                    .text(Self.event(2)),
                ],
                ending: .stayOpen)
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", server.url("/rc"), "--mode", "append"])
        defer { feedweb.kill() }
        try await Eventually.check("both good items") { try await state(feedweb.port) == Self.document([2, 1]) }
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(1))
        #expect(ready["upstream"]?["state"] == .string("open"))
        #expect(server.requests.count == 1, "no reconnect")
    }

    /// A Mastodon status as its streaming API sends one: an 18-digit id as text, its words
    /// as HTML, hostile ones among them.
    static func status(_ n: Int, words: String = "") -> JSONValue {
        .object([
            "id": .string(String(113_000_000_000_000_000 + n)),
            "created_at": .string("2026-12-04T05:00:0\(n % 10).000Z"),
            "visibility": .string("public"), "url": .string("https://mastodon.example/@u\(n % 3)/\(n)"),
            "content": .string("<p>Post \(n) \(words)<script>alert(\(n))</script></p>"),
            "account": .object(["acct": .string("u\(n % 3)"), "display_name": .string("<b>User \(n % 3)</b>")]),
            "favourites_count": .int(Int64(n)),
        ])
    }

    @Test("--event quote: a feed that sends trades first and quotes after shows the quotes, not the trades")
    func chosenEvents() async throws {
        func event(_ type: String, _ symbol: String, _ price: Double) -> ScriptedSSEServer.Step {
            .text(SSEText.event(type, data: #"{"symbol":"\#(symbol)","price":\#(price)}"#))
        }
        let script: [ScriptedSSEServer.Response] = [
            .stream(
                [event("trade", "BTC", 43_000.5), event("quote", "ETH", 2_201.25), event("trade", "SOL", 101.5)]
                    + [event("quote", "BTC", 43_001.75)], ending: .stayOpen)
        ]
        let chosen = try await ScriptedSSEServer.start(script: script)
        defer { chosen.shutdownNow() }
        let learned = try await ScriptedSSEServer.start(script: script)
        defer { learned.shutdownNow() }
        let withEvent = try await FeedwebProcess(arguments: [
            "--upstream", chosen.url("/market"), "--mode", "append", "--event", "quote",
        ])
        defer { withEvent.kill() }
        let without = try await FeedwebProcess(arguments: ["--upstream", learned.url("/market"), "--mode", "append"])
        defer { without.kill() }
        func prices(_ port: UInt16) async throws -> [String] {
            try await state(port)?["items"]?.arrayValue?.compactMap { $0["price"].map { $0.serializedString() } } ?? []
        }
        try await Eventually.check("the two quotes, newest first") {
            try await prices(withEvent.port) == ["43001.75", "2201.25"]
        }
        // Without it the first kind came first and is the one read: the trades.
        try await Eventually.check("the two trades") { try await prices(without.port) == ["101.5", "43000.5"] }
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: withEvent.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0), "the trades were asked away, not anomalies")
    }

    @Test("Mastodon's streaming API: update puts a post first, status.update edits it in place, delete takes it out")
    func mastodonsStream() async throws {
        func event(_ type: String, _ data: String) -> ScriptedSSEServer.Step { .text(SSEText.event(type, data: data)) }
        let server = try await ScriptedSSEServer.start(script: [
            .stream(
                [.text(":)\n\n")] + (1...9).map { event("update", Self.status($0).serializedString()) }
                    + [event("notification", "{broken")], ending: .stayOpen)
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/api/v1/streaming/public"), "--mode", "append",
        ])
        defer { feedweb.kill() }
        func ids() async throws -> [String] {
            try await state(feedweb.port)?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        let nine = (1...9).reversed().map { String(113_000_000_000_000_000 + $0) }
        try await Eventually.check("nine posts, newest first") { try await ids() == nine }
        // Read from nine posts: keyed by their ids, and led by their words, not by the ids.
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        let heads = page.matches(of: /<th[^>]*data-col="([^"]+)"/).map { String($0.output.1) }
        #expect(heads.first == "content", "the post's words lead: \(heads)")
        #expect(heads.last == "id", "the snowflake last: \(heads)")
        #expect(page.contains("Post 9") && !page.contains("<script>alert") && !page.contains("<b>User"))
        // The kiosk's tiles are named by the post's words, not its markup.
        let kiosk = try await HTTPTestClient.get(port: feedweb.port, "/kiosk").text
        #expect(kiosk.contains("Post 9") && !kiosk.contains("&lt;p&gt;Post"), "a tile named by plain words")

        // An edit of post 4, and Mastodon's delete of post 7 by its bare id.
        try await server.push(SSEText.event("status.update", data: Self.status(4, words: "edited").serializedString()))
        try await server.push(SSEText.event("delete", data: String(113_000_000_000_000_007)))
        // A delete of a post never kept changes nothing.
        try await server.push(SSEText.event("delete", data: "113000000000000999"))
        let kept = nine.filter { !$0.hasSuffix("07") }
        try await Eventually.check("post 7 gone") { try await ids() == kept }
        let items = try #require(try await state(feedweb.port)?["items"]?.arrayValue)
        let four = items.first { $0["id"]?.stringValue?.hasSuffix("04") == true }
        #expect(four?["content"]?.stringValue?.contains("Post 4 edited") == true, "edited in place")
        #expect(
            items.firstIndex { $0["id"]?.stringValue?.hasSuffix("04") == true } == 4, "where it was: after 9, 8, 6, 5")
        let edited = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(edited.contains("Post 4 edited") && !edited.contains("Post 7 "))
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(1), "the broken notification")
        #expect(server.requests.count == 1, "no reconnect")
    }

    @Test("Mastodon's WebSocket streaming: the same events in an envelope, a post's JSON as text in its payload")
    func mastodonsWebSocket() async throws {
        func message(_ event: String, _ payload: String) -> ScriptedWebSocketServer.Action {
            .text(
                JSONValue.object([
                    "stream": .array([.string("public")]), "event": .string(event), "payload": .string(payload),
                ]).serializedString())
        }
        let server = try await ScriptedWebSocketServer.start(
            script: (1...9).map { message("update", Self.status($0).serializedString()) })
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            // The test server starts its script at the first ping.
            "--upstream", server.url("/api/v1/streaming?stream=public"), "--mode", "append", "--read-timeout", "0.5",
        ])
        defer { feedweb.kill() }
        func ids() async throws -> [String] {
            try await state(feedweb.port)?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        let nine = (1...9).reversed().map { String(113_000_000_000_000_000 + $0) }
        try await Eventually.check("nine posts, each its payload's") { try await ids() == nine }
        try server.send([message("delete", String(113_000_000_000_000_008))])
        try await Eventually.check("post 8 gone") { try await ids() == nine.filter { !$0.hasSuffix("08") } }
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("Post 9") && !page.contains("Post 8 ") && !page.contains("payload"))
    }

    /// A pod as a Kubernetes API server's watch writes it.
    static func pod(_ n: Int, phase: String, node: String = "node-1") -> JSONValue {
        .object([
            "kind": .string("Pod"), "apiVersion": .string("v1"),
            "metadata": .object([
                "name": .string("web-\(n)"), "namespace": .string("default"),
                "uid": .string("0f6a1c2e-0000-4000-8000-00000000000\(n)"), "resourceVersion": .string(String(100 + n)),
            ]),
            "spec": .object(["nodeName": .string(node)]),
            "status": .object(["phase": .string(phase), "podIP": .string("10.0.0.\(n)")]),
        ])
    }

    @Test("a Kubernetes watch over HTTP: one JSON object a line, the pods as a table kept in step")
    func kubernetesWatch() async throws {
        func watch(_ type: String, _ pod: JSONValue) -> String {
            JSONValue.object(["type": .string(type), "object": pod]).serializedString() + "\n"
        }
        let added = (1...9).map { watch("ADDED", Self.pod($0, phase: $0 % 3 == 0 ? "Pending" : "Running")) }
        let server = try await ScriptedSSEServer.start(script: [
            .stream(
                [
                    .text(added.joined()),
                    .text(watch("MODIFIED", Self.pod(2, phase: "Running", node: "<script>x</script>"))),
                ],
                ending: .stayOpen, contentType: "application/json")
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/api/v1/namespaces/default/pods?watch=1"), "--mode", "append",
        ])
        defer { feedweb.kill() }
        func pods() async throws -> [String] {
            try await state(feedweb.port)?["items"]?.arrayValue?.compactMap { $0["metadata"]?["name"]?.stringValue }
                ?? []
        }
        func pod(_ name: String) async throws -> JSONValue? {
            try await state(feedweb.port)?["items"]?.arrayValue?.first { $0["metadata"]?["name"]?.stringValue == name }
        }
        let nine = (1...9).reversed().map { "web-\($0)" }
        try await Eventually.check("nine pods, newest first, web-2 modified") {
            let modified = try await pod("web-2")?["spec"]?["nodeName"]?.stringValue
            return try await pods() == nine && modified == "<script>x</script>"
        }
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        let heads = page.matches(of: /<th[^>]*data-col="([^"]+)"/).map { String($0.output.1) }
        #expect(
            heads.contains("name") && heads.contains("phase") && heads.contains("nodeName"),
            "the pods' own fields: \(heads)")
        #expect(page.contains("web-9") && !page.contains("<script>x"), "a node name from the feed as text")
        #expect(page.contains("&lt;script&gt;x"))
        #expect(!page.contains("MODIFIED") && !page.contains("ADDED"), "the objects, not the watch's envelopes")

        // web-4 fails, web-7 is deleted, a bookmark passes, a new pod is added.
        try await server.push(watch("MODIFIED", Self.pod(4, phase: "Failed")))
        try await server.push(watch("DELETED", Self.pod(7, phase: "Running")))
        try await server.push(
            #"{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"120"}}}"# + "\n")
        try await server.push(watch("ADDED", Self.pod(0, phase: "Pending")))
        let now = ["web-0"] + nine.filter { $0 != "web-7" }
        try await Eventually.check("web-7 gone, web-0 added") { try await pods() == now }
        #expect(try await pod("web-4")?["status"]?["phase"]?.stringValue == "Failed", "modified in place")
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0), "the bookmark is not counted")
        #expect(ready["upstream"]?["state"] == .string("open"))
        #expect(server.requests.count == 1, "no reconnect")
    }
}
