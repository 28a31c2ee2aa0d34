import NIOConcurrencyHelpers

/// Hands what the upstream reader parsed, one ``Read`` of the stream at a time (its events
/// with their commands), to the committer, in order. The committer takes
/// everything waiting at once, so when it falls behind, its batches grow (items that
/// arrived together are committed as one change) instead of a queue growing: feedweb
/// keeps up with an upstream that outruns one change at a time.
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
/// The lock guards `State` only; continuations are resumed after it is released.
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
    }

    private struct State {
        var waiting: [Read] = []
        var waitingBytes = 0
        var finished = false
        var consumer: CheckedContinuation<Void, Never>?
        var producer: CheckedContinuation<Void, Never>?
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
        while true {
            let full = state.withLockedValue { !$0.finished && $0.waitingBytes >= limitBytes }
            guard full else { break }
            await withCheckedContinuation { continuation in
                let resume = state.withLockedValue { state -> Bool in
                    guard !state.finished, state.waitingBytes >= limitBytes else { return true }
                    state.producer = continuation
                    return false
                }
                if resume { continuation.resume() }
            }
        }
        let (accepted, consumer) = state.withLockedValue { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.finished else { return (false, nil) }
            state.waiting.append(read)
            state.waitingBytes += read.byteCount
            defer { state.consumer = nil }
            return (true, state.consumer)
        }
        consumer?.resume()
        return accepted
    }

    /// Everything waiting, in order, once there is something; `nil` when the queue is
    /// finished and empty.
    func takeAll() async -> [Read]? {
        while true {
            let (taken, finished, producer) = state.withLockedValue {
                state -> ([Read]?, Bool, CheckedContinuation<Void, Never>?) in
                guard !state.waiting.isEmpty else { return (nil, state.finished, nil) }
                let taken = state.waiting
                state.waiting = []
                state.waitingBytes = 0
                defer { state.producer = nil }
                return (taken, false, state.producer)
            }
            producer?.resume()
            if let taken { return taken }
            if finished { return nil }
            await withCheckedContinuation { continuation in
                let resume = state.withLockedValue { state -> Bool in
                    guard state.waiting.isEmpty, !state.finished else { return true }
                    state.consumer = continuation
                    return false
                }
                if resume { continuation.resume() }
            }
        }
    }

    /// Ends the queue: no more reads are accepted; whoever waits is released.
    func finish() {
        let (consumer, producer) = state.withLockedValue { state in
            state.finished = true
            defer {
                state.consumer = nil
                state.producer = nil
            }
            return (state.consumer, state.producer)
        }
        consumer?.resume()
        producer?.resume()
    }
}
