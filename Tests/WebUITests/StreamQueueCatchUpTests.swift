import FeedCore
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import WebUI

/// A client too far behind is caught up in place of being dropped: its unsent queue is
/// replaced by one event with the newest state, keeping the rest of an event already
/// partly sent (so the stream stays well-formed), without resetting the stall clock.
/// Without a socket: the stream's queue is read as libmicrohttpd's content reader reads it.
@Suite struct StreamQueueCatchUpTests {
    /// `count` copies of `byte`: one queued event.
    static func event(_ byte: Character, _ count: Int) -> [UInt8] {
        [UInt8](repeating: byte.asciiValue ?? 0, count: count)
    }

    /// Takes at most `capacity` queued bytes, as libmicrohttpd's content reader does.
    static func read(_ stream: StreamConnection, capacity: Int) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: capacity)
        let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, capacity: capacity) }
        return buffer.prefix(max(0, count)).map { UInt8(bitPattern: $0) }
    }

    @Test func theRestOfAPartlySentEventIsKeptAndTheBacklogReplaced() {
        let stream = StreamConnection(maxQueuedBytes: 100)
        let (a, b, c) = (Self.event("a", 40), Self.event("b", 30), Self.event("c", 20))
        for bytes in [a, b, c] { #expect(stream.enqueue(bytes) == .queued) }
        #expect(Self.read(stream, capacity: 10) == Array(a.prefix(10)), "10 bytes of the first event went out")
        #expect(stream.pendingBytes == 80)

        // The next event would pass the bound: reported, nothing queued, still open.
        #expect(stream.enqueue(Self.event("d", 21), whenFull: .report) == .full)
        #expect(stream.currentState == .open)
        #expect(stream.pendingBytes == 80)

        let fresh = Self.event("F", 25)
        #expect(stream.catchUp(with: fresh))
        #expect(stream.pendingBytes == 30 + 25, "the first event's last 30 bytes, then the fresh one")
        #expect(Self.read(stream, capacity: 1000) == Array(a.dropFirst(10)) + fresh, "b and c are gone")
        #expect(stream.pendingBytes == 0)
        #expect(stream.currentState == .open)
    }

    @Test func withNothingPartlySentTheWholeQueueIsReplaced() {
        let stream = StreamConnection(maxQueuedBytes: 100)
        let (a, b, c) = (Self.event("a", 40), Self.event("b", 30), Self.event("c", 20))
        for bytes in [a, b, c] { #expect(stream.enqueue(bytes) == .queued) }
        // The first event went out whole: nothing is partly sent.
        #expect(Self.read(stream, capacity: 40) == a)

        let fresh = Self.event("F", 25)
        #expect(stream.catchUp(with: fresh))
        #expect(stream.pendingBytes == 25)
        #expect(Self.read(stream, capacity: 1000) == fresh)
    }

    @Test func aFreshEventLargerThanTheBoundIsQueuedWhole() {
        let stream = StreamConnection(maxQueuedBytes: 100)
        #expect(stream.enqueue(Self.event("a", 90)) == .queued)
        let fresh = Self.event("F", 150)
        #expect(stream.catchUp(with: fresh), "the newest state always fits, as one event on an empty queue does")
        #expect(stream.pendingBytes == 150)
        #expect(Self.read(stream, capacity: 1000) == fresh)
    }

    @Test func catchingUpDoesNotResetTheStallClock() async throws {
        let stream = StreamConnection(maxQueuedBytes: 100)
        #expect(stream.enqueue(Self.event("a", 90)) == .queued)
        let queuedBy = MonotonicTime.now()
        // Let the clock move on (bounded), then catch up.
        try await Eventually.check("the clock to move 100 ms", within: 5, poll: .milliseconds(10)) {
            MonotonicTime.now() > queuedBy + 100_000_000
        }
        #expect(stream.catchUp(with: Self.event("F", 50)))
        let now = MonotonicTime.now()
        // Waiting since the first bytes (no later than `queuedBy`): more than `limit` ago.
        // Had the catch-up restarted the wait, it would be at most `limit - 50 ms` ago.
        let limit = now - queuedBy - 50_000_000
        #expect(stream.dropIfStalled(olderThan: limit, now: now), "the wait counts from before the catch-up")
        #expect(stream.currentState == .dropped)
    }

    @Test func aStreamThatIsClosingOrGoneIsNotCaughtUp() {
        let closing = StreamConnection(maxQueuedBytes: 100)
        #expect(closing.enqueue(Self.event("a", 90)) == .queued)
        closing.close()
        #expect(closing.enqueue(Self.event("b", 20), whenFull: .report) == .notOpen)
        #expect(!closing.catchUp(with: Self.event("F", 10)))
        #expect(closing.pendingBytes == 90, "what was queued before the close is still sent")

        let dropped = StreamConnection(maxQueuedBytes: 100)
        #expect(dropped.enqueue(Self.event("a", 90)) == .queued)
        #expect(dropped.enqueue(Self.event("b", 20)) == .dropped)
        #expect(!dropped.catchUp(with: Self.event("F", 10)))
        #expect(dropped.pendingBytes == 0)
    }

    /// The broadcaster: a client the new bytes do not fit gets the catch-up event,
    /// computed once per channel, counted; a client they fit gets them; nobody is dropped.
    @Test func aPublishCatchesUpEveryClientTooFarBehindWithOneEventPerChannel() {
        let broadcaster = Broadcaster<String, Int>(initial: 0)
        let behind = [StreamConnection(maxQueuedBytes: 100), StreamConnection(maxQueuedBytes: 100)]
        let roomy = StreamConnection(maxQueuedBytes: 10_000)
        for stream in behind + [roomy] {
            broadcaster.subscribe(stream, to: "all") { _ in [Self.event("a", 90)] }
        }
        let made = NIOLockedValueBox(0)
        broadcaster.publish(
            1, encode: { _, _ in Self.event("p", 20) },
            catchUp: { channel, state in
                made.withLockedValue { $0 += 1 }
                return Self.event("F", 30 + state)
            })
        #expect(made.withLockedValue { $0 } == 1, "the catch-up event is made once for the channel")
        for stream in behind {
            #expect(stream.currentState == .open)
            #expect(Self.read(stream, capacity: 1000) == Self.event("F", 31))
        }
        #expect(Self.read(roomy, capacity: 1000) == Self.event("a", 90) + Self.event("p", 20))
        let traffic = broadcaster.traffic
        #expect(traffic.catchUps == 2)
        #expect(traffic.droppedClients == 0)

        // Without a catch-up, a client the bytes do not fit is dropped.
        let full = StreamConnection(maxQueuedBytes: 100)
        broadcaster.subscribe(full, to: "all") { _ in [Self.event("a", 90)] }
        broadcaster.publish(2) { _, _ in Self.event("p", 20) }
        #expect(full.currentState == .dropped)
        #expect(broadcaster.traffic.droppedClients == 1)
    }
}
