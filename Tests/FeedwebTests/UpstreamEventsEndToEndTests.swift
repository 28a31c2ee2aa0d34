import FeedCore
import Foundation
import TestSupport
import Testing

/// What the upstream's events become, end to end through the real binary on a live
/// scripted upstream: `/stats` says why a patch was rejected, and the page streams carry
/// the status badge only when what it shows changed.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct UpstreamEventsEndToEndTests {
    /// The `rejected-patch` entries of `/api/stats`'s notable events.
    static func rejectedPatchEvents(port: UInt16) async throws -> [JSONValue] {
        let response = try await HTTPTestClient.get(port: port, "/api/stats", timeout: 5)
        let stats = try JSONValue(parsing: response.body)
        guard case .array(let events)? = stats["events"] else { return [] }
        return events.filter { $0["kind"]?.stringValue == "rejected-patch" }
    }

    @Test("a rejected patch's reason is in the notable events of /api/stats and /stats")
    func rejectedPatchReasonReachesStats() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        try await upstream.server.push(
            bytes: SSEEncoder.event(type: "patch", data: #"[{"op":"frobnicate","path":"/num_results"}]"#))

        // Notable events are listed once their five-second window is complete.
        let rejected = try await Eventually.value(
            "the rejected patch in /api/stats", within: 15, poll: .milliseconds(250)
        ) { () -> [JSONValue]? in
            let events = try await Self.rejectedPatchEvents(port: feedweb.port)
            return events.isEmpty ? nil : events
        }
        #expect(rejected.count == 1)
        let detail = try #require(rejected.first?["detail"]?.stringValue, "the rejected patch has a detail")
        #expect(detail.contains("unknown op \"frobnicate\""), "\(detail)")

        let page = try await HTTPTestClient.get(port: feedweb.port, "/stats", timeout: 5)
        #expect(page.status == 200)
        let entry = try #require(
            page.text.components(separatedBy: "<li class=\"notable-rejected-patch\">").dropFirst().first?
                .components(separatedBy: "</li>").first, "/stats lists the rejected patch")
        #expect(
            entry.contains("notable-detail") && entry.contains("unknown op") && entry.contains("frobnicate"), "\(entry)"
        )
        // The state is kept and upstream's snapshot brought it back in line.
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        await upstream.shutdown()
    }

    @Test("page streams get no status event for upstream reads that leave the badge as it is, and one on a disconnect")
    func badgeIsRepublishedOnlyWhenItChanges() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        let page = try await SSETestClient(port: feedweb.port, path: "/events/page?view=list")
        #expect(page.status == 200)
        let initial = try await page.events(untilQuietFor: 0.5)
        let initialStatus = try #require(initial.last { $0.type == "status" }, "\(initial.map(\.type))")
        #expect(initialStatus.data.contains("Live"))

        // Forty separate reads: comments (heartbeats) and unknown events, each its own
        // TCP segment, none of which changes what the badge shows.
        let before = try await Self.bytesReceived(port: feedweb.port)
        var sent = 0
        for n in 0..<40 {
            let text = n.isMultiple(of: 2) ? SSEText.comment("keep-alive \(n)") : SSEText.event("novelty", data: "\(n)")
            try await upstream.server.push(text)
            sent += text.utf8.count
            try await Task.sleep(for: .milliseconds(25))
        }
        try await Eventually.check("feedweb to have read every byte", within: 5) {
            try await Self.bytesReceived(port: feedweb.port) >= before + sent
        }
        // Well past a frame (50 ms) and the once-a-second timer.
        let quiet = try await page.events(for: 1.5)
        #expect(quiet.filter { $0.type == "status" }.isEmpty, "status re-sent: \(quiet.map(\.data))")
        #expect(quiet.isEmpty, "\(quiet.map(\.type))")

        // Upstream goes away: the badge turns to reconnecting, and the pages are told.
        await upstream.shutdown()
        let changed = try await page.next(type: "status", within: 5)
        #expect(changed.data.contains("Reconnecting"), "\(changed.data)")
    }

    static func bytesReceived(port: UInt16) async throws -> Int {
        let readiness = try await FeedwebProbe.readiness(port: port)
        return Int(try #require(readiness.body["upstream"]?["bytes_received"]?.int64Value))
    }
}
