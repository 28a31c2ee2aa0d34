import FeedCore
import Foundation
import TestSupport
import Testing

/// Crowds through the real binary: a burst of streams opened at once on a freshly started
/// feedweb, and hundreds of keep-alive clients asking at once, are answered at the machine's
/// pace — never held until the head timeout closes them, whatever multiple of 128
/// connections are ready together (``DaemonLoop``'s notes; what libmicrohttpd's own loop
/// did with them: BENCHMARKS.md, "The tests' time bounds").
@Suite(.serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct CrowdTests {
    /// `feedweb_http_connections_closed_total{reason="head_timeout"}` now.
    private static func closedByHeadTimeout(port: UInt16) async throws -> Double {
        let text = try await HTTPTestClient.get(port: port, "/metrics", timeout: 5).text
        return try PrometheusText(parsing: text).value(
            "feedweb_http_connections_closed_total", ["reason": "head_timeout"]) ?? 0
    }

    @Test(
        "300 clients opening /events at once on a fresh feedweb: each gets its first event within 1 s, in each of 3 starts"
    )
    func burstOfStreams() async throws {
        let files = FileLimit.raiseToHardLimit()
        try #require(files >= 1024, "the open-file limit is \(files)")
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [3, 2, 1]))
        defer { Task { await upstream.shutdown() } }
        for start in 1...3 {
            let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url])
            defer { feedweb.kill() }
            try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port, within: 20)
            let burst = await StreamBurst.open(port: feedweb.port, path: "/events", count: 300, within: 12)
            #expect(burst.failures.isEmpty, "start \(start): \(burst.failures)")
            #expect(burst.opened == 300, "start \(start)")
            #expect(burst.refused == 0 && burst.closedEarly == 0, "start \(start): \(burst)")
            #expect(
                burst.firstEvent.count == burst.opened,
                "start \(start): \(burst.firstEvent.count) of \(burst.opened) got an event")
            #expect(
                burst.slowestFirstEvent < 1,
                "start \(start): slowest first event after \(burst.slowestFirstEvent) s, first byte \(burst.firstByte.max() ?? 0) s"
            )
            #expect(try await Self.closedByHeadTimeout(port: feedweb.port) == 0, "start \(start)")
            #expect(await feedweb.stop()?.status == 0)
        }
    }

    @Test(
        "512 keep-alive clients on /api/state and an item page for 5 s: every request answered within 1 s, none closed")
    func keepAliveCrowd() async throws {
        let files = FileLimit.raiseToHardLimit()
        try #require(files >= 1024, "the open-file limit is \(files)")
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        let items = try await FeedwebProbe.items(port: feedweb.port)
        let key = try #require(items.first?["key"]?.stringValue, "an item to ask for")
        // wrk: each client asks again the moment its answer is whole, as a proxy's pool does.
        let report = try await Wrk.run(
            port: feedweb.port, paths: ["/api/state", "/items/\(key)"], connections: 512, seconds: 5, timeout: 1)
        #expect(report.connectErrors == 0 && report.writeErrors == 0, "\(report)")
        #expect(report.readErrors == 0, "connections closed by the server: \(report)")
        #expect(report.timeouts == 0, "requests unanswered after 1 s: \(report)")
        #expect(report.badAnswers == 0, "\(report)")
        #expect(report.slowest < 1, "\(report)")
        // Every client was answered many times over, at the machine's pace.
        #expect(report.requests >= 512 * 10, "\(report)")
        #expect(try await Self.closedByHeadTimeout(port: feedweb.port) == 0)
    }
}
