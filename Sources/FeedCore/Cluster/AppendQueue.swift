import Foundation
import NIOConcurrencyHelpers

/// The leader's changes on their way to the log: the leader's upstream pipeline puts each
/// accepted change here (a store observer, which must not wait), the appender takes them
/// in batches and appends each batch in one fenced statement.
///
/// Bounded: past ``maxPendingBytes`` waiting, everything waiting is replaced by one `data`
/// row of the newest state (what a client too far behind gets on `/events` too), so memory
/// stays bounded and the log stays a sequence of every change or a fresh document, never a
/// gap.
///
/// One producer, one consumer. The lock guards `State` only; the waiting consumer is
/// resumed after it is released (see ``Waiter``).
final class AppendQueue: Sendable {
    /// One change waiting.
    enum Pending: Sendable {
        case change(FeedChange)
        /// The newest state, in place of the changes it replaced, with the time of the
        /// newest of them.
        case document(FeedSnapshot, position: String?, changes: Int, time: WallTime)

        var byteCount: Int {
            switch self {
            case .change(let change):
                if case .patch(_, let encoded) = change.kind { return encoded.count }
                return change.snapshot.encodedByteCount
            case .document(let snapshot, _, _, _): return snapshot.encodedByteCount
            }
        }

        /// The log row for it at `seq`.
        func entry(seq: UInt64) -> ClusterLogEntry {
            switch self {
            case .change(let change): return ClusterLogEntry(change: change, seq: seq)
            case .document(let snapshot, let position, let changes, let time):
                return ClusterLogEntry(
                    seq: seq, kind: .data, body: snapshot.encodedDocument, upstreamPosition: position, changes: changes,
                    time: time)
            }
        }
    }

    private struct State {
        var pending: [Pending] = []
        var bytes = 0
        var finished = false
        /// The appender, waiting for a change.
        var consumer = Waiter()
        /// Times the waiting changes were replaced by a document.
        var collapses = 0
    }

    let maxPendingBytes: Int
    private let state = NIOLockedValueBox(State())

    init(maxPendingBytes: Int = 16 * 1024 * 1024) {
        self.maxPendingBytes = maxPendingBytes
    }

    /// How often the waiting changes were replaced by one document.
    var collapses: Int { state.withLockedValue { $0.collapses } }

    /// Adds `change` (never waits).
    func add(_ change: FeedChange) {
        state.withLockedValue { state in
            if !state.finished { append(change, to: &state) }
            return state.consumer.take()
        }
        .resume()
    }

    /// Appends `change` to what is waiting; past ``maxPendingBytes``, everything waiting
    /// becomes one document of the newest state.
    private func append(_ change: FeedChange, to state: inout State) {
        let item = Pending.change(change)
        state.pending.append(item)
        state.bytes += item.byteCount
        guard state.bytes > maxPendingBytes, state.pending.count > 1 else { return }
        let changes = state.pending.reduce(0) { total, item in
            switch item {
            case .change(let change): return total + change.upstreamChanges
            case .document(_, _, let changes, _): return total + changes
            }
        }
        let document = Pending.document(
            change.snapshot, position: change.upstreamPosition, changes: changes, time: change.time)
        state.pending = [document]
        state.bytes = document.byteCount
        state.collapses += 1
    }

    /// Up to `maxCount` waiting changes (and about `maxBytes`, at least one), oldest first,
    /// once there is one; `nil` once finished.
    func take(maxCount: Int = 500, maxBytes: Int = 4 * 1024 * 1024) async -> [Pending]? {
        while true {
            let (taken, finished) = state.withLockedValue { state -> ([Pending]?, Bool) in
                guard !state.pending.isEmpty else { return (nil, state.finished) }
                var count = 0
                var bytes = 0
                for item in state.pending {
                    guard count < maxCount, count == 0 || bytes + item.byteCount <= maxBytes else { break }
                    count += 1
                    bytes += item.byteCount
                }
                let taken = Array(state.pending.prefix(count))
                state.pending.removeFirst(count)
                state.bytes -= bytes
                return (taken, false)
            }
            if let taken { return taken }
            if finished || Task.isCancelled { return nil }
            await state.wait(in: \.consumer, unless: { !$0.pending.isEmpty || $0.finished }, cancellable: true)
            // A cancelled consumer takes nothing more: the queue ends with it.
            if Task.isCancelled { finish() }
        }
    }

    /// Ends the queue: nothing more is accepted, the consumer is released.
    func finish() {
        state.withLockedValue { state in
            state.finished = true
            return state.consumer.take()
        }
        .resume()
    }
}
