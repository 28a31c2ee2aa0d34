import FeedCore
import Foundation
import TestSupport
import Testing

/// What the upstream's events become, end to end through the real binary on a live
/// scripted upstream: `/stats` says why a patch was rejected.
@Suite(.serialized, .timeLimit(.minutes(2)))
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
}
