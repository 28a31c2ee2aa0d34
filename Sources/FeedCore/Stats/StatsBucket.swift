import Foundation

/// What happened in one five-second window of wall-clock time.
///
/// Windows are aligned to the Unix epoch: window `index` covers the seconds
/// `[index × 5, index × 5 + 5)` since 1970, so every process, every page and `/api/stats`
/// agree on where a window starts. Every count is of events recorded with a time inside it.
public struct StatsBucket: Sendable, Equatable {
    /// Which window: ⌊seconds since 1970 ÷ ``FeedStatistics/bucketSeconds``⌋.
    public var index: Int64
    /// Accepted changes (upstream events that changed the mirror).
    public var changes: Int = 0
    /// Items that appeared in the published view.
    public var added: Int = 0
    /// Items of the published view whose content changed.
    public var updated: Int = 0
    /// Items that left the published view.
    public var removed: Int = 0
    /// Body bytes received from upstream, SSE framing and heartbeats included.
    public var bytesReceived: UInt64 = 0
    /// Bytes that polling the full document would have downloaded (see
    /// ``PollingCounterfactual``), attributed to the window each poll falls in.
    public var pollingBytes: UInt64 = 0

    public init(index: Int64) {
        self.index = index
    }

    /// When the window starts.
    public var start: Date {
        Date(timeIntervalSince1970: Double(index) * FeedStatistics.bucketSeconds)
    }

    /// The window `date` falls in. Dates before 1970 or too far away to count (never from
    /// a working clock) are clamped to the representable range.
    public static func index(of date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 / FeedStatistics.bucketSeconds).rounded(.down)
        guard value.isFinite else { return 0 }
        return Int64(max(-1e15, min(1e15, value)))
    }
}
