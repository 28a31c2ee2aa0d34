/// When to try upstream again: the SSE `retry` time doubled per consecutive failure, with
/// jitter, capped at `maxBackoff`; reset by a connection that delivered an event.
///
/// Pure: the caller supplies the randomness, so every sequence is testable.
///
/// Jitter only adds: no delay is ever shorter than the nominal delay, so feedweb never
/// reconnects sooner than the `retry` upstream asked for (a server that raises `retry` to
/// shed load gets what it asked). No delay is shorter than ``minimumInterval`` either, even
/// when upstream sends `retry: 0` or `maxBackoff` is tiny, so a failing upstream can never
/// make feedweb reconnect in a hot loop; and none is longer than `maxBackoff`.
public struct ReconnectPolicy: Sendable, Equatable {
    /// The floor on any delay: 50 ms.
    public static let minimumInterval: Duration = .milliseconds(50)
    /// The most jitter adds, as a fraction of the nominal delay.
    public static let jitterFraction = 0.5

    /// The base delay: the last `retry:` upstream sent, 1 s by default.
    public var retryInterval: Duration
    /// The cap on any delay (`--max-backoff`).
    public let maxBackoff: Duration
    /// Consecutive attempts since the last connection that delivered an event.
    public private(set) var failures: Int = 0

    public init(retryInterval: Duration = .seconds(1), maxBackoff: Duration = UpstreamConfiguration.defaultMaxBackoff) {
        self.retryInterval = retryInterval
        self.maxBackoff = maxBackoff
    }

    /// A connection delivered at least one event: the next delay starts from the base.
    public mutating func reset() {
        failures = 0
    }

    /// The un-jittered delay before the next attempt, without counting an attempt:
    /// `retryInterval × 2^failures`, capped at `maxBackoff`, both raised to
    /// ``minimumInterval``. Never overflows, whatever `retry:` upstream sent.
    public var nominalDelay: Duration {
        let cap = max(maxBackoff, Self.minimumInterval)
        var delay = min(max(retryInterval, Self.minimumInterval), cap)
        var doublings = failures
        while doublings > 0 && delay < cap {
            delay = min(delay * 2, cap)
            doublings -= 1
        }
        return delay
    }

    /// The delay before the next attempt, given `random` in `0..<1`; counts the attempt.
    ///
    /// The result lies in `[d, min(1.5 d, maxBackoff)]` for the ``nominalDelay`` `d`:
    /// clients spread out, and none retries sooner than the server's `retry`.
    public mutating func nextDelay(random: Double) -> Duration {
        let nominal = nominalDelay
        countAttempt()
        let clamped = random.isNaN ? 0 : min(max(random, 0), 0.999_999)
        let cap = max(maxBackoff, Self.minimumInterval)
        return min(nominal * (1 + Self.jitterFraction * clamped), cap)
    }

    /// Upstream answered 204 (asked us to stop): wait the full cap every time.
    public mutating func delayAfterStopRequest() -> Duration {
        countAttempt()
        return max(maxBackoff, Self.minimumInterval)
    }

    private mutating func countAttempt() {
        if failures < Int.max { failures += 1 }
    }
}
