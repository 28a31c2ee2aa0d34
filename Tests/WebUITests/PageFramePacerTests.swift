import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import WebUI

/// Page streams are rendered in frames: a request on an idle pacer is served at once, a
/// second right after it too (the burst), all requests after that within a frame interval
/// make one more frame, and cancelling ends the loop.
@Suite struct PageFramePacerTests {
    @Test func requestsWithinOneIntervalMakeOneFrameAfterTheBurst() async throws {
        let pacer = PageFramePacer(interval: .milliseconds(300))
        let renders = NIOLockedValueBox(0)
        let loop = Task { await pacer.run { renders.withLockedValue { $0 += 1 } } }
        let first = ContinuousClock.now
        pacer.request()
        try await Eventually.check("the first frame, at once", within: 5) { renders.withLockedValue { $0 } == 1 }
        pacer.request()
        try await Eventually.check("a second frame right after it, within the burst", within: 5) {
            renders.withLockedValue { $0 } == 2
        }
        // A burst of requests after those: far fewer than one frame per request.
        for _ in 0..<1000 { pacer.request() }
        try await Eventually.check("the requests' frame", within: 5) { renders.withLockedValue { $0 } == 3 }
        #expect(ContinuousClock.now - first >= .milliseconds(300), "no sooner than one interval after the first")
        #expect(renders.withLockedValue { $0 } == 3, "1,000 requests, one frame")
        #expect(pacer.renderedFrames == 3)
        loop.cancel()
        await loop.value
    }

    @Test func cancellingEndsAnIdleLoop() async throws {
        let pacer = PageFramePacer(interval: .milliseconds(50))
        let loop = Task { await pacer.run {} }
        let ended = NIOLockedValueBox(false)
        Task {
            await loop.value
            ended.withLockedValue { $0 = true }
        }
        loop.cancel()
        try await Eventually.check("the loop to end", within: 5) { ended.withLockedValue { $0 } }
        #expect(pacer.renderedFrames == 0)
    }
}
