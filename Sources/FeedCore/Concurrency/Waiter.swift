import NIOConcurrencyHelpers

/// The one task waiting for a change to a lock-guarded state, kept in that state: the
/// hand-off between a task that waits for something (a queue's consumer, a producer held
/// back, a wake-up) and the tasks that bring it.
///
/// The waiting task checks under the state's lock whether it must wait at all, and parks
/// itself in the same critical section (the box's `wait(in:unless:cancellable:timeout:)`);
/// a task that changes the state so that it may go on takes it out under that lock
/// (``take()``) and resumes it once the lock is released (``Wakeup/resume()``). So no
/// wake-up is lost between the check and the parking, and no continuation is resumed
/// while a lock is held.
///
/// One task at a time: a second task parking while one is parked is a programming error.
public struct Waiter: Sendable {
    /// The parked task, and the ticket of the wait it parked for.
    private var parked: (ticket: UInt64, continuation: CheckedContinuation<Void, Never>)?
    /// The last ticket handed out: each wait has its own, so that a late timer or
    /// cancellation of one wait never wakes a later one.
    private var lastTicket: UInt64 = 0

    public init() {}

    /// Takes the parked task out (if any), to be resumed once the lock is released.
    public mutating func take() -> Wakeup {
        defer { parked = nil }
        return Wakeup(continuation: parked?.continuation)
    }

    /// Takes the parked task out if it parked for the wait with `ticket`.
    fileprivate mutating func take(ticket: UInt64) -> Wakeup {
        guard let parked, parked.ticket == ticket else { return Wakeup(continuation: nil) }
        self.parked = nil
        return Wakeup(continuation: parked.continuation)
    }

    fileprivate mutating func nextTicket() -> UInt64 {
        lastTicket += 1
        return lastTicket
    }

    fileprivate mutating func park(_ continuation: CheckedContinuation<Void, Never>, ticket: UInt64) {
        precondition(parked == nil, "a second task waits where one already does")
        parked = (ticket, continuation)
    }

    /// A parked task taken out of its ``Waiter``: resumed by ``resume()``, once, after the
    /// lock is released. Empty when no task was parked.
    public struct Wakeup: Sendable {
        fileprivate let continuation: CheckedContinuation<Void, Never>?

        /// Lets the task go on (nothing, when empty).
        public func resume() {
            continuation?.resume()
        }
    }
}

extension NIOLockedValueBox where Value: Sendable {
    /// Suspends the calling task in the ``Waiter`` at `waiter` until another task takes it
    /// out (``Waiter/take()``) and resumes it, unless `ready` holds: checked under the lock,
    /// in the critical section that parks the task, so a change made before it is seen and
    /// one made after it wakes the task.
    ///
    /// - Parameters:
    ///   - cancellable: Also return as soon as the task is cancelled, whatever `ready` says.
    ///   - timeout: Also return once this much time has passed.
    public func wait(
        in waiter: WritableKeyPath<Value, Waiter> & Sendable, unless ready: (Value) -> Bool,
        cancellable: Bool = false, timeout: Duration? = nil
    ) async {
        let ticket = withLockedValue { $0[keyPath: waiter].nextTicket() }
        func park(_ continuation: CheckedContinuation<Void, Never>) {
            let parked = withLockedValue { value -> Bool in
                guard !ready(value), !(cancellable && Task.isCancelled) else { return false }
                value[keyPath: waiter].park(continuation, ticket: ticket)
                return true
            }
            guard parked else { return continuation.resume() }
            if let timeout {
                Task {
                    try? await Task.sleep(for: timeout)
                    self.wake(waiter, ticket: ticket)
                }
            }
        }
        if cancellable {
            await withTaskCancellationHandler {
                await withCheckedContinuation(park)
            } onCancel: {
                wake(waiter, ticket: ticket)
            }
        } else {
            await withCheckedContinuation(park)
        }
    }

    /// Resumes the task parked in `waiter` if it parked for the wait with `ticket`.
    private func wake(_ waiter: WritableKeyPath<Value, Waiter> & Sendable, ticket: UInt64) {
        withLockedValue { $0[keyPath: waiter].take(ticket: ticket) }.resume()
    }
}
