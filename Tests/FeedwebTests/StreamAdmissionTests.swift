import FeedCore
import Foundation
import TestSupport
import Testing

/// `--max-clients`: past the limit a new stream gets 503 with `Retry-After` at once, and
/// a slot freed by a client that goes away is free at once, even on a quiet feed.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct StreamAdmissionTests {
    @Test func fourthStreamGets503AndADisconnectFreesItsSlot() async throws {
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [3, 2, 1]))
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--max-clients", "3"])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port, within: 20)

        // Three streams, of all three kinds: the limit counts them together.
        var open = [
            try await SSETestClient(port: feedweb.port, path: "/events"),
            try await SSETestClient(port: feedweb.port, path: "/events/items"),
            try await SSETestClient(port: feedweb.port, path: "/events/page?view=list"),
        ]
        for stream in open {
            #expect(stream.status == 200)
            _ = try await stream.next(before: Date().addingTimeInterval(5))
        }

        for path in ["/events", "/events/items", "/events/page?view=list"] {
            let started = Date()
            let refused = try await HTTPTestClient.get(
                port: feedweb.port, path, headers: ["Accept": "text/event-stream"], timeout: 3)
            #expect(refused.status == 503, "\(path) past the limit")
            #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 > 0, "with a Retry-After in seconds")
            #expect(Date().timeIntervalSince(started) < 2, "answered at once, never a hang")
        }
        #expect(
            try await HTTPTestClient.get(port: feedweb.port, "/healthz").status == 200, "plain requests still served")

        // The feed is quiet (no events, no heartbeat for 15 s): a client that goes away
        // must still free its slot at once.
        let leaving = open.removeFirst()
        leaving.close()
        let admitted = try await Eventually.value(
            "a stream to be admitted after one left", within: 3, poll: .milliseconds(50)
        ) {
            () -> SSETestClient? in
            let stream = try await SSETestClient(port: feedweb.port, path: "/events", timeout: 2)
            return stream.status == 200 ? stream : nil
        }
        #expect(try await JSONValue(parsing: admitted.expectNext("data").data) == upstream.document)
        // And the limit holds again.
        let again = try await HTTPTestClient.get(
            port: feedweb.port, "/events", headers: ["Accept": "text/event-stream"])
        #expect(again.status == 503)

        // The others were not disturbed.
        try await upstream.change([Patch.add("/results/0", NewswireFeed.story(4))])
        let id = try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        #expect(try await open[0].next(type: "added", within: 5).id == id)
        #expect(try await admitted.expectNext("patch").id == id)
        await upstream.shutdown()
    }
}
