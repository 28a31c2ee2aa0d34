import NIOConcurrencyHelpers

/// The status of one upstream source and who listens to it: the source publishes each
/// ``UpstreamEvent`` here; the publisher folds it into the ``UpstreamStatus``
/// (``UpstreamStatus/apply(_:)``) and hands every observer the event with the status it
/// led to. One per ``UpstreamConnection``, whatever its kind.
///
/// Ordering: observers see events in the order they were published, each with the status
/// after it, as long as one task publishes at a time (a source publishes only from its
/// ``UpstreamSource/run()`` task). An observer added later sees only later events; read
/// ``status`` for what came before.
///
/// The lock guards the status and the observer list only: the event is folded under it,
/// and the observers are called after it is released, on the publishing task. No other
/// lock is taken while it is held.
public final class UpstreamStatusPublisher: Sendable {
    /// Called with each event and the status after it.
    public typealias Observer = @Sendable (_ event: UpstreamEvent, _ status: UpstreamStatus) -> Void

    private struct State: Sendable {
        var status: UpstreamStatus
        var observers: [Observer] = []
    }

    private let state: NIOLockedValueBox<State>

    /// Starts idle, with `source` (a URL or a label) as the status's source.
    public init(source: String) {
        state = NIOLockedValueBox(State(status: UpstreamStatus(source: source)))
    }

    /// The status now: the fold of every event published so far.
    public var status: UpstreamStatus {
        state.withLockedValue { $0.status }
    }

    /// Calls `observer` after every event from now on.
    public func observe(_ observer: @escaping Observer) {
        state.withLockedValue { $0.observers.append(observer) }
    }

    /// Folds `event` into the status, then tells every observer.
    public func publish(_ event: UpstreamEvent) {
        let (status, observers) = state.withLockedValue { state in
            state.status.apply(event)
            return (state.status, state.observers)
        }
        for observer in observers { observer(event, status) }
    }
}
