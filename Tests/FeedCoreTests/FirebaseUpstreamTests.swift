import FeedCore
import Foundation
import TestSupport
import Testing

/// `--mode firebase` over real sockets, against a scripted Firebase REST stream (the
/// Hacker News API's shape): redirects followed, put/patch/null applied, keep-alive quiet,
/// bad input and cancel/auth_revoked counted as upstream errors with the state kept, and
/// the reconnect that follows each end.
@Suite("Firebase upstream", .timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct FirebaseUpstreamTests {
    static func event(_ type: String, _ path: String, _ data: String) -> String {
        SSEText.event(type, data: #"{"path":"\#(path)","data":\#(data)}"#)
    }

    @Test("put, patch, null and keep-alive; a bad put is counted; cancel and auth_revoked end the stream, state kept")
    func stream() async throws {
        let first = [
            Self.event("put", "/", #"{"topstories":[3,2,1],"maxitem":3}"#),
            Self.event("put", "/topstories/3", "0"),
            Self.event("patch", "/", #"{"maxitem":4,"updated":{"items":[4]}}"#),
            SSEText.event("keep-alive", data: "null"),
            Self.event("put", "/maxitem/x", "1"),  // through a scalar: bad input
            Self.event("put", "/updated", "null"),
            SSEText.event("cancel", data: "null"),
        ]
        let second = [
            Self.event("put", "/", #"{"topstories":[4,3,2],"maxitem":4}"#),
            SSEText.event("auth_revoked", data: #""credential expired""#),
        ]
        let third = [Self.event("put", "/", #"{"topstories":[5,4,3],"maxitem":5}"#)]
        try await Upstream.run(
            [
                .redirect(307, to: "/v0/.json?ns=hacker-news"),
                .stream(first.map(ScriptedSSEServer.Step.text), ending: .stayOpen),
                .stream(second.map(ScriptedSSEServer.Step.text), ending: .stayOpen),
                .stream(third.map(ScriptedSSEServer.Step.text), ending: .stayOpen),
            ], path: "/v0/.json", kind: .firebase
        ) { server, upstream in
            let requests = try await server.waitForRequests(4)
            #expect(requests[1].uri == "/v0/.json?ns=hacker-news", "the 307 was followed")
            #expect(requests[1].header("Accept") == "text/event-stream")
            let expected = try JSONValue(parsing: #"{"topstories":[5,4,3],"maxitem":5}"#)
            try await upstream.waitUntil("the third stream's document, observed") {
                upstream.acceptedDocuments.last == expected
            }
            // The first stream's document, as Firebase's rules build it, before cancel.
            let afterFirst = try JSONValue(parsing: #"{"topstories":[3,2,1,0],"maxitem":4}"#)
            #expect(upstream.acceptedDocuments.contains(afterFirst))
            let status = try await upstream.waitForStatus("three upstream errors", timeout: .seconds(15)) {
                $0.upstreamErrors == 3
            }
            #expect(status.rejectedPatches == 0, "nothing was rejected: bad input is an upstream error")
            #expect(status.reconnects == 2, "one attempt per stream; the redirect is part of the first")
            #expect(status.lastUpstreamError?.contains("auth_revoked") == true)
            let endings = upstream.events.compactMap { event -> String? in
                if case .backingOff(_, let error, _) = event { return error }
                return nil
            }
            #expect(endings.contains { $0.hasPrefix("upstream ended the stream: cancel") }, "\(endings)")
            #expect(endings.contains { $0.hasPrefix("upstream ended the stream: auth_revoked") }, "\(endings)")
        }
    }

    @Test("downstream it is a document like any other: one snapshot, then patches")
    func downstreamIsPatches() async throws {
        try await Upstream.run(
            [
                .events(
                    Self.event("put", "/", #"{"items":[{"id":1}]}"#), Self.event("put", "/items/1", #"{"id":2}"#),
                    Self.event("patch", "/items/0", #"{"title":"One"}"#), ending: .stayOpen)
            ], kind: .firebase
        ) { _, upstream in
            let expected = try JSONValue(parsing: #"{"items":[{"id":1,"title":"One"},{"id":2}]}"#)
            try await upstream.waitUntil("the patched document") { upstream.document == expected }
            let history = upstream.store.resume(after: EventID(epoch: "test", seq: 1), through: 3)
            guard case .patches(let patches) = history else {
                Issue.record("no patches after the snapshot: \(history)")
                return
            }
            #expect(patches.map(\.seq) == [2, 3])
        }
    }
}
