import Foundation
import TestSupport
import Testing

@testable import FeedCore

/// The queue between the upstream reader and the committer: in order, everything waiting
/// taken at once, bounded, and ended from either side without leaving anyone waiting.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct UpstreamReadQueueTests {
    static func read(_ n: Int, bytes: Int = 10) -> UpstreamReadQueue.Read {
        let event = SSEEvent(type: "message", data: "{\"n\":\(n)}", id: "\(n)")
        return UpstreamReadQueue.Read(
            events: [(event, .ignore(reason: "test", counted: false))], lastEventID: "\(n)", reconnectionTime: nil,
            byteCount: bytes, arrival: UpstreamArrival(received: 0, parsed: 0))
    }

    @Test("reads put while the committer is busy are taken together, in order")
    func takesEverythingWaitingInOrder() async {
        let queue = UpstreamReadQueue(limitBytes: 1000)
        for n in 1...5 { #expect(await queue.put(Self.read(n))) }
        let taken = await queue.takeAll()
        #expect(taken?.map(\.lastEventID) == ["1", "2", "3", "4", "5"])
        queue.finish()
        #expect(await queue.takeAll() == nil, "finished and empty")
    }

    @Test("a waiting committer gets the next read as soon as it is put")
    func waitingCommitterIsWoken() async {
        let queue = UpstreamReadQueue(limitBytes: 1000)
        async let taken = queue.takeAll()
        try? await Task.sleep(for: .milliseconds(20))  // lets the committer wait first; not a proof
        #expect(await queue.put(Self.read(7)))
        #expect(await taken?.map(\.lastEventID) == ["7"])
    }

    @Test("the reader waits while the queue is full, until the committer takes")
    func readerWaitsAtTheBound() async throws {
        let queue = UpstreamReadQueue(limitBytes: 100)
        #expect(await queue.put(Self.read(1, bytes: 100)))
        let second = Task { await queue.put(Self.read(2, bytes: 10)) }
        // While full, the second read is not in the queue: taking gets only the first.
        let first = await queue.takeAll()
        #expect(first?.map(\.lastEventID) == ["1"])
        #expect(await second.value, "the reader went on once there was room")
        #expect(await queue.takeAll()?.map(\.lastEventID) == ["2"])
    }

    @Test("finishing releases a waiting reader (its read is dropped) and a waiting committer")
    func finishReleasesBothSides() async {
        let full = UpstreamReadQueue(limitBytes: 10)
        #expect(await full.put(Self.read(1, bytes: 10)))
        let blocked = Task { await full.put(Self.read(2)) }
        try? await Task.sleep(for: .milliseconds(20))
        full.finish()
        #expect(await blocked.value == false, "a read put after the end is refused")
        #expect(await full.takeAll()?.map(\.lastEventID) == ["1"], "what was waiting is still taken")
        #expect(await full.takeAll() == nil)

        let empty = UpstreamReadQueue(limitBytes: 10)
        let committer = Task { await empty.takeAll() }
        try? await Task.sleep(for: .milliseconds(20))
        empty.finish()
        #expect(await committer.value == nil)
    }
}
