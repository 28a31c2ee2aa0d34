import NIOConcurrencyHelpers
import Testing

@testable import WebUI

/// The broadcaster decides under its lock and acts outside it: the callers' closures
/// (`encode`, `initial`, `catchUp`) run with the lock released, and a client joining while
/// a publish runs, or a publish beginning while a client's first bytes are made, still
/// gets every event once. Without sockets: queues are read as libmicrohttpd reads them.
@Suite struct BroadcasterTests {
    static func event(_ byte: Character, _ count: Int) -> [UInt8] { StreamQueueCatchUpTests.event(byte, count) }

    static func read(_ stream: StreamConnection) -> [UInt8] { StreamQueueCatchUpTests.read(stream, capacity: 10_000) }

    /// The broadcaster's lock is not recursive: a closure run under it that takes it again
    /// would never return. Each closure here reads the broadcaster's count.
    @Test func encodeInitialAndCatchUpRunOutsideTheLock() {
        let broadcaster = Broadcaster<String, Int>(initial: 0)
        let counts = NIOLockedValueBox<[Int]>([])
        let behind = StreamConnection(maxQueuedBytes: 100)
        let roomy = StreamConnection(maxQueuedBytes: 10_000)
        for stream in [behind, roomy] {
            broadcaster.subscribe(stream, to: "all") { _ in
                counts.withLockedValue { $0.append(broadcaster.count) }
                return [Self.event("a", 90)]
            }
        }
        broadcaster.publish(
            1,
            encode: { _, _ in
                counts.withLockedValue { $0.append(broadcaster.count) }
                return Self.event("p", 20)
            },
            catchUp: { _, _ in
                counts.withLockedValue { $0.append(broadcaster.count) }
                return Self.event("F", 10)
            })
        #expect(counts.withLockedValue { $0 } == [0, 1, 2, 2])
        #expect(Self.read(behind) == Self.event("F", 10))
        #expect(Self.read(roomy) == Self.event("a", 90) + Self.event("p", 20))
    }

    /// A client that subscribes after a publish has begun gets its first bytes from the
    /// published state, and not that publish's event: each event once.
    @Test func aClientJoiningDuringAPublishGetsItsStateNotItsEvent() {
        let broadcaster = Broadcaster<String, Int>(initial: 0)
        let early = StreamConnection(maxQueuedBytes: 10_000)
        let late = StreamConnection(maxQueuedBytes: 10_000)
        broadcaster.subscribe(early, to: "all") { state in [Self.event("s", 10 + (state ?? 0))] }
        broadcaster.publish(1) { _, state in
            broadcaster.subscribe(late, to: "all") { state in [Self.event("s", 10 + (state ?? 0))] }
            return Self.event("e", 20 + state)
        }
        broadcaster.publish(2) { _, state in Self.event("e", 20 + state) }
        #expect(Self.read(early) == Self.event("s", 10) + Self.event("e", 21) + Self.event("e", 22))
        #expect(Self.read(late) == Self.event("s", 11) + Self.event("e", 22))
        #expect(broadcaster.traffic.eventsQueued == 5)
    }

    /// A publish that begins while a client's first bytes are made outside the lock sends
    /// them back to be made again from the newer state, as `FeedStore.commit` retries.
    @Test func aPublishDuringAClientsFirstBytesMakesThemAgainFromTheNewerState() {
        let broadcaster = Broadcaster<String, Int>(initial: 0)
        let stream = StreamConnection(maxQueuedBytes: 10_000)
        let made = NIOLockedValueBox<[Int?]>([])
        broadcaster.subscribe(stream, to: "all") { state in
            let first = made.withLockedValue { made in
                made.append(state)
                return made.count == 1
            }
            if first { broadcaster.publish(7) { _, state in Self.event("e", 20 + state) } }
            return [Self.event("s", 10 + (state ?? 0))]
        }
        #expect(made.withLockedValue { $0 } == [0, 7])
        #expect(Self.read(stream) == Self.event("s", 17))
        #expect(broadcaster.count == 1)
    }

    /// Heartbeats and a page stream's `reload` reach every client, or those of the
    /// channels asked for, once each, whatever their channels.
    @Test func broadcastsReachEachClientOnce() {
        let broadcaster = Broadcaster<String, Int>(initial: 0)
        let both = StreamConnection(maxQueuedBytes: 10_000)
        let other = StreamConnection(maxQueuedBytes: 10_000)
        broadcaster.subscribe(both, to: ["a", "b"]) { _ in [] }
        broadcaster.subscribe(other, to: "c") { _ in [] }
        broadcaster.broadcastToAll(Self.event(":", 3))
        broadcaster.broadcast(Self.event("r", 5)) { $0 == "b" }
        #expect(Self.read(both) == Self.event(":", 3) + Self.event("r", 5))
        #expect(Self.read(other) == Self.event(":", 3))
        #expect(broadcaster.channelCount == 3)
        broadcaster.unsubscribe(both)
        #expect(broadcaster.count == 1)
        #expect(broadcaster.count(in: "a") == 0)
    }
}
