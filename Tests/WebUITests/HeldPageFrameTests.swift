import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// While no page stream is open, frame requests are held: nothing is rendered and the
/// frame loop is not woken. The first page stream to open starts from the newest state,
/// and the frames of later changes reach it.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct HeldPageFrameTests {
    @Test("with no page stream open, changes make no frame; the first one opened starts from the newest state")
    func framesWaitForAPageStream() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 3))
        let pages = server.handlers.pageStreams
        let loop = Task { await pages.run() }
        defer { loop.cancel() }

        // Changes asked frames for, as the fan-out stage does, with nobody watching.
        for version: Int64 in 6...8 {
            server.store.replaceDocument(
                NewswireFeed.document(stories: [Int(version) + 10, 4, 3, 2, 1], version: version))
            pages.requestFrame()
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(pages.pacer.renderedFrames == 0, "three requests with no page stream open rendered a frame")
        let published = try #require(server.store.snapshot?.published.id)
        #expect(pages.stream.broadcaster.state?.view?.id != published, "the page streams' state moved with no frame")

        // The first page stream gets the newest state, not the one before the held frames.
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        defer { page.close() }
        let first = try await page.expectNext("items")
        #expect(first.data.contains("Story number 18"), "the newest story is in the first event")
        #expect(!first.data.contains("Story number 0"), "a story the held changes removed is not")
        #expect(pages.stream.broadcaster.state?.view?.id == published)

        // A change now is rendered by the loop and reaches the open page stream.
        server.store.replaceDocument(NewswireFeed.document(stories: [19, 18, 4, 3, 2], version: 9))
        pages.requestFrame()
        let next = try await page.next(type: "items", within: 5)
        #expect(next.data.contains("Story number 19"))
        // The loop counts a frame once it is published, after its events may have arrived.
        try await Eventually.check("the loop counted the frame it rendered", within: 5) {
            pages.pacer.renderedFrames >= 1
        }
    }
}
