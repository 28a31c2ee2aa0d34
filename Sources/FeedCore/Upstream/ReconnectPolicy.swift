/// When to try upstream again: the SSE `retry` time doubled per consecutive failure, with
/// jitter, capped at `maxBackoff`; reset by a connection that delivered an event.
///
/// Pure: the caller supplies the randomness, so every sequence is testable.
public struct ReconnectPolicy: Sendable, Equatable {
    /// The base delay: the last `retry:` upstream sent, 1 s by default.
    public var retryInterval: Duration
    /// The cap on any delay (`--max-backoff`).
    public let maxBackoff: Duration
    /// Consecutive attempts since the last connection that delivered an event.
    public private(set) var failures: Int = 0

    public init(retryInterval: Duration = .seconds(1), maxBackoff: Duration = .seconds(30)) {
        self.retryInterval = retryInterval
        self.maxBackoff = maxBackoff
    }

    /// A connection delivered at least one event: the next delay starts from the base.
    public mutating func reset() {
        failures = 0
    }

    /// The delay before the next attempt, given `random` in `0..<1`.
    ///
    /// The un-jittered delay is `retryInterval × 2^failures`, capped at `maxBackoff`; the
    /// result lies in its upper half (`[d/2, d)`), so clients spread out but never retry
    /// sooner than half the server's `retry`.
    public mutating func nextDelay(random: Double) -> Duration {
        let exponent = min(failures, 30)
        failures += 1
        let base = retryInterval * (1 << exponent)
        let capped = min(base, maxBackoff)
        let fraction = 0.5 + 0.5 * min(max(random, 0), 0.999_999)
        return capped * fraction
    }

    /// Upstream answered 204 (asked us to stop): wait the full cap every time.
    public mutating func delayAfterStopRequest() -> Duration {
        failures += 1
        return maxBackoff
    }
}
