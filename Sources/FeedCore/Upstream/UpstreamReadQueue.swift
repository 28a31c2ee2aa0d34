import NIOConcurrencyHelpers

/// Hands what the upstream reader parsed, one ``Read`` of the stream at a time (its events
/// with their commands), to the committer, in order. The committer takes everything
/// waiting at once, so when it falls behind, its batches grow (items that arrived together
/// are committed as one change) instead of a queue growing: feedweb keeps up with an
/// upstream that outruns one change at a time.
///
/// Bounded: ``put(_:)`` waits while `limitBytes` or more are waiting (so a slow store
/// slows the reading, and TCP slows upstream), and memory holds at most `limitBytes` plus
/// one read's events.
///
/// One producer and one consumer. ``finish()`` ends it from either side: the producer
/// when the stream ended or failed (the consumer still takes what is waiting, then gets
/// `nil`), the consumer when it stops taking (a waiting producer is released and its
/// events are dropped).
///
/// The lock guards `State` only; a waiting task is resumed after it is released (see
/// ``Waiter``).
final class UpstreamReadQueue: Sendable {
    /// What one read of the stream gave: its events with their commands, and the
    /// stream's last event id and reconnection time after it.
    struct Read: Sendable {
        var events: [(event: SSEEvent, command: UpstreamCommand)]
        /// The parser's last event id after this read (what a reconnect sends).
        var lastEventID: String
        /// The parser's reconnection time after this read, in milliseconds, if upstream set one.
        var reconnectionTime: Int?
        /// The bytes this read carried.
        var byteCount: Int
        /// When the read returned and when its events were parsed: each change made of
        /// them carries it (``FeedChange/arrival``).
        var arrival: UpstreamArrival
    }

    private struct State {
        var waiting: [Read] = []
        var waitingBytes = 0
        var finished = false
        /// The committer, waiting for a read.
        var consumer = Waiter()
        /// The reader, waiting for room.
        var producer = Waiter()
    }

    private let state = NIOLockedValueBox(State())
    /// The most bytes waiting before ``put(_:)`` waits.
    let limitBytes: Int

    init(limitBytes: Int) {
        self.limitBytes = limitBytes
    }

    /// Adds `read`, first waiting while the queue is full. Returns `false` (and drops
    /// `read`) once the queue is finished.
    @discardableResult
    func put(_ read: Read) async -> Bool {
        while state.withLockedValue({ !$0.finished && $0.waitingBytes >= limitBytes }) {
            await state.wait(in: \.producer) { $0.finished || $0.waitingBytes < limitBytes }
        }
        let (accepted, consumer) = state.withLockedValue { state in
            if !state.finished {
                state.waiting.append(read)
                state.waitingBytes += read.byteCount
            }
            return (!state.finished, state.consumer.take())
        }
        consumer.resume()
        return accepted
    }

    /// Everything waiting, in order, once there is something; `nil` when the queue is
    /// finished and empty.
    func takeAll() async -> [Read]? {
        while true {
            let (taken, finished, producer) = state.withLockedValue { state in
                let taken = state.waiting
                state.waiting = []
                state.waitingBytes = 0
                return (taken, state.finished, state.producer.take())
            }
            producer.resume()
            if !taken.isEmpty { return taken }
            if finished { return nil }
            await state.wait(in: \.consumer) { !$0.waiting.isEmpty || $0.finished }
        }
    }

    /// Ends the queue: no more reads are accepted; whoever waits is released.
    func finish() {
        let (consumer, producer) = state.withLockedValue { state in
            state.finished = true
            return (state.consumer.take(), state.producer.take())
        }
        consumer.resume()
        producer.resume()
    }
}
