import FeedCore

/// A series drawn as a small line (``ItemSeries``), the points of one SVG `polyline` in a
/// ``width`` × ``height`` view box: oldest at the left edge, newest at the right, the
/// lowest reading ``margin`` above the foot and the highest ``margin`` below the top (a
/// flat series at mid-height). A gap (`null`) is skipped: the line joins its neighbours.
/// Coordinates have one decimal; the text holds digits, `.`, `,` and spaces only.
enum Sparkline {
    /// The view box, in its own units; the page's style sets the size it is drawn at.
    static let width = 100.0
    static let height = 24.0
    static let margin = 2.0

    /// The `points` of the line of `series`, or `nil` with fewer than two readings.
    static func points(_ series: ItemSeries) -> String? {
        let readings = series.values.enumerated().compactMap { index, value in value.map { (index, $0) } }
        guard readings.count >= 2, let low = readings.map(\.1).min(), let high = readings.map(\.1).max() else {
            return nil
        }
        let last = Double(max(series.values.count - 1, 1))
        // Halves first: readings far apart (`-1e308` and `1e308`) still have a finite span.
        let span = high / 2 - low / 2
        var text = ""
        text.reserveCapacity(readings.count * 10)
        for (index, value) in readings {
            let x = Double(index) / last * width
            let y = span > 0 ? height - margin - (value / 2 - low / 2) / span * (height - 2 * margin) : height / 2
            if !text.isEmpty { text += " " }
            text += oneDecimal(x) + "," + oneDecimal(y)
        }
        return text
    }

    /// `value` (0 to a few hundred) with one decimal: `12.3`; clamped to the view box.
    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((min(max(value, 0), width) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
