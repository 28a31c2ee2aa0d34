import FeedCore
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// The hand-off between a waiting task and the tasks that let it go on: no wake-up lost,
/// none that belongs to an earlier wait, and a wait that ends by itself when asked to.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct WaiterTests {
    struct State: Sendable {
        var ready = false
        var waiter = Waiter()
    }

    /// Sets `ready` and lets the waiting task go on, as every user of ``Waiter`` does.
    static func makeReady(_ state: NIOLockedValueBox<State>) {
        state.withLockedValue { state in
            state.ready = true
            return state.waiter.take()
        }
        .resume()
    }

    @Test("a wait whose condition already holds returns at once")
    func readyReturnsAtOnce() async {
        let state = NIOLockedValueBox(State(ready: true))
        await state.wait(in: \.waiter) { $0.ready }
        #expect(state.withLockedValue { $0.ready })
    }

    @Test("a waiting task goes on when another makes it ready, whichever comes first")
    func wokenByAnother() async {
        for delay in [0, 1, 5] {
            let state = NIOLockedValueBox(State())
            let other = Task {
                try? await Task.sleep(for: .milliseconds(delay))
                Self.makeReady(state)
            }
            await state.wait(in: \.waiter) { $0.ready }
            #expect(state.withLockedValue { $0.ready })
            await other.value
        }
    }

    @Test("a wait with a timeout ends after it; a late timer of that wait does not end the next")
    func timeout() async {
        let state = NIOLockedValueBox(State())
        let start = ContinuousClock.now
        await state.wait(in: \.waiter, unless: { $0.ready }, timeout: .milliseconds(50))
        #expect(ContinuousClock.now - start >= .milliseconds(50))

        // A wait with a short timeout woken early leaves its timer running: when it fires,
        // it must not end the next wait, which only readiness ends.
        let woken = Task {
            try? await Task.sleep(for: .milliseconds(10))
            Self.makeReady(state)
        }
        await state.wait(in: \.waiter, unless: { $0.ready }, timeout: .milliseconds(100))
        await woken.value
        state.withLockedValue { $0.ready = false }
        let next = ContinuousClock.now
        let readyLater = Task {
            try? await Task.sleep(for: .milliseconds(300))
            Self.makeReady(state)
        }
        await state.wait(in: \.waiter) { $0.ready }
        #expect(ContinuousClock.now - next >= .milliseconds(300), "the first wait's timer woke the second")
        await readyLater.value
    }

    @Test("a cancellable wait ends when its task is cancelled; it is then no longer parked")
    func cancellation() async {
        let state = NIOLockedValueBox(State())
        let waiting = Task {
            await state.wait(in: \.waiter, unless: { $0.ready }, cancellable: true)
        }
        try? await Task.sleep(for: .milliseconds(20))  // lets it park first; not a proof
        waiting.cancel()
        await waiting.value
        #expect(!state.withLockedValue { $0.ready })

        // A second task may wait now (a parked one would make this a programming error).
        let second = Task { await state.wait(in: \.waiter) { $0.ready } }
        try? await Task.sleep(for: .milliseconds(20))
        Self.makeReady(state)
        await second.value
    }
}
