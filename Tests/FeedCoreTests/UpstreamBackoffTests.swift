import FeedCore
import Foundation
import TestSupport
import Testing

/// Timing: the delays the connection announces in its status (`backingOff(until:)`) are
/// checked exactly against the policy; the gaps between the requests the server records
/// are checked against them with generous bounds (never shorter than the announced delay,
/// never much longer). Announced delays are exact (`until − lastErrorAt`, both set by the
/// connection in one step); the bounds allow only for floating-point rounding.
@Suite("Upstream connection: retry, backoff, status codes", .serialized, .onThreadsOfItsOwn)
struct UpstreamBackoffTests {
    /// Generous slack for the time a reconnect takes beyond its delay on a busy machine.
    private static let slack: TimeInterval = 1.5

    private func seconds(_ duration: Duration) -> TimeInterval { duration.timeInterval }

    @Test("retry: sets the reconnect delay")
    func retryChangesDelay() async throws {
        try await Upstream.run(
            [
                .events(SSEText.event("data", data: Upstream.document(1), retry: 120)),
                .events(SSEText.comment(), ending: .stayOpen),
            ],
            options: .init(maxBackoff: .seconds(5))
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            let delay = try #require(upstream.announcedDelays.first?.delay)
            // 120 ms with jitter into [120, 180] ms, never sooner; without retry: it would be
            // at least 1 s.
            #expect(delay >= 0.1199 && delay <= 0.1801, "announced \(delay)")
            // It really waited (at least) the announced delay. No upper bound on the wall
            // clock: under CPU load scheduling may add any amount; the announced delay
            // above is the exact check.
            let gap = seconds(requests[1].receivedAt - requests[0].receivedAt)
            #expect(gap >= delay - 0.005, "gap \(gap), announced \(delay)")
        }
    }

    @Test("an absurd retry: is capped at max-backoff (no overflow)")
    func hugeRetry() async throws {
        try await Upstream.run(
            [
                .events("retry: 99999999999999999999999\n\n", SSEText.event("data", data: Upstream.document(1))),
                .status(503),
                .events(SSEText.comment(), ending: .stayOpen),
            ],
            options: .init(maxBackoff: .milliseconds(200))
        ) { server, upstream in
            try await server.waitForRequests(3)
            let delays = upstream.announcedDelays.map(\.delay)
            #expect(delays.count >= 2)
            // The cap, exactly: jitter never takes a delay past it.
            #expect(delays.allSatisfy { $0 >= 0.1999 && $0 <= 0.2001 }, "\(delays)")
        }
    }

    @Test("without retry: the first delay is the 1 s default, jittered upwards")
    func defaultRetry() async throws {
        try await Upstream.run(
            [
                .events(SSEText.event("data", data: Upstream.document(1))),
                .events(SSEText.comment(), ending: .stayOpen),
            ],
            options: .init(maxBackoff: .seconds(5))
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            let delay = try #require(upstream.announcedDelays.first?.delay)
            #expect(delay >= 0.9999 && delay <= 1.5001, "announced \(delay)")
            let gap = seconds(requests[1].receivedAt - requests[0].receivedAt)
            #expect(gap >= 0.999 && gap < 1.5 + Self.slack, "gap \(gap)")
        }
    }

    @Test("backoff doubles per failed attempt and is capped at max-backoff")
    func backoffGrowsAndIsCapped() async throws {
        // A retry: line without an event sets the base to 50 ms but delivers nothing, then
        // every attempt fails with 503: nominal delays 50, 100, 200, 400 (cap), 400, 400.
        try await Upstream.run(
            [.events(SSEText.retry(50))], then: .status(503),
            options: .init(maxBackoff: .milliseconds(400))
        ) { server, upstream in
            let requests = try await server.waitForRequests(7, timeout: .seconds(10))
            let delays = upstream.announcedDelays.prefix(6).map(\.delay)
            try #require(delays.count == 6)
            let nominal = [0.05, 0.1, 0.2, 0.4, 0.4, 0.4]
            for (delay, expected) in zip(delays, nominal) {
                #expect(delay >= expected - 0.0001 && delay <= min(expected * 1.5, 0.4) + 0.0001, "announced \(delays)")
            }
            let gaps = ScriptedSSEServer.gaps(between: Array(requests.prefix(7))).map(seconds)
            for (index, gap) in gaps.enumerated() {
                #expect(gap >= delays[index] - 0.002, "gap \(index): \(gaps) vs \(delays)")
                #expect(gap < nominal[index] * 1.5 + Self.slack, "gap \(index): \(gaps)")
            }
            // Grown: the capped gaps are each longer than the first two together could be.
            #expect(gaps[3...].allSatisfy { $0 >= 0.199 }, "\(gaps)")
            #expect(upstream.status.reconnects >= 6)
            #expect(upstream.status.lastError == "upstream answered HTTP 503")
        }
    }

    @Test("backoff resets after a connection that delivered an event")
    func backoffResets() async throws {
        try await Upstream.run(
            [
                .events(SSEText.retry(50)), .status(503), .status(503), .status(503),
                .events(SSEText.event("data", data: Upstream.document(1))),
                .status(503),
                .events(SSEText.comment(), ending: .stayOpen),
            ],
            options: .init(maxBackoff: .milliseconds(400))
        ) { server, upstream in
            try await server.waitForRequests(7, timeout: .seconds(10))
            let delays = upstream.announcedDelays.map(\.delay)
            try #require(delays.count >= 6)
            // Grown to the cap by the failures…
            #expect(delays[3] >= 0.199, "\(delays)")
            // … then back to the base after the connection that delivered the document …
            #expect(delays[4] >= 0.0499 && delays[4] <= 0.0751, "\(delays)")
            // … and growing again from there.
            #expect(delays[5] >= 0.0999 && delays[5] <= 0.1501, "\(delays)")
        }
    }

    @Test("a connection that only sent a rejected event does not reset the backoff")
    func rejectionDoesNotReset() async throws {
        let bad = SSEText.event("patch", data: "not a patch")
        try await Upstream.run(
            [.events(SSEText.retry(50)), .events(bad), .events(bad), .events(bad)],
            then: .events(SSEText.comment(), ending: .stayOpen),
            options: .init(maxBackoff: .milliseconds(400))
        ) { server, upstream in
            try await server.waitForRequests(5, timeout: .seconds(10))
            let delays = upstream.announcedDelays.map(\.delay)
            try #require(delays.count >= 4)
            #expect(delays[3] >= 0.199, "\(delays)")
            #expect(upstream.status.rejectedPatches == 3)
        }
    }

    @Test("204: upstream asked to stop; wait the max backoff, show it, and keep trying")
    func noContent() async throws {
        try await Upstream.run(
            [.status(204), .status(204)],
            then: .events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen),
            options: .init(maxBackoff: .milliseconds(400))
        ) { server, upstream in
            let stopped = try await upstream.waitForStatus("stopped by upstream") {
                if case .stoppedByUpstream = $0.phase { return true }
                return false
            }
            #expect(stopped.lastError?.contains("204") == true)
            #expect(!stopped.isConnected)
            let requests = try await server.waitForRequests(3, timeout: .seconds(5))
            let delays = upstream.announcedDelays
            try #require(delays.count >= 2)
            for (delay, wasStop) in delays.prefix(2) {
                #expect(wasStop)
                #expect(abs(delay - 0.4) < 0.002, "\(delays)")
            }
            for gap in ScriptedSSEServer.gaps(between: requests).map(seconds) {
                #expect(gap >= 0.398 && gap < 0.4 + Self.slack, "gap \(gap)")
            }
            try await upstream.waitUntil("the document") { upstream.document != nil }
            try await upstream.waitForStatus("open") { $0.phase == .open }
        }
    }

    @Test("a non-2xx answer is an error in the status, then a retry", arguments: [500, 404, 401, 403, 503, 400, 502])
    func non2xx(code: Int) async throws {
        let began = Date()
        try await Upstream.run(
            [.status(code, body: "nope")],
            then: .events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen)
        ) { server, upstream in
            try await server.waitForRequests(2)
            try await upstream.waitUntil("the document") { upstream.document != nil }
            let status = upstream.status
            // The status, then what the (plain-text) body says (UpstreamAnswerReasonTests).
            #expect(status.lastError == "upstream answered HTTP \(code): nope")
            let lastErrorAt = try #require(status.lastErrorAt)
            #expect(lastErrorAt > began && lastErrorAt <= Date(), "the error's time is this test's")
            #expect(status.reconnects == 1)
            #expect(Array(upstream.phaseNames.prefix(4)) == ["connecting", "backingOff", "connecting", "open"])
        }
    }

    @Test(
        "a Content-Type other than text/event-stream or a JSON stream's is an error, then a retry",
        arguments: ["text/plain", nil, "text/event-streams", "text/html; charset=utf-8", "application/xml"]
            as [String?])
    func wrongContentType(contentType: String?) async throws {
        let wrong = SSEText.event("data", data: Upstream.document(1, marker: "wrong"))
        try await Upstream.run(
            [.stream([.text(wrong)], contentType: contentType)],
            then: .events(SSEText.event("data", data: Upstream.document(2, marker: "right")), ending: .stayOpen)
        ) { server, upstream in
            try await server.waitForRequests(2)
            try await upstream.waitUntil("the document, observed") { !upstream.acceptedDocuments.isEmpty }
            #expect(upstream.status.lastError?.contains("Content-Type") == true)
            #expect(upstream.acceptedDocuments.map { $0["marker"] } == [.string("right")])
        }
    }

    @Test(
        "text/event-stream is recognised in any case and with parameters",
        arguments: [
            "text/event-stream", "Text/Event-Stream", "text/event-stream;charset=UTF-8", "text/event-stream ; x=y",
        ])
    func rightContentType(contentType: String) async throws {
        try await Upstream.run(
            [
                .stream(
                    [.text(SSEText.event("data", data: Upstream.document(1)))], ending: .stayOpen,
                    contentType: contentType)
            ]
        ) { _, upstream in
            try await upstream.waitUntil("the document") { upstream.document != nil }
            #expect(upstream.status.lastError == nil)
        }
    }

    @Test("the end of the stream and a dropped connection both lead to a reconnect")
    func reconnectAfterEnd() async throws {
        try await Upstream.run(
            [
                .events(SSEText.event("data", data: Upstream.document(1), id: "1", retry: 50), ending: .close),
                .events(SSEText.event("patch", data: Upstream.setVersion(2), id: "2"), ending: .abort),
                .events(SSEText.comment(), ending: .stayOpen),
            ]
        ) { server, upstream in
            let requests = try await server.waitForRequests(3)
            #expect(requests[2].header("Last-Event-ID") == "2")
            #expect(Upstream.version(upstream.document) == 2)
            #expect(upstream.status.reconnects == 2)
        }
    }
}
