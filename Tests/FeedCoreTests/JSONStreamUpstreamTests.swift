import FeedCore
import Foundation
import TestSupport
import Testing

/// An `--upstream` that answers a stream of JSON texts instead of SSE, over real sockets
/// against ``ScriptedSSEServer``: NDJSON and streamed `application/json` as items or
/// documents, a Kubernetes watch as the set of objects it edits, heartbeats and broken texts
/// left out while the state is kept, and a JSON API's single answer shown with the way to
/// follow it.
@Suite("JSON stream upstream", .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct JSONStreamUpstreamTests {
    static func line(_ value: JSONValue) -> String { value.serializedString() + "\n" }

    static func notification(_ n: Int, title: String) -> JSONValue {
        .object([
            "id": .string("m\(n)"), "time": .int(1_796_371_600 + Int64(n)), "event": .string("message"),
            "topic": .string("alerts"), "title": .string(title),
        ])
    }

    /// A pod as a Kubernetes API server writes it, identified by `uid`.
    static func pod(_ name: String, uid: String, phase: String, version: Int) -> JSONValue {
        .object([
            "kind": .string("Pod"), "apiVersion": .string("v1"),
            "metadata": .object([
                "name": .string(name), "namespace": .string("default"), "uid": .string(uid),
                "resourceVersion": .string(String(version)),
            ]),
            "status": .object(["phase": .string(phase)]),
        ])
    }

    static func watch(_ type: String, _ object: JSONValue) -> String {
        line(.object(["type": .string(type), "object": object]))
    }

    static func watch(_ type: String, json object: String) throws -> String {
        watch(type, try JSONValue(parsing: object))
    }

    /// The first price in a `{"prices":[…]}` document.
    static func firstPrice(_ document: JSONValue?) -> JSONValue? {
        document?["prices"]?.arrayValue?.first?["price"]
    }

    /// The kept items' values at `pointer`, in order.
    static func values(_ document: JSONValue?, at pointer: String) -> [String] {
        let path = (try? JSONPointer(pointer)) ?? JSONPointer(tokens: [])
        return (document?["items"]?.arrayValue ?? []).map { $0.value(at: path)?.stringValue ?? "-" }
    }

    @Test("NDJSON in append mode: each line one item; keepalives, ntfy's open and a broken line are no items")
    func ndjsonItems() async throws {
        let head = [
            #"{"id":"o1","time":1,"event":"open","topic":"alerts"}"# + "\n",
            Self.line(Self.notification(1, title: "Backup done")),
            #"{"id":"k1","time":2,"event":"keepalive","topic":"alerts"}"# + "\n",
            "{\"id\":\"m-broken\",\"title\":\n",
        ]
        try await Upstream.run(
            [
                .stream(
                    [.text(head.joined()), .text(Self.line(Self.notification(2, title: "<b>Disk</b> full")))],
                    ending: .stayOpen, contentType: "application/x-ndjson; charset=utf-8")
            ], kind: .append(keep: 10)
        ) { server, upstream in
            try await upstream.waitUntil("two notifications") {
                Self.values(upstream.document, at: "/id") == ["m2", "m1"]
            }
            #expect(Self.values(upstream.document, at: "/title") == ["<b>Disk</b> full", "Backup done"])
            try await upstream.waitUntil("the broken line counted") { upstream.status.upstreamErrors == 1 }
            #expect(upstream.status.lastUpstreamError?.contains("not JSON") == true)
            #expect(upstream.status.phase == .open, "a broken line keeps the connection")
            // Pushed later, split mid-line: one more item once its line ends.
            let next = Self.line(Self.notification(3, title: "Deploy finished"))
            let cut = next.index(next.startIndex, offsetBy: 10)
            try await server.push(String(next[..<cut]))
            try await server.push(String(next[cut...]))
            try await upstream.waitUntil("the third notification") {
                Self.values(upstream.document, at: "/id") == ["m3", "m2", "m1"]
            }
            #expect(upstream.status.reconnects == 0)
        }
    }

    /// A Kubernetes list's page as an API server answers it (`application/json`).
    static func podList(_ pods: [JSONValue], version: String, next: String? = nil) -> ScriptedSSEServer.Response {
        var metadata: JSONObject = ["resourceVersion": .string(version)]
        if let next { metadata["continue"] = .string(next) }
        let list = JSONValue.object([
            "kind": .string("PodList"), "apiVersion": .string("v1"), "metadata": .object(metadata),
            "items": .array(pods),
        ])
        return .status(200, headers: [("Content-Type", "application/json")], body: list.serializedString())
    }

    @Test(
        "a Kubernetes watch: added, modified in place, deleted by uid; after 410 the list, page by page, then the watch from its version"
    )
    func kubernetesWatch() async throws {
        let first = [
            Self.watch("ADDED", Self.pod("web-1", uid: "u1", phase: "Pending", version: 1)),
            Self.watch("ADDED", Self.pod("web-2", uid: "u2", phase: "Running", version: 2)),
            Self.watch("ADDED", Self.pod("db-1", uid: "u3", phase: "Running", version: 3)),
            Self.watch("MODIFIED", Self.pod("web-1", uid: "u1", phase: "Running", version: 4)),
            try Self.watch("BOOKMARK", json: #"{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"5"}}"#),
            Self.watch("DELETED", Self.pod("web-2", uid: "u2", phase: "Running", version: 6)),
            try Self.watch(
                "ERROR",
                json: #"""
                    {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410,
                    "message":"too old resource version: 1 (6)"}
                    """#),
        ]
        // The version expired: a watch from the URL as given would say what there is, not
        // that db-1 went meanwhile. The list (two pages) is what there is; the watch then
        // starts at its version.
        try await Upstream.run(
            [
                .stream([.text(first.joined())], ending: .close, contentType: "application/json"),
                Self.podList(
                    [Self.pod("web-1", uid: "u1", phase: "Running", version: 4)], version: "9", next: "page 2&of=2"),
                Self.podList([Self.pod("web-3", uid: "u4", phase: "Pending", version: 8)], version: "9"),
                .stream(
                    [.text(Self.watch("MODIFIED", Self.pod("web-3", uid: "u4", phase: "Running", version: 10)))],
                    ending: .stayOpen, contentType: "application/json"),
            ], path: "/api/v1/pods?watch=1", kind: .append(keep: 50)
        ) { server, upstream in
            try await upstream.waitUntil("the first watch's pods") {
                Self.values(upstream.document, at: "/metadata/name") == ["db-1", "web-1"]
            }
            #expect(Self.values(upstream.document, at: "/status/phase") == ["Running", "Running"])
            try await upstream.waitUntil("the Status shown") {
                upstream.status.lastUpstreamError == "410 Expired: too old resource version: 1 (6)"
            }
            let requests = try await server.waitForRequests(4)
            #expect(
                requests.map(\.uri) == [
                    "/api/v1/pods?watch=1", "/api/v1/pods?limit=500",
                    "/api/v1/pods?limit=500&continue=page%202%26of%3D2", "/api/v1/pods?watch=1&resourceVersion=9",
                ])
            #expect(requests[1].header("Accept") == "application/json")
            try await upstream.waitUntil("the listed pods, db-1 gone, web-3 as the watch changed it") {
                Self.values(upstream.document, at: "/metadata/uid") == ["u4", "u1"]
                    && Self.values(upstream.document, at: "/status/phase") == ["Running", "Running"]
            }
            #expect(Self.values(upstream.document, at: "/metadata/name") == ["web-3", "web-1"])
        }
    }

    @Test("a watch that ends is watched again from its last resourceVersion: what went meanwhile goes")
    func kubernetesWatchResumes() async throws {
        let first = [
            Self.watch("ADDED", Self.pod("web-1", uid: "u1", phase: "Running", version: 11)),
            Self.watch("ADDED", Self.pod("web-2", uid: "u2", phase: "Running", version: 12)),
            Self.watch("ADDED", Self.pod("db-1", uid: "u3", phase: "Running", version: 13)),
            try Self.watch("BOOKMARK", json: #"{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"15"}}"#),
        ]
        // What happened while feedweb was away, as the API server sends it to a watch that
        // resumes.
        let second = [
            Self.watch("DELETED", Self.pod("web-2", uid: "u2", phase: "Running", version: 16)),
            Self.watch("MODIFIED", Self.pod("db-1", uid: "u3", phase: "Failed", version: 17)),
        ]
        try await Upstream.run(
            [
                .stream([.text(first.joined())], ending: .close, contentType: "application/json"),
                .stream([.text(second.joined())], ending: .stayOpen, contentType: "application/json"),
            ], path: "/api/v1/pods?watch=1&labelSelector=app%3Dweb", kind: .append(keep: 50)
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            #expect(
                requests.map(\.uri) == [
                    "/api/v1/pods?watch=1&labelSelector=app%3Dweb",
                    "/api/v1/pods?watch=1&labelSelector=app%3Dweb&resourceVersion=15",
                ])
            try await upstream.waitUntil("web-2 gone, db-1 failed") {
                Self.values(upstream.document, at: "/metadata/uid") == ["u3", "u1"]
                    && Self.values(upstream.document, at: "/status/phase") == ["Failed", "Running"]
            }
            #expect(upstream.status.upstreamErrors == 0)
        }
    }

    @Test("a resumed watch answered 410 Gone: the next starts over, from a list")
    func kubernetesResumeRefused() async throws {
        let gone = ScriptedSSEServer.Response.status(
            410, headers: [("Content-Type", "application/json")],
            body: #"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}"#)
        try await Upstream.run(
            [
                .stream(
                    [.text(Self.watch("ADDED", Self.pod("web-1", uid: "u1", phase: "Running", version: 7)))],
                    ending: .close, contentType: "application/json"),
                gone,
                Self.podList([Self.pod("web-9", uid: "u9", phase: "Pending", version: 90)], version: "91"),
                .stream([], ending: .stayOpen, contentType: "application/json"),
            ], path: "/api/v1/pods?watch=true", kind: .append(keep: 50)
        ) { server, upstream in
            let requests = try await server.waitForRequests(4)
            #expect(
                requests.map(\.uri) == [
                    "/api/v1/pods?watch=true", "/api/v1/pods?watch=true&resourceVersion=7", "/api/v1/pods?limit=500",
                    "/api/v1/pods?watch=true&resourceVersion=91",
                ])
            try await upstream.waitUntil("the listed pod alone: web-1 went while the version expired") {
                Self.values(upstream.document, at: "/metadata/uid") == ["u9"]
            }
        }
    }

    @Test(
        "a watch by path (/api/v1/watch/pods) is listed at /api/v1/pods; a page over --max-event-bytes is asked for again, half as large"
    )
    func kubernetesPathWatchSmallerPages() async throws {
        let expired = try Self.watch(
            "ERROR", json: #"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}"#)
        // 40 pods of ~300 bytes: a page of all of them is over the 8 KiB limit below.
        let padding = String(repeating: "x", count: 240)
        let many = (0..<40).map { n in
            JSONValue.object([
                "kind": .string("Pod"),
                "metadata": .object([
                    "name": .string("web-\(n)"), "uid": .string("w\(n)"), "resourceVersion": .string("20"),
                    "annotations": .object(["note": .string(padding)]),
                ]),
            ])
        }
        try await Upstream.run(
            [
                .stream(
                    [
                        .text(
                            Self.watch("ADDED", Self.pod("old-1", uid: "o1", phase: "Running", version: 1))
                                + Self.watch("ADDED", Self.pod("web-0", uid: "w0", phase: "Pending", version: 2))
                                + expired)
                    ], ending: .close, contentType: "application/json"),
                Self.podList(many, version: "21"),
                Self.podList(Array(many[..<20]), version: "21", next: "p2"),
                Self.podList(Array(many[20...]), version: "21"),
                .stream([], ending: .stayOpen, contentType: "application/json"),
            ], path: "/api/v1/watch/pods", options: .init(maxEventBytes: 8 * 1024), kind: .append(keep: 100)
        ) { server, upstream in
            let requests = try await server.waitForRequests(5)
            #expect(
                requests.map(\.uri) == [
                    "/api/v1/watch/pods", "/api/v1/pods?limit=500", "/api/v1/pods?limit=250",
                    "/api/v1/pods?limit=250&continue=p2", "/api/v1/watch/pods?resourceVersion=21",
                ])
            try await upstream.waitUntil("the 40 listed pods, old-1 gone") {
                let uids = Self.values(upstream.document, at: "/metadata/uid")
                return uids.count == 40 && !uids.contains("o1")
            }
            #expect(
                Set(Self.values(upstream.document, at: "/metadata/uid")) == Set((0..<40).map { "w\($0)" }))
        }
    }

    @Test("a list answered 429 with Retry-After (a busy API server) is asked again after the wait, then watched")
    func kubernetesListBusy() async throws {
        let expired = try Self.watch(
            "ERROR", json: #"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}"#)
        try await Upstream.run(
            [
                .stream(
                    [
                        .text(
                            Self.watch("ADDED", Self.pod("old-1", uid: "o1", phase: "Running", version: 1)) + expired)
                    ], ending: .close, contentType: "application/json"),
                .status(
                    429, headers: [("Retry-After", "1"), ("Content-Type", "application/json")],
                    body: #"{"kind":"Status","status":"Failure","reason":"TooManyRequests","code":429}"#),
                Self.podList([Self.pod("web-1", uid: "w1", phase: "Running", version: 7)], version: "8"),
                .stream([], ending: .stayOpen, contentType: "application/json"),
            ], path: "/api/v1/pods?watch=1", kind: .append(keep: 50)
        ) { server, upstream in
            let requests = try await server.waitForRequests(4)
            #expect(
                requests.map(\.uri) == [
                    "/api/v1/pods?watch=1", "/api/v1/pods?limit=500", "/api/v1/pods?limit=500",
                    "/api/v1/pods?watch=1&resourceVersion=8",
                ])
            #expect(requests[2].receivedAt - requests[1].receivedAt >= .seconds(1), "listed again after Retry-After")
            try await upstream.waitUntil("the listed pod alone") {
                Self.values(upstream.document, at: "/metadata/uid") == ["w1"]
            }
        }
    }

    @Test(
        "a list whose continue token expired (410) starts over once, from its first page, and holds only the new pages")
    func kubernetesListContinueExpired() async throws {
        let expired = try Self.watch(
            "ERROR", json: #"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}"#)
        let gone = ScriptedSSEServer.Response.status(
            410, headers: [("Content-Type", "application/json")],
            body:
                #"{"kind":"Status","status":"Failure","reason":"Expired","message":"The provided continue parameter is too old","code":410}"#
        )
        try await Upstream.run(
            [
                .stream(
                    [
                        .text(
                            Self.watch("ADDED", Self.pod("old-1", uid: "o1", phase: "Running", version: 1)) + expired)
                    ], ending: .close, contentType: "application/json"),
                // The first list's first page names web-2, deleted before its second page is asked.
                Self.podList([Self.pod("web-2", uid: "w2", phase: "Running", version: 5)], version: "6", next: "c1"),
                gone,
                Self.podList([Self.pod("web-1", uid: "w1", phase: "Running", version: 8)], version: "9", next: "c2"),
                Self.podList([Self.pod("web-3", uid: "w3", phase: "Pending", version: 9)], version: "9"),
                .stream([], ending: .stayOpen, contentType: "application/json"),
            ], path: "/api/v1/pods?watch=1", kind: .append(keep: 50)
        ) { server, upstream in
            let requests = try await server.waitForRequests(6)
            #expect(
                requests.map(\.uri) == [
                    "/api/v1/pods?watch=1", "/api/v1/pods?limit=500", "/api/v1/pods?limit=500&continue=c1",
                    "/api/v1/pods?limit=500", "/api/v1/pods?limit=500&continue=c2",
                    "/api/v1/pods?watch=1&resourceVersion=9",
                ])
            try await upstream.waitUntil("the second list's pods alone: web-2 from the first is not kept") {
                Set(Self.values(upstream.document, at: "/metadata/uid")) == ["w1", "w3"]
            }
        }
    }

    @Test("objects kept at the start (a state restored): the first watch is listed first, the ones gone taken out")
    func kubernetesRestoredState() async throws {
        let server = try await ScriptedSSEServer.start(script: [
            Self.podList([Self.pod("web-1", uid: "u1", phase: "Running", version: 30)], version: "31"),
            .stream(
                [.text(Self.watch("ADDED", Self.pod("web-5", uid: "u5", phase: "Pending", version: 32)))],
                ending: .stayOpen, contentType: "application/json"),
        ])
        let harness = try UpstreamHarness(
            server: server, configuration: UpstreamConfiguration(url: server.url("/api/v1/pods?watch=1")),
            kind: .append(keep: 50))
        // What a state file kept: web-1 as it was, and web-2, deleted since.
        harness.store.putItems(
            [
                Self.pod("web-2", uid: "u2", phase: "Running", version: 3),
                Self.pod("web-1", uid: "u1", phase: "Pending", version: 2),
            ], idAt: JSONPointer(tokens: ["metadata", "uid"]), keep: 50)
        try await Upstream.running(
            harness, shutdown: { await server.shutdown() },
            { upstream in
                let requests = try await server.waitForRequests(2)
                #expect(requests.map(\.uri) == ["/api/v1/pods?limit=500", "/api/v1/pods?watch=1&resourceVersion=31"])
                try await upstream.waitUntil("web-5 added, web-1 as listed, web-2 gone") {
                    Self.values(upstream.document, at: "/metadata/uid") == ["u5", "u1"]
                        && Self.values(upstream.document, at: "/status/phase") == ["Pending", "Running"]
                }
            })
    }

    @Test("ntfy's JSON stream that ends is read again since its last message's id, in place of since=all")
    func ntfyResumes() async throws {
        let open = #"{"id":"o1","time":1796371600,"event":"open","topic":"alerts"}"# + "\n"
        let keepalive = #"{"id":"k1","time":1796371630,"event":"keepalive","topic":"alerts"}"# + "\n"
        try await Upstream.run(
            [
                .stream(
                    [
                        .text(
                            open + Self.line(Self.notification(1, title: "Backup done"))
                                + Self.line(Self.notification(2, title: "Disk full")) + keepalive)
                    ], ending: .close, contentType: "application/x-ndjson"),
                .stream(
                    [.text(open + Self.line(Self.notification(3, title: "Deploy finished")))], ending: .stayOpen,
                    contentType: "application/x-ndjson"),
            ], path: "/alerts/json?since=all&poll=0", kind: .append(keep: 10)
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            #expect(requests.map(\.uri) == ["/alerts/json?since=all&poll=0", "/alerts/json?since=m2&poll=0"])
            try await upstream.waitUntil("each message once") {
                Self.values(upstream.document, at: "/id") == ["m3", "m2", "m1"]
            }
        }
    }

    @Test("Docker's events that end are read again since just after the last one, in place of the URL's since")
    func dockerEventsResume() async throws {
        func event(_ action: String, _ name: String, at nanoseconds: Int64) -> String {
            #"{"status":"\#(action)","id":"c-\#(name)","Type":"container","Action":"\#(action)","Actor":{"ID":"c-\#(name)","Attributes":{"name":"\#(name)"}},"scope":"local","time":\#(nanoseconds / 1_000_000_000),"timeNano":\#(nanoseconds)}"#
                + "\n"
        }
        try await Upstream.run(
            [
                .stream(
                    [
                        .text(
                            event("start", "web", at: 1_733_360_000_100_000_000)
                                + event("die", "db", at: 1_733_360_001_000_000_000))
                    ],
                    ending: .close, contentType: "application/json"),
                .stream(
                    [.text(event("start", "db", at: 1_733_360_002_000_000_000))], ending: .stayOpen,
                    contentType: "application/json"),
            ], path: "/events?since=1733359000&filters=%7B%22type%22%3A%5B%22container%22%5D%7D",
            kind: .append(keep: 10)
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            #expect(
                requests.map(\.uri) == [
                    "/events?since=1733359000&filters=%7B%22type%22%3A%5B%22container%22%5D%7D",
                    "/events?since=1733360001.000000001&filters=%7B%22type%22%3A%5B%22container%22%5D%7D",
                ])
            try await upstream.waitUntil("each event once") {
                Self.values(upstream.document, at: "/Action") == ["start", "die", "start"]
            }
        }
    }

    @Test("a changes feed that ends is read again since its last seq, in place of since=now")
    func couchChangesResume() async throws {
        func change(_ seq: String, _ id: String, deleted: Bool = false) -> String {
            #"{"seq":"\#(seq)","id":"\#(id)","changes":[{"rev":"1-x"}],"#
                + (deleted ? #""deleted":true,"# : "") + #""doc":{"_id":"\#(id)","name":"\#(id.uppercased())"}}"# + "\n"
        }
        try await Upstream.run(
            [
                .stream(
                    [.text(change("1-g1A", "ada") + change("2-g1B", "alan"))], ending: .close,
                    contentType: "application/json"),
                .stream(
                    [.text(change("3-g1C", "alan", deleted: true) + #"{"last_seq":"4-g1D","pending":0}"# + "\n")],
                    ending: .close, contentType: "application/json"),
                .stream([.text(change("5-g1E", "grace"))], ending: .stayOpen, contentType: "application/json"),
            ], path: "/db/_changes?feed=continuous&include_docs=true&since=now&heartbeat=10000",
            kind: .append(keep: 10)
        ) { server, upstream in
            let requests = try await server.waitForRequests(3)
            #expect(
                requests.map(\.uri) == [
                    "/db/_changes?feed=continuous&include_docs=true&since=now&heartbeat=10000",
                    "/db/_changes?feed=continuous&include_docs=true&since=2-g1B&heartbeat=10000",
                    "/db/_changes?feed=continuous&include_docs=true&since=4-g1D&heartbeat=10000",
                ])
            try await upstream.waitUntil("ada and grace, alan deleted while away") {
                Self.values(upstream.document, at: "/_id") == ["grace", "ada"]
            }
        }
    }

    @Test(
        "CouchDB's continuous changes: the documents, each once, as they are now; heartbeats and the last line skipped")
    func couchChanges() async throws {
        func change(_ seq: Int, _ id: String, name: String, deleted: Bool = false) -> String {
            let doc =
                deleted
                ? #"{"_id":"\#(id)","_rev":"\#(seq)-x","_deleted":true}"#
                : #"{"_id":"\#(id)","_rev":"\#(seq)-x","name":"\#(name)"}"#
            return #"{"seq":"\#(seq)-g1A","id":"\#(id)","changes":[{"rev":"\#(seq)-x"}],"#
                + (deleted ? #""deleted":true,"# : "") + #""doc":\#(doc)}"# + "\n"
        }
        let feed = [
            change(1, "ada", name: "Ada"), change(2, "alan", name: "Alan"), "\n",
            change(3, "grace", name: "Grace"), change(4, "ada", name: "Ada L."), "\n",
            change(5, "alan", name: "", deleted: true), #"{"last_seq":"5-g1A","pending":0}"# + "\n",
        ]
        try await Upstream.run(
            [.stream([.text(feed.joined())], ending: .stayOpen, contentType: "application/json")],
            path: "/db/_changes?feed=continuous&include_docs=true&heartbeat=10000", kind: .append(keep: 10)
        ) { _, upstream in
            try await upstream.waitUntil("two documents, ada changed in place") {
                Self.values(upstream.document, at: "/name") == ["Grace", "Ada L."]
            }
            #expect(Self.values(upstream.document, at: "/_id") == ["grace", "ada"])
            #expect(upstream.status.ignoredEvents == 0 && upstream.status.upstreamErrors == 0)
        }
    }

    @Test("streamed application/json in document mode: each value, pretty-printed or not, a whole document")
    func jsonDocuments() async throws {
        let pretty = "{\n  \"prices\": [\n    {\"symbol\": \"ACME\", \"price\": 12.5}\n  ]\n}\n"
        try await Upstream.run(
            [.stream([.text(pretty)], ending: .stayOpen, contentType: "application/json")], kind: .document
        ) { server, upstream in
            try await upstream.waitUntil("the first document") {
                Self.firstPrice(upstream.document) == .double(12.5)
            }
            try await server.push(#"{"prices":[{"symbol":"ACME","price":12.75}]}"#)
            try await upstream.waitUntil("the second document") {
                Self.firstPrice(upstream.document) == .double(12.75)
            }
            #expect(upstream.acceptedDocuments.count == 2)
            #expect(upstream.status.lastError == nil)
        }
    }

    @Test("a JSON API's one answer: shown, and the error says to poll it")
    func oneAnswer() async throws {
        let answer = ScriptedSSEServer.Response.status(
            200, headers: [("Content-Type", "application/json")], body: #"{"prices":[{"symbol":"ACME","price":1}]}"#)
        try await Upstream.run([answer], then: answer, kind: .document) { _, upstream in
            try await upstream.waitUntil("the document, and the advice") {
                upstream.document?["prices"] != nil && upstream.status.lastError?.contains("--poll") == true
            }
            #expect(
                upstream.status.lastError
                    == "upstream answered one JSON document and closed the connection (a JSON API is polled: --poll URL)"
            )
        }
    }

    @Test("Firebase mode reads SSE only: a JSON stream is refused")
    func firebaseRefuses() async throws {
        try await Upstream.run(
            [.stream([.text("{\"a\":1}\n")], ending: .stayOpen, contentType: "application/x-ndjson")],
            kind: .firebase
        ) { _, upstream in
            try await upstream.waitUntil("the refusal") { upstream.status.lastError?.contains("Content-Type") == true }
            #expect(upstream.document == nil)
        }
    }
}
