import FeedCore
import Foundation
import TestSupport
import Testing

@testable import FeedCore

/// What an upstream's answer asks feedweb to wait (``RetryAfter``), and that the next
/// request waits it, over real sockets: an SSE feed answered 429, a polled API answered 503,
/// and a poll that spent the last request of its rate limit.
@Suite("Retry-After", .timeLimit(.minutes(1)))
struct RetryAfterTests {
    /// 2026-12-04 23:00:00 UTC.
    static let now = WallTime(microseconds: 1_796_425_200 * 1_000_000)

    static func asked(_ status: Int, _ headers: [(String, String)]) -> (wait: Duration, header: String)? {
        RetryAfter.asked(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, now: now)
    }

    @Test("an HTTP date: IMF-fixdate only, checked field by field")
    func httpDates() {
        #expect(WallTime(httpDate: "Fri, 04 Dec 2026 23:00:00 GMT") == Self.now)
        #expect(WallTime(httpDate: "Sun, 06 Nov 1994 08:49:37 GMT") == WallTime(microseconds: 784_111_777_000_000))
        for text in [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:49:37 GMT",
            "Sun, 06 Nov 1994 08:49 GMT", "", "120",
        ] {
            #expect(WallTime(httpDate: text) == nil, "\(text)")
        }
    }

    @Test("Retry-After in seconds or as a date, on an answer that is not 2xx; at most an hour")
    func retryAfter() {
        #expect(Self.asked(429, [("Retry-After", "120")])?.wait == .seconds(120))
        #expect(Self.asked(503, [("retry-after", " 7 ")])?.header == "Retry-After")
        #expect(Self.asked(503, [("Retry-After", "Fri, 04 Dec 2026 23:01:30 GMT")])?.wait == .seconds(90))
        #expect(Self.asked(503, [("Retry-After", "Fri, 04 Dec 2026 22:59:00 GMT")]) == nil, "a time past")
        #expect(Self.asked(429, [("Retry-After", "86400")])?.wait == .seconds(3600), "an hour at most")
        #expect(Self.asked(429, [("Retry-After", "0")]) == nil)
        #expect(Self.asked(429, [("Retry-After", "-5")]) == nil)
        #expect(Self.asked(429, [("Retry-After", "soon")]) == nil)
        #expect(Self.asked(200, [("Retry-After", "120")]) == nil, "a 2xx answer is no refusal")
        #expect(Self.asked(429, []) == nil)
    }

    @Test("a rate limit spent: GitHub's reset as a time, the IETF draft's as seconds; the longer ask wins")
    func rateLimits() {
        let github = [("X-RateLimit-Limit", "60"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1796425500")]
        #expect(Self.asked(403, github)?.wait == .seconds(300))
        #expect(Self.asked(200, github)?.header == "X-RateLimit-Reset", "the poll that spent the last request")
        #expect(Self.asked(200, [("X-RateLimit-Remaining", "3"), ("X-RateLimit-Reset", "1796425500")]) == nil)
        #expect(Self.asked(429, [("RateLimit-Remaining", "0"), ("RateLimit-Reset", "42")])?.wait == .seconds(42))
        let both = Self.asked(429, github + [("Retry-After", "30")])
        #expect(both?.wait == .seconds(300) && both?.header == "X-RateLimit-Reset")
        #expect(Self.asked(403, [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1796425000")]) == nil)
    }

    @Test("GitHub's X-Poll-Interval, on any answer: polls no more often than it says")
    func pollInterval() {
        #expect(Self.asked(200, [("X-Poll-Interval", "60")])?.wait == .seconds(60))
        #expect(Self.asked(304, [("x-poll-interval", "60")])?.header == "X-Poll-Interval")
        #expect(Self.asked(200, [("X-Poll-Interval", "0")]) == nil)
        #expect(Self.asked(200, [("X-Poll-Interval", "often")]) == nil)
        #expect(Self.asked(429, [("X-Poll-Interval", "60"), ("Retry-After", "120")])?.header == "Retry-After")
    }

    @Test("an SSE feed answered 429 with Retry-After: the next request waits it, past --max-backoff")
    func sseWaits() async throws {
        try await Upstream.run(
            [
                .status(429, headers: [("Retry-After", "2")], body: "slow down"),
                .events(SSEText.event("data", data: #"{"n":1}"#), ending: .stayOpen),
            ], options: .init(maxBackoff: .milliseconds(300))
        ) { server, upstream in
            let requests = try await server.waitForRequests(2, timeout: .seconds(10))
            let waited = requests[1].receivedAt - requests[0].receivedAt
            #expect(waited >= .seconds(2), "\(waited)")
            try await upstream.waitUntil("the document") { upstream.document?["n"] == .int(1) }
        }
    }

    @Test("a polled API: 503 with a Retry-After date waits it; a poll that spent the rate limit waits for its reset")
    func pollWaits() async throws {
        let reset = String(Int(Date().timeIntervalSince1970) + 3)
        let server = try await ScriptedSSEServer.start(script: [
            .status(
                503, headers: [("Retry-After", Self.httpDate(secondsFromNow: 2))], body: "maintenance"),
            .status(
                200,
                headers: [
                    ("Content-Type", "application/json"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", reset),
                ], body: #"{"n":1}"#),
            .status(200, headers: [("Content-Type", "application/json")], body: #"{"n":2}"#),
        ])
        defer { server.shutdownNow() }
        let harness = try UpstreamHarness(
            configuration: .init(url: server.url("/api"), maxBackoff: .milliseconds(200)),
            kind: .poll(interval: .milliseconds(100)))
        harness.start()
        let requests = try await server.waitForRequests(3, timeout: .seconds(15))
        _ = await harness.stop()
        // The date is whole seconds: at least 1 s of the 2 asked is left when it is read.
        #expect(requests[1].receivedAt - requests[0].receivedAt >= .seconds(1))
        #expect(requests[2].receivedAt - requests[1].receivedAt >= .seconds(1), "not at the 100 ms interval")
    }

    /// An HTTP date `seconds` from now, whole seconds.
    static func httpDate(secondsFromNow seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date().addingTimeInterval(Double(seconds)))
    }
}
