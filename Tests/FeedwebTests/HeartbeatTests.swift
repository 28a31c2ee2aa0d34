import FeedCore
import Foundation
import TestSupport
import Testing

/// `/events` keeps a quiet stream alive with a comment heartbeat every 15 s (the contract's
/// interval), through the real binary with its default options.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct HeartbeatTests {
    /// The comment lines (`: …`) in raw SSE bytes; comments are not events, so the parser
    /// never reports them.
    static func comments(in bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init).filter {
            $0.hasPrefix(":")
        }
    }

    @Test("a quiet /events stream gets its first comment heartbeat about 15 s after start, not before")
    func defaultHeartbeatComesEvery15Seconds() async throws {
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [2, 1]))
        // feedweb's heartbeat clock starts after this instant, so no heartbeat can come
        // before `launched + 15 s`.
        let launched = ContinuousClock.now
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url])
        defer { feedweb.kill() }
        let listening = ContinuousClock.now
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        let client = try await SSETestClient(port: feedweb.port)
        try await client.expectNext("data")

        // The feed stays quiet: nothing at all until 14 s after launch.
        let quietUntil = launched + .seconds(14)
        let early = try await client.events(for: (quietUntil - ContinuousClock.now).timeInterval)
        #expect(early.isEmpty, "the feed is quiet: \(early.map(\.type))")
        #expect(
            Self.comments(in: client.received).isEmpty,
            "a heartbeat before 14 s: \(String(decoding: client.received.suffix(200), as: UTF8.self))")

        // By 20 s after feedweb said it listens, a comment has come, and still no event.
        var late: [SSEEvent] = []
        let heartbeat = try await Eventually.value("a heartbeat comment", within: 21) { () -> String? in
            late += try await client.events(for: 0.25)
            return Self.comments(in: client.received).first
        }
        let arrived = ContinuousClock.now
        #expect(late.isEmpty, "a comment is not an event: \(late.map(\.type))")
        #expect(arrived - listening < .seconds(20), "the heartbeat came \(arrived - listening) after start")
        #expect(arrived - launched > .seconds(14))
        #expect(Self.comments(in: client.received).count == 1, "one heartbeat: \(heartbeat)")
        await upstream.shutdown()
    }
}
