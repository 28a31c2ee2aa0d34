import NIOConcurrencyHelpers

/// Coalesces requests to re-render the page streams into frames: however many changes
/// and status updates arrive, frames start at most once per ``interval``, always from the newest state (intermediate states are skipped, never
/// shown late). A request that finds the pacer idle is served at once, so a quiet feed
/// adds no delay.
///
/// Requests are cheap and never block (the store's observers and the upstream status
/// make them); the rendering runs in ``run(render:)``, off the store's write path.
final class PageFramePacer: Sendable {
    private struct State {
        var requested = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// The shortest time between two frames.
    let interval: Duration
    /// Guards `requested` and the waiting run loop. A leaf: no other lock is taken while it
    /// is held, and the waiter is resumed after it is released. Requests take it holding
    /// `FeedStore.deliveryLock` (the store's observer) or nothing.
    private let state = NIOLockedValueBox(State())
    /// Guards the count of frames rendered. A leaf.
    private let frameCount = NIOLockedValueBox<UInt64>(0)

    init(interval: Duration) {
        self.interval = interval
    }

    /// Frames rendered since start.
    var frames: UInt64 { frameCount.withLockedValue { $0 } }

    /// Asks for a frame with the newest state.
    func request() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.requested = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Renders a frame whenever one was requested, at most once per `interval`, until the
    /// task is cancelled.
    func run(render: @Sendable () -> Void) async {
        while !Task.isCancelled {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    // Checked under the lock the cancellation handler takes, so a cancel
                    // either finds this waiter or is seen here.
                    let ready = state.withLockedValue { state -> Bool in
                        if state.requested || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
            guard !Task.isCancelled else { return }
            state.withLockedValue { $0.requested = false }
            // Frames start at most once per interval; the time a frame takes to render
            // counts towards it, so a change waits at most one interval plus one render.
            let started = ContinuousClock.now
            render()
            frameCount.withLockedValue { $0 += 1 }
            do { try await Task.sleep(until: started + interval) } catch { return }
        }
    }
}
