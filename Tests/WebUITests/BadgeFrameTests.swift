import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Upstream events ask the page streams for a frame only when the status they lead to
/// changes what the badge shows: reads and handled events on a live connection make no
/// frame at all; the connection's end makes one.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct BadgeFrameTests {
    @Test("reads and handled events on a live connection request no page frame; a backoff does")
    func onlyBadgeChangesRequestFrames() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 3))
        let handlers = server.handlers
        let pages = handlers.pageStreams
        let upstream = UpstreamStatusPublisher(source: "test")
        // The pages render the status the server reports: the fold of the same events.
        upstream.observe { _, status in server.setStatus { $0 = status } }
        upstream.observe { event, status in handlers.upstreamEventOccurred(event, status: status) }
        let loop = Task { await pages.run() }
        defer { loop.cancel() }
        // A page is open: with none, every request is held and makes no frame
        // (HeldPageFrameTests).
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        defer { page.close() }
        _ = try await page.expectNext("items")

        upstream.publish(.connecting)
        upstream.publish(.opened(at: Date()))
        try await Eventually.check("the frame for the live badge", within: 5) { pages.pacer.renderedFrames >= 1 }
        // Let any frame already asked for run out.
        try await Task.sleep(for: .milliseconds(200))
        let settled = pages.pacer.renderedFrames

        for _ in 0..<200 {
            upstream.publish(.received(bytes: 512))
            upstream.publish(.eventHandled(at: Date()))
            upstream.publish(.ignored(reason: "unknown event type"))
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(pages.pacer.renderedFrames == settled, "600 events that leave the badge live made frames")
        #expect(handlers.stats.totals().bytesReceived == 200 * 512, "every read is still counted for /stats")

        let now = Date()
        upstream.publish(.backingOff(until: now + 30, error: "upstream closed the connection", at: now))
        try await Eventually.check("a frame for the reconnecting badge", within: 5) {
            pages.pacer.renderedFrames > settled
        }
        #expect(pages.stream.broadcaster.state?.badge.kind == .reconnecting)
    }
}
