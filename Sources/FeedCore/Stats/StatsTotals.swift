/// Everything counted since ``FeedStatistics`` started: what `/metrics` and `/api/stats`
/// report as totals. Bytes are bytes; the rest are counts of events.
public struct StatsTotals: Sendable, Equatable {
    /// Accepted changes.
    public var changes: UInt64 = 0
    /// Items added to, changed in and removed from the published view.
    public var itemsAdded: UInt64 = 0
    public var itemsUpdated: UInt64 = 0
    public var itemsRemoved: UInt64 = 0
    /// Body bytes received from upstream.
    public var bytesReceived: UInt64 = 0
    /// Bytes polling the full document every interval would have downloaded.
    public var pollingBytes: UInt64 = 0
    /// Polls that counterfactual poller would have made.
    public var polls: UInt64 = 0
    /// Notable events, by kind.
    public var reconnects: UInt64 = 0
    public var rejectedPatches: UInt64 = 0
    public var newSections: UInt64 = 0
    public var guardRegressions: UInt64 = 0
    /// Items that matched a chart mark.
    public var marks: UInt64 = 0
    /// Cluster mode: times a node took the lead.
    public var leaderChanges: UInt64 = 0

    public init() {}

    /// How many times more bytes polling would have cost than what was received
    /// (`nil` before anything was received).
    public var savingRatio: Double? {
        guard bytesReceived > 0 else { return nil }
        return Double(pollingBytes) / Double(bytesReceived)
    }

    /// The share of polling's bytes that streaming did not need: 1 − received ÷ polling
    /// (`nil` before the first poll; negative when streaming cost more).
    public var savedFraction: Double? {
        guard pollingBytes > 0 else { return nil }
        return 1 - Double(bytesReceived) / Double(pollingBytes)
    }
}
