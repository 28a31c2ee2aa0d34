import Foundation

/// The last ten minutes as `/stats` draws them: ``FeedStatistics/windowBuckets`` completed
/// five-second windows, oldest first, ending where the window filling now begins. An
/// immutable snapshot, made once per window change and shared by every reader.
public struct StatsWindow: Sendable, Equatable {
    /// The window filling now; ``buckets`` are the ones before it.
    public let endIndex: Int64
    /// One entry per window, oldest first; `nil` for windows before counting started.
    public let buckets: [StatsBucket?]
    /// The notable events inside the windows, oldest first.
    public let notable: [NotableEvent]
    /// Everything counted since start, when the snapshot was made.
    public let totals: StatsTotals
    /// Seconds between the counterfactual poller's polls.
    public let pollInterval: TimeInterval
    /// What the bytes received are weighed as against polling.
    public let comparison: StatsComparison

    public init(
        endIndex: Int64, buckets: [StatsBucket?], notable: [NotableEvent], totals: StatsTotals,
        pollInterval: TimeInterval, comparison: StatsComparison = .upstream
    ) {
        self.comparison = comparison
        self.endIndex = endIndex
        self.buckets = buckets
        self.notable = notable
        self.totals = totals
        self.pollInterval = pollInterval
    }

    /// The start of the oldest window.
    public var start: Date { StatsBucket(index: endIndex - Int64(buckets.count)).start }
    /// The end of the newest window.
    public var end: Date { StatsBucket(index: endIndex).start }

    /// The windows' counts summed (windows before start count as empty).
    public var sum: StatsBucket {
        var sum = StatsBucket(index: endIndex)
        for bucket in buckets.compactMap({ $0 }) {
            sum.changes += bucket.changes
            sum.added += bucket.added
            sum.updated += bucket.updated
            sum.removed += bucket.removed
            sum.bytesReceived += bucket.bytesReceived
            sum.pollingBytes += bucket.pollingBytes
        }
        return sum
    }
}
