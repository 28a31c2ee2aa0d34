import Metrics

/// A Prometheus counter that follows a running total kept elsewhere (a broadcaster's
/// traffic, the `/stats` totals), advanced by the difference at each scrape.
///
/// Invariant: the counter never goes down; a total lower than the last one seen (a new
/// source object, say) is taken as the new base without a decrement.
struct MirroredCounter {
    private let counter: Counter
    private var last: UInt64 = 0

    init(label: String, dimensions: [(String, String)] = [], factory: any MetricsFactory) {
        counter = Counter(label: label, dimensions: dimensions, factory: factory)
    }

    mutating func follow(_ total: UInt64) {
        if total > last {
            counter.increment(by: Int64(clamping: total - last))
        }
        last = total
    }
}
