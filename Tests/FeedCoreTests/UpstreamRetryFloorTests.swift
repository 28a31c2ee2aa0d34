import FeedCore
import Foundation
import TestSupport
import Testing

/// The retry floor over several reconnects: feedweb never reconnects sooner than the
/// `retry` upstream asked for (jitter only adds), each time, and follows a changed `retry`.
@Suite("Upstream connection: retry floor", .timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct UpstreamRetryFloorTests {
    @Test("five reconnects after retry: 300, then three after retry: 450: none sooner than asked")
    func neverSoonerThanRetry() async throws {
        // Each connection delivers an event (so the backoff resets) and ends.
        let short = (1...5).map { n in
            ScriptedSSEServer.Response.events(SSEText.event("data", data: Upstream.document(n), retry: 300))
        }
        let long = (6...8).map { n in
            ScriptedSSEServer.Response.events(SSEText.event("data", data: Upstream.document(n), retry: 450))
        }
        try await Upstream.run(
            short + long, then: .events(SSEText.comment(), ending: .stayOpen),
            options: .init(maxBackoff: .seconds(5))
        ) { server, upstream in
            let requests = try await server.waitForRequests(9, timeout: .seconds(20))
            let delays = upstream.announcedDelays.map(\.delay)
            try #require(delays.count >= 8, "\(delays)")
            // The announced delays: in [retry, 1.5 × retry], never below.
            for (index, delay) in delays.prefix(8).enumerated() {
                let retry = index < 5 ? 0.3 : 0.45
                #expect(delay >= retry - 0.0001 && delay <= retry * 1.5 + 0.0001, "delay \(index): \(delay)")
            }
            // And the requests really came no sooner: each gap at least the delay announced
            // before it (no upper bound: a busy machine may add any amount).
            let gaps = ScriptedSSEServer.gaps(between: requests).map(\.timeInterval)
            for (index, gap) in gaps.prefix(8).enumerated() {
                #expect(gap >= delays[index] - 0.005, "gap \(index): \(gap), announced \(delays[index])")
            }
        }
    }
}
