/// When the next page frame may start: at most ``burst`` frames back to back, and one per
/// ``interval`` on average (the generic cell rate algorithm). No clock of its own: the
/// caller hands in the times, so the rule is tested without waiting.
///
/// The burst is what keeps a quiet feed instant: a frame that time alone asked for (the
/// once-a-second status and `/stats` frame) does not hold back a story that arrives right
/// after it. Under a stream of changes the frames still come one per interval.
///
/// Invariant: after frames started at t₁ ≤ … ≤ tₖ, ``theoretical`` is the time a next frame
/// would start at the sustained rate, `max(theoretical, tₖ) + interval`; a frame may start
/// once `now ≥ theoretical − (burst − 1) × interval`.
struct FrameSchedule {
    /// The average time between frames under sustained requests.
    let interval: Duration
    /// The most frames started back to back after a quiet spell (≥ 1).
    let burst: Int
    private var theoretical: ContinuousClock.Instant?

    init(interval: Duration, burst: Int) {
        self.interval = interval
        self.burst = max(1, burst)
    }

    /// The earliest a frame may start; `nil` or a time not after now: at once.
    var earliestStart: ContinuousClock.Instant? {
        theoretical.map { $0 - interval * (burst - 1) }
    }

    /// Notes a frame started at `now`.
    mutating func frameStarted(at now: ContinuousClock.Instant) {
        theoretical = max(theoretical ?? now, now) + interval
    }
}
