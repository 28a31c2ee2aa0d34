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
/// One producer, one consumer. The lock guards `State` only; the consumer's continuation
/// is resumed after it is released.
final class AppendQueue: Sendable {
    /// One change waiting.
    enum Pending: Sendable {
        case change(FeedChange)
        /// The newest state, in place of the changes it replaced.
        case document(FeedSnapshot, position: String?, changes: Int)

        var byteCount: Int {
            switch self {
            case .change(let change):
                if case .patch(_, let encoded) = change.kind { return encoded.count }
                return change.snapshot.encodedByteCount
            case .document(let snapshot, _, _): return snapshot.encodedByteCount
            }
        }

        /// The log row for it at `seq`.
        func entry(seq: UInt64) -> ClusterLogEntry {
            switch self {
            case .change(let change): return ClusterLogEntry(change: change, seq: seq)
            case .document(let snapshot, let position, let changes):
                return ClusterLogEntry(
                    seq: seq, kind: .data, body: snapshot.encodedDocument, upstreamPosition: position, changes: changes)
            }
        }
    }

    private struct State {
        var pending: [Pending] = []
        var bytes = 0
        var finished = false
        var consumer: CheckedContinuation<Void, Never>?
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
        let consumer = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.finished else { return nil }
            let item = Pending.change(change)
            state.pending.append(item)
            state.bytes += item.byteCount
            if state.bytes > maxPendingBytes, state.pending.count > 1 {
                let changes = state.pending.reduce(0) { total, item in
                    switch item {
                    case .change(let change): return total + change.upstreamChanges
                    case .document(_, _, let changes): return total + changes
                    }
                }
                let document = Pending.document(change.snapshot, position: change.upstreamPosition, changes: changes)
                state.pending = [document]
                state.bytes = document.byteCount
                state.collapses += 1
            }
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume()
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
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resume = state.withLockedValue { state -> Bool in
                        guard state.pending.isEmpty, !state.finished else { return true }
                        state.consumer = continuation
                        return false
                    }
                    if resume { continuation.resume() }
                }
            } onCancel: {
                finish()
            }
        }
    }

    /// Ends the queue: nothing more is accepted, the consumer is released.
    func finish() {
        let consumer = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume()
    }
}
