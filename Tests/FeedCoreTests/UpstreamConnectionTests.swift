import FeedCore
import Foundation
import Logging
import TestSupport
import Testing

@Suite("Upstream connection: requests, ids, events", .serialized, .onThreadsOfItsOwn)
struct UpstreamConnectionTests {
    @Test("the request carries Accept, Cache-Control and every configured header, and no Last-Event-ID at first")
    func requestHeaders() async throws {
        let began = Date()
        try await Upstream.run(
            [.events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen)], path: "/feed?x=1&y=2",
            options: .init(headers: [
                ("Authorization", "Bearer s3cret"), ("X-Sd-Token", "token-1"), ("X-Repeat", "one"),
                ("X-Repeat", "two"),
            ])
        ) { server, upstream in
            let request = try #require(try await server.waitForRequests(1).first)
            #expect(request.method == "GET")
            #expect(request.uri == "/feed?x=1&y=2")
            #expect(request.path == "/feed")
            #expect(request.header("Accept") == "text/event-stream, application/x-ndjson;q=0.9, application/json;q=0.8")
            #expect(request.header("Cache-Control") == "no-cache")
            #expect(request.header("Authorization") == "Bearer s3cret")
            #expect(request.header("X-Sd-Token") == "token-1")
            #expect(request.headerValues("X-Repeat") == ["one", "two"])
            #expect(request.header("Last-Event-ID") == nil)
            #expect(request.header("Host") == "127.0.0.1:\(server.port)")
            try await upstream.waitUntil("the document") { upstream.document != nil }
            let status = try await upstream.waitForStatus("open") { $0.phase == .open }
            #expect(status.isConnected)
            let connectedSince = try #require(status.connectedSince)
            #expect(connectedSince > began && connectedSince <= Date(), "connected during this test")
            #expect(status.source == server.url("/feed?x=1&y=2"))
        }
    }

    @Test("a configured Accept or Cache-Control replaces the default, not adds to it")
    func overriddenDefaults() async throws {
        try await Upstream.run(
            [.events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen)],
            options: .init(headers: [("accept", "text/event-stream, application/json"), ("Cache-Control", "max-age=0")])
        ) { server, _ in
            let request = try #require(try await server.waitForRequests(1).first)
            #expect(request.headerValues("Accept") == ["text/event-stream, application/json"])
            #expect(request.headerValues("Cache-Control") == ["max-age=0"])
        }
    }

    @Test("Last-Event-ID on reconnect is the last id received, kept across events and connections")
    func lastEventIDOnReconnect() async throws {
        let first = [
            SSEText.event("data", data: Upstream.document(1), id: "e-1", retry: 50),
            SSEText.event("patch", data: Upstream.setVersion(2), id: "e-2"),
            // No id: the event carries e-2.
            SSEText.event("patch", data: Upstream.setVersion(3)),
            SSEText.event("patch", data: Upstream.setVersion(4), id: "e-3"),
        ]
        try await Upstream.run(
            [
                .stream(first.map(ScriptedSSEServer.Step.text)),
                // A connection whose events carry no id: the id stays e-3.
                .events(SSEText.event("patch", data: Upstream.setVersion(5))),
                .events(SSEText.comment("hello"), ending: .stayOpen),
            ]
        ) { server, upstream in
            let requests = try await server.waitForRequests(3)
            #expect(requests[0].header("Last-Event-ID") == nil)
            #expect(requests[1].header("Last-Event-ID") == "e-3")
            #expect(requests[2].header("Last-Event-ID") == "e-3")
            #expect(Upstream.version(upstream.document) == 5)
            #expect(upstream.status.rejectedPatches == 0)
        }
    }

    @Test("an id is sent as received, also one with spaces and non-ASCII text")
    func unusualIDs() async throws {
        try await Upstream.run(
            [
                .events(SSEText.event("data", data: Upstream.document(1), id: "2024-05-01 12:00 Zürich #7", retry: 50)),
                .events(SSEText.comment(), ending: .stayOpen),
            ]
        ) { server, _ in
            let requests = try await server.waitForRequests(2)
            #expect(requests[1].header("Last-Event-ID") == "2024-05-01 12:00 Zürich #7")
        }
    }

    @Test("an id with a control character is not sent, and reconnecting still works")
    func controlCharacterID() async throws {
        try await Upstream.run(
            [
                .events(SSEText.event("data", data: Upstream.document(1), id: "bad\u{1}id", retry: 50)),
                .events(SSEText.event("patch", data: Upstream.setVersion(2), id: "good-2")),
                .events(SSEText.comment(), ending: .stayOpen),
            ]
        ) { server, upstream in
            let requests = try await server.waitForRequests(3)
            #expect(requests[1].header("Last-Event-ID") == nil)
            #expect(requests[2].header("Last-Event-ID") == "good-2")
            #expect(Upstream.version(upstream.document) == 2)
        }
    }

    @Test(
        "a rejected patch keeps the last good state, is counted, and the reconnect sends no Last-Event-ID",
        arguments: [
            ("unknown op", #"[{"op":"frobnicate","path":"/num_results","value":9}]"#),
            (
                "failed test",
                #"[{"op":"test","path":"/status","value":"ERROR"},{"op":"replace","path":"/num_results","value":9}]"#
            ),
            ("not JSON", "[{\"op\":\"replace\","),
            ("missing path", #"[{"op":"replace","path":"/num_results","value":9},{"op":"remove","path":"/nope"}]"#),
            ("not an array", #"{"op":"replace","path":"/num_results","value":9}"#),
        ])
    func rejectedPatch(kind: String, patch: String) async throws {
        let first = [
            SSEText.event("data", data: Upstream.document(1), id: "r-1", retry: 50),
            SSEText.event("patch", data: Upstream.setVersion(2), id: "r-2"),
            SSEText.event("patch", data: patch, id: "r-3"),
            // After the rejection nothing more on this connection applies.
            SSEText.event("patch", data: Upstream.setVersion(4), id: "r-4"),
        ]
        try await Upstream.run(
            [
                .stream(first.map(ScriptedSSEServer.Step.text), ending: .stayOpen),
                // The fresh snapshot comes a little later, so the kept state can be checked first.
                .stream(
                    [.pause(.milliseconds(300)), .text(SSEText.event("data", data: Upstream.document(10), id: "s-1"))],
                    ending: .stayOpen),
            ]
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            #expect(requests[1].header("Last-Event-ID") == nil, "\(kind)")
            // The last good state: the data and the first patch, nothing after.
            #expect(Upstream.version(upstream.document) == 2, "\(kind)")
            #expect(upstream.store.snapshot?.id.seq == 2)
            #expect(upstream.status.rejectedPatches == 1)
            #expect(upstream.status.lastError?.contains("resynchronising") == true)
            let dropped = try await server.waitForClose(ofConnection: 0)
            #expect(dropped.closedByClient)
            // The store's observers hear of a change just after its snapshot is visible: wait
            // for them, not for the snapshot.
            try await upstream.waitUntil("the fresh snapshot, observed") {
                upstream.acceptedDocuments.compactMap(Upstream.version).last == 10
            }
            #expect(upstream.acceptedDocuments.compactMap(Upstream.version) == [1, 2, 10])
        }
    }

    @Test("a data event that is not JSON is rejected like a bad patch")
    func badDocument() async throws {
        try await Upstream.run(
            [
                .events(
                    SSEText.event("data", data: Upstream.document(1), id: "d-1", retry: 50),
                    SSEText.event("data", data: "{not json", id: "d-2")),
                .events(SSEText.event("data", data: Upstream.document(3)), ending: .stayOpen),
            ]
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            #expect(requests[1].header("Last-Event-ID") == nil)
            try await upstream.waitUntil("the next document") { Upstream.version(upstream.document) == 3 }
            #expect(upstream.status.rejectedPatches == 1)
        }
    }

    @Test("a patch before any document is rejected and resynchronised")
    func patchFirst() async throws {
        try await Upstream.run(
            [
                .events(SSEText.event("patch", data: Upstream.setVersion(2), id: "p-1", retry: 50), ending: .stayOpen),
                .events(SSEText.event("data", data: Upstream.document(3)), ending: .stayOpen),
            ]
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            #expect(requests[1].header("Last-Event-ID") == nil)
            try await upstream.waitUntil("the document") { Upstream.version(upstream.document) == 3 }
            #expect(upstream.status.rejectedPatches == 1)
        }
    }

    @Test("every event kind on one live stream: documents, patches, errors, monitor, unknown")
    func eventKinds() async throws {
        try await Upstream.run([.stream([], ending: .stayOpen)]) { server, upstream in
            try await server.waitForRequests(1)
            var sent: UInt64 = 0
            func send(_ text: String) async throws {
                try await server.push(text)
                sent += 1
                let expected = sent
                try await upstream.waitUntil("event \(expected) handled") {
                    upstream.status.eventsReceived == expected
                }
            }
            try await send(SSEText.event("snapshot", data: Upstream.document(1, marker: "snapshot")))
            #expect(upstream.document?["marker"] == .string("snapshot"))

            // No event: field, data a JSON object: a document.
            try await send(SSEText.event(data: Upstream.document(2, marker: "unnamed")))
            #expect(upstream.document?["marker"] == .string("unnamed"))

            // Streamdata's legacy error: shown, state and stream kept.
            let legacy =
                #"{"status":2001,"cause":"HTTP error","message":"Fail to connect","timestamp":1445443200,"sessionId":"s1"}"#
            try await send(SSEText.event("error", data: legacy))
            #expect(upstream.status.upstreamErrors == 1)
            #expect(upstream.status.lastUpstreamError == "2001: Fail to connect (HTTP error)")
            #expect(upstream.document?["marker"] == .string("unnamed"))

            // Events after the error on the same stream apply as usual.
            try await send(SSEText.event("patch", data: Upstream.setVersion(3)))
            #expect(Upstream.version(upstream.document) == 3)

            let later =
                #"{"code":4001,"message":"Target answered 500","category":"TargetError","datetime":"2019-03-14T09:12:40Z"}"#
            try await send(SSEText.event("error", data: later))
            #expect(upstream.status.upstreamErrors == 2)
            #expect(upstream.status.lastUpstreamError == "4001: Target answered 500")

            try await send(SSEText.event("monitor", data: #"{"alive":true}"#))
            #expect(upstream.status.ignoredEvents == 0)

            try await send(SSEText.event("ping", data: #"{"a":1}"#))
            #expect(upstream.status.ignoredEvents == 0, "liveness is not counted")
            try await send(SSEText.event("tick", data: #"{"a":1}"#))
            #expect(upstream.status.ignoredEvents == 1)
            try await send(SSEText.event(data: #""text""#))
            #expect(upstream.status.ignoredEvents == 2)
            #expect(upstream.status.lastIgnored == "an unnamed event's data is not a JSON object or array")

            try await send(SSEText.event("data", data: Upstream.document(7, marker: "data")))
            #expect(upstream.document?["marker"] == .string("data"))
            #expect(Upstream.version(upstream.document) == 7)

            // All of it on one connection, nothing rejected.
            #expect(server.requests.count == 1)
            #expect(server.connections.count == 1)
            #expect(upstream.status.rejectedPatches == 0)
            #expect(upstream.status.reconnects == 0)
            #expect(upstream.status.phase == .open)
            try await upstream.waitUntil("the last document, observed") {
                upstream.acceptedDocuments.compactMap(Upstream.version).last == 7
            }
            #expect(upstream.acceptedDocuments.compactMap(Upstream.version) == [1, 2, 3, 7])
        }
    }

    @Test("an error event followed by the end of the stream: the state is kept and the usual reconnect follows")
    func errorThenClose() async throws {
        try await Upstream.run(
            [
                .events(
                    SSEText.event("data", data: Upstream.document(4), id: "x-1", retry: 50),
                    SSEText.event("error", data: #"{"status":2002,"message":"quota exceeded"}"#)),
                .events(SSEText.comment(), ending: .stayOpen),
            ]
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            #expect(requests[1].header("Last-Event-ID") == "x-1")
            #expect(Upstream.version(upstream.document) == 4)
            #expect(upstream.status.lastUpstreamError == "2002: quota exceeded")
            #expect(upstream.status.rejectedPatches == 0)
        }
    }

    @Test("events split at awkward places (CRLF, a BOM, one byte at a time) apply the same")
    func awkwardFraming() async throws {
        let text =
            "\u{FEFF}event: data\r\nid: a-1\r\ndata: " + Upstream.document(5) + "\r\n\r\nevent: patch\rdata: "
            + Upstream.setVersion(6) + "\r\r"
        let steps = Array(text.utf8).map { ScriptedSSEServer.Step.send([$0]) }
        try await Upstream.run([.stream(steps, ending: .stayOpen)]) { _, upstream in
            // The status counts an event after the store has taken it: wait for both.
            try await upstream.waitUntil("both events") {
                Upstream.version(upstream.document) == 6 && upstream.status.eventsReceived >= 2
            }
            #expect(upstream.status.bytesReceived == UInt64(text.utf8.count))
            #expect(upstream.status.eventsReceived == 2)
        }
    }

    @Test("close-delimited and Content-Length bodies work like chunked ones")
    func otherFraming() async throws {
        let body = SSEText.event("data", data: Upstream.document(1), id: "f-1", retry: 50)
        try await Upstream.run(
            [
                .stream([.text(body)], framing: .closeDelimited),
                .stream([.text(SSEText.event("patch", data: Upstream.setVersion(2)))], framing: .contentLength),
                .events(SSEText.comment(), ending: .stayOpen),
            ]
        ) { server, upstream in
            let requests = try await server.waitForRequests(3)
            #expect(requests[1].header("Last-Event-ID") == "f-1")
            #expect(Upstream.version(upstream.document) == 2)
        }
    }

    @Test("an invalid URL or an unreadable CA file is refused when the connection is made")
    func invalidConfiguration() throws {
        let store = FeedStore(configuration: .init(profile: .generic))
        for url in ["ftp://example.com/feed", "not a url", "http://", "/relative/path", "example.com/feed", ""] {
            #expect(throws: UpstreamError.self, "\(url)") {
                _ = try UpstreamConnection(configuration: .init(url: url), store: store, logger: .init(label: "t"))
            }
        }
        #expect(throws: UpstreamError.self) {
            _ = try UpstreamConnection(
                configuration: .init(url: "https://127.0.0.1:1/", caFile: "/nonexistent/ca.pem"), store: store,
                logger: .init(label: "t"))
        }
        for header in [("Bad Name", "v"), ("", "v"), ("X-Ok", "line\r\nInjected: 1"), ("X-Ok", "nul\u{0}")] {
            #expect(throws: UpstreamError.self, "\(header)") {
                _ = try UpstreamConnection(
                    configuration: .init(url: "http://127.0.0.1:1/", headers: [header]), store: store,
                    logger: .init(label: "t"))
            }
        }
        // A connection that is made but never run holds nothing that needs shutting down.
        let idle = try UpstreamConnection(
            configuration: .init(url: "https://127.0.0.1:1/", caFile: Upstream.caFile), store: store,
            logger: .init(label: "t"))
        #expect(idle.status.phase == .idle)
        #expect(idle.status.reconnects == 0 && idle.status.lastError == nil)
    }
}
