import FeedCore
import NIOConcurrencyHelpers

/// Coalesces requests to re-render the page streams into frames: however many changes
/// and status updates arrive, frames start at most once per ``interval`` on average, two
/// back to back after a quiet spell (``FrameSchedule``), always from the newest state
/// (intermediate states are skipped, never shown late). A request that finds the pacer
/// idle is served at once, so a quiet feed adds no delay, even right after a frame that
/// time alone asked for.
///
/// Requests are cheap and never block (the fan-out stage, the upstream status and the
/// timer make them); the rendering runs in ``run(render:)``, off the store's write path.
///
/// While nobody would see a frame, a request is held instead (``request(unlessIdle:)``):
/// no thread is woken and nothing is rendered, and whoever starts to watch takes the held
/// requests first (``takeHeld()``) and brings the state up to date itself.
final class PageFramePacer: Sendable {
    private struct State {
        var requested = false
        /// Requests were held since the last frame (``request(unlessIdle:)``).
        var held = false
        /// The run loop, waiting for a request.
        var loop = Waiter()
    }

    /// The average time between frames under sustained requests.
    let interval: Duration
    /// The most frames started back to back after a quiet spell.
    static let burst = 2
    /// Guards `requested` and the waiting run loop. A leaf: no other lock is taken while it
    /// is held, and the loop is resumed after it is released (``Waiter``). Requests take it
    /// holding nothing (the fan-out stage's consumer, the upstream's status, the sweeps).
    private let state = NIOLockedValueBox(State())
    /// Guards the count of frames rendered. A leaf.
    private let frameCount = NIOLockedValueBox<UInt64>(0)

    init(interval: Duration) {
        self.interval = interval
    }

    /// Frames rendered since start.
    var renderedFrames: UInt64 { frameCount.withLockedValue { $0 } }

    /// Asks for a frame with the newest state.
    func request() {
        state.withLockedValue { state in
            state.requested = true
            state.held = false
            return state.loop.take()
        }
        .resume()
    }

    /// Asks for a frame unless `idle` says that nobody would see it; then the request is
    /// held for ``takeHeld()`` and no thread is woken.
    ///
    /// The request is marked held before `idle` is read. A watcher makes itself seen to
    /// `idle` before it calls ``takeHeld()``, so of a request and a watcher that meet,
    /// one always sees the other: the request wakes the loop, or the watcher takes it.
    func request(unlessIdle idle: () -> Bool) {
        state.withLockedValue { $0.held = true }
        guard !idle() else { return }
        request()
    }

    /// Whether requests were held since the last frame (or the last take); clears them.
    func takeHeld() -> Bool {
        state.withLockedValue { state in
            defer { state.held = false }
            return state.held
        }
    }

    /// Renders a frame whenever one was requested, at most once per `interval` on average
    /// (``burst`` back to back), until the task is cancelled.
    func run(render: @Sendable () -> Void) async {
        var schedule = FrameSchedule(interval: interval, burst: Self.burst)
        while !Task.isCancelled {
            await state.wait(in: \.loop, unless: \.requested, cancellable: true)
            guard !Task.isCancelled else { return }
            // Requests made meanwhile are served by the same frame; the time a frame takes
            // to render counts towards the interval, so a change waits at most one interval
            // plus one render.
            if let earliest = schedule.earliestStart, earliest > .now {
                do { try await Task.sleep(until: earliest) } catch { return }
            }
            state.withLockedValue { state in
                state.requested = false
                state.held = false
            }
            schedule.frameStarted(at: .now)
            render()
            frameCount.withLockedValue { $0 += 1 }
        }
    }
}
