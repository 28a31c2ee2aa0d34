import DequeModule
import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// `/inspect`'s upstream exchanges: the last ``capacity`` connects, reconnects and polls, a
/// fold over the source's ``UpstreamEvent``s (the same events `/readyz` and `/stats` fold
/// over).
///
/// - `connecting` / `reconnecting` start an exchange (a connect, a reconnect);
/// - `answered` gives it upstream's status; `received` adds to its bytes;
/// - `polled` completes the waiting exchange, or is an exchange of its own (each poll
///   after the first);
/// - `backingOff`, `stoppedByUpstream` and `stopped` end it, with the error.
///
/// Errors arrive redacted (``TransportFailure`` redacts every URL, as the logs do). The
/// lock guards `State` only and is a leaf.
final class UpstreamExchanges: Sendable {
    /// The most exchanges listed.
    static let capacity = 50

    private struct State {
        var exchanges = Deque<UpstreamExchange>()
        var version: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())

    /// Folds in one upstream event, which happened `now`.
    func record(_ event: UpstreamEvent, now: Date = Date()) {
        state.withLockedValue { state in
            switch event {
            case .connecting:
                start(UpstreamExchange(kind: .connect, startedAt: now), in: &state)
            case .reconnecting:
                start(UpstreamExchange(kind: .reconnect, startedAt: now), in: &state)
            case .answered(let status, let requestedAt, _):
                if var last = state.exchanges.last, last.status == nil, last.endedAt == nil {
                    last.status = status
                    state.exchanges[state.exchanges.count - 1] = last
                } else {
                    start(UpstreamExchange(kind: .connect, startedAt: requestedAt, status: status), in: &state)
                }
            case .polled(let status, let bytes, let requestedAt, let at):
                if var last = state.exchanges.last, last.status == nil, last.endedAt == nil {
                    last.status = status
                    last.bytes = bytes
                    last.endedAt = at
                    state.exchanges[state.exchanges.count - 1] = last
                } else {
                    start(
                        UpstreamExchange(
                            kind: .poll, startedAt: requestedAt, status: status, bytes: bytes, endedAt: at),
                        in: &state)
                }
            case .received(let bytes):
                // A poll's bytes come with `polled`.
                guard var last = state.exchanges.last, last.endedAt == nil, last.status != nil else { return }
                last.bytes += bytes
                state.exchanges[state.exchanges.count - 1] = last
            case .backingOff(_, let error, let at), .stoppedByUpstream(_, let error, let at):
                if var last = state.exchanges.last, last.endedAt == nil {
                    last.error = error
                    last.endedAt = at
                    state.exchanges[state.exchanges.count - 1] = last
                } else {
                    // A poll that failed after a good one: an exchange of its own.
                    start(UpstreamExchange(kind: .poll, startedAt: at, error: error, endedAt: at), in: &state)
                }
            case .stopped:
                guard var last = state.exchanges.last, last.endedAt == nil else { return }
                last.endedAt = now
                state.exchanges[state.exchanges.count - 1] = last
            case .opened, .eventHandled, .rejected, .upstreamError, .ignored, .leaderChanged:
                return
            }
            state.version &+= 1
        }
    }

    private func start(_ exchange: UpstreamExchange, in state: inout State) {
        state.exchanges.append(exchange)
        if state.exchanges.count > Self.capacity { state.exchanges.removeFirst() }
    }

    /// The exchanges listed, oldest first, and the version (it moves whenever they change).
    func exchanges() -> (version: UInt64, exchanges: [UpstreamExchange]) {
        state.withLockedValue { ($0.version, Array($0.exchanges)) }
    }
}
