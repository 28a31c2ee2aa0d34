import FeedCore
import Foundation
import TestSupport
import Testing

/// The upstream status is the fold of the source's events: ``UpstreamStatus/apply(_:)``
/// alone, and the events a real connection publishes against a scripted upstream.
@Suite("Upstream status: the fold of the upstream events", .serialized, .onThreadsOfItsOwn)
struct UpstreamStatusFoldTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    /// A connection's life: open, reads, events of every kind, a rejected patch, a
    /// backoff, a reconnect, a 204, and the end.
    static let life: [UpstreamEvent] = [
        .connecting,
        .opened(at: at(1)),
        .received(bytes: 100),
        .eventHandled(at: at(2)),
        .received(bytes: 50),
        .upstreamError(message: "upstream is tired"),
        .eventHandled(at: at(3)),
        .ignored(reason: "unknown event type"),
        .eventHandled(at: at(4)),
        .rejected(reason: "unknown op \"frobnicate\""),
        .eventHandled(at: at(5)),
        .backingOff(until: at(7), error: "resynchronising", at: at(5)),
        .reconnecting(reason: "resynchronising"),
        .opened(at: at(8)),
        .received(bytes: 7),
        .stoppedByUpstream(until: at(40), error: "upstream answered 204", at: at(10)),
        .reconnecting(reason: "upstream answered 204"),
        .stopped,
    ]

    static func fold(_ events: some Sequence<UpstreamEvent>, source: String = "test") -> UpstreamStatus {
        var status = UpstreamStatus(source: source)
        for event in events { status.apply(event) }
        return status
    }

    @Test("folding a connection's events gives the phase, times and counters they describe")
    func foldOverALife() {
        let open = Self.fold(Self.life.prefix(2))
        #expect(open.phase == .open)
        #expect(open.isConnected)
        #expect(open.connectedSince == Self.at(1))
        #expect(open.eventsReceived == 0)

        let rejected = Self.fold(Self.life.prefix(11))
        #expect(rejected.phase == .open)
        #expect(rejected.bytesReceived == 150)
        #expect(rejected.eventsReceived == 4)
        #expect(rejected.lastEventAt == Self.at(5))
        #expect(rejected.upstreamErrors == 1)
        #expect(rejected.lastUpstreamError == "upstream is tired")
        #expect(rejected.ignoredEvents == 1)
        #expect(rejected.rejectedPatches == 1)
        #expect(rejected.lastError == nil)

        let backingOff = Self.fold(Self.life.prefix(12))
        #expect(backingOff.phase == .backingOff(until: Self.at(7)))
        #expect(backingOff.lastError == "resynchronising")
        #expect(backingOff.lastErrorAt == Self.at(5))
        #expect(backingOff.connectedSince == nil)
        #expect(backingOff.reconnects == 0)

        let reopened = Self.fold(Self.life.prefix(14))
        #expect(reopened.phase == .open)
        #expect(reopened.reconnects == 1)
        #expect(reopened.connectedSince == Self.at(8))
        #expect(reopened.lastError == "resynchronising", "the last error stays until the next one")

        let stoppedByUpstream = Self.fold(Self.life.prefix(16))
        #expect(stoppedByUpstream.phase == .stoppedByUpstream(until: Self.at(40)))
        #expect(stoppedByUpstream.lastError == "upstream answered 204")

        let end = Self.fold(Self.life)
        #expect(end.phase == .stopped)
        #expect(end.connectedSince == nil)
        #expect(end.reconnects == 2)
        #expect(end.bytesReceived == 157)
        #expect(end.eventsReceived == 4)
        #expect(end.lastEventAt == Self.at(5))
        #expect(end.rejectedPatches == 1)
        #expect(end.source == "test")
    }

    @Test("after every event, connectedSince is set exactly while the phase is open")
    func connectedSinceFollowsThePhase() {
        var status = UpstreamStatus(source: "test")
        for (index, event) in Self.life.enumerated() {
            status.apply(event)
            #expect((status.connectedSince != nil) == status.isConnected, "after event \(index): \(event)")
        }
    }

    @Test("a real connection's events fold to its status, and the rejected patch's event carries the reason")
    func connectionEventsFoldToItsStatus() async throws {
        try await Upstream.run(
            [
                .stream(
                    [
                        .text(SSEText.event("data", data: Upstream.document(1), id: "f-1", retry: 50)),
                        .text(SSEText.comment("keep-alive")),
                        .text(SSEText.event("error", data: "upstream is tired")),
                        .text(SSEText.event("novelty", data: "{}")),
                        .text(SSEText.event("patch", data: #"[{"op":"frobnicate","path":"/a"}]"#, id: "f-2")),
                    ], ending: .stayOpen),
                .events(SSEText.event("data", data: Upstream.document(3)), ending: .stayOpen),
            ]
        ) { server, upstream in
            try await upstream.waitUntil("the second document") { Upstream.version(upstream.document) == 3 }
            try await upstream.waitForStatus("the five events handled") { $0.eventsReceived == 5 }
            // The status is folded before the observers hear of the event: wait for the log
            // to catch up, then the two must agree.
            try await upstream.waitUntil("the events folded to equal the status", timeout: .seconds(5)) {
                Self.fold(upstream.events, source: upstream.status.source) == upstream.status
            }
            let events = upstream.events
            // Events that arrive in one read are handled, and announced, together.
            let handled = events.reduce(0) { sum, event in
                if case .eventHandled(let count, _) = event { sum + count } else { sum }
            }
            #expect(handled == 5)
            let reasons = events.compactMap { event -> String? in
                if case .rejected(let reason) = event { return reason }
                return nil
            }
            #expect(reasons.count == 1)
            #expect(reasons.first?.contains("unknown op \"frobnicate\"") == true, "\(reasons)")
            let reconnects = events.compactMap { event -> String?? in
                if case .reconnecting(let reason) = event { return reason }
                return nil
            }
            #expect(reconnects.count == 1)
            #expect(reconnects.first??.contains("frobnicate") == true, "the reconnect says what ended the connection")
            #expect(events.first == .connecting)
            #expect(events.contains(.upstreamError(message: "upstream is tired")))
            #expect(events.contains { if case .ignored = $0 { true } else { false } })
        }
    }
}
