import FeedCore
import Foundation
import Testing
import WebUI

/// The once-a-second sweep that drops clients which took nothing for 5 s while events
/// waited: it reads the clock before it visits each stream, so a stream may have made
/// progress after that reading. Such a stream is not stalled.
@Suite struct StreamConnectionSweepTests {
    @Test func progressAfterTheSweepReadTheClockIsNotAStall() {
        let stream = StreamConnection(maxQueuedBytes: 1 << 20)
        // The sweep read its clock a moment before the bytes were queued.
        let sweepNow = MonotonicTime.now() - 2_000_000
        // Bytes queued after the sweep read its clock: waiting since a moment past `sweepNow`.
        #expect(stream.enqueue(Array("data: x\n\n".utf8)) == .queued)
        #expect(!stream.dropIfStalled(olderThan: 5_000_000_000, now: sweepNow), "a healthy stream is kept")
        #expect(stream.currentState == .open)
        #expect(stream.pendingBytes == 9)
    }

    @Test func bytesWaitingLongerThanTheLimitAreAStall() {
        let stream = StreamConnection(maxQueuedBytes: 1 << 20)
        #expect(stream.enqueue(Array("data: x\n\n".utf8)) == .queued)
        let later = MonotonicTime.now() + 6_000_000_000
        #expect(stream.dropIfStalled(olderThan: 5_000_000_000, now: later))
        #expect(stream.currentState == .dropped)
        #expect(stream.pendingBytes == 0, "the queue is freed at once")
    }

    @Test func aQueueThatWouldPassTheBoundDropsTheClient() {
        let stream = StreamConnection(maxQueuedBytes: 100)
        #expect(stream.enqueue([UInt8](repeating: 65, count: 60)) == .queued)
        #expect(stream.enqueue([UInt8](repeating: 66, count: 30)) == .queued)
        #expect(stream.enqueue([UInt8](repeating: 67, count: 20)) == .dropped, "90 + 20 passes 100")
        #expect(stream.pendingBytes == 0)
        #expect(stream.enqueue([UInt8](repeating: 68, count: 1)) == .notOpen)
    }
}
