import Foundation

/// Parses feed timestamps and says how long ago they were, in English.
enum RelativeTime {
    /// Parses ISO 8601 with or without fractional seconds (`2026-11-22T09:14:05-05:00`),
    /// or a plain date (`2026-11-22`).
    static func parse(_ text: String?) -> Date? {
        guard let text, !text.isEmpty else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: false)) {
            return date
        }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day()) {
            return date
        }
        return nil
    }

    /// "just now", "5 min ago", "3 h ago", "2 d ago"; a moment to come the same way ("in
    /// 5 min", "in 3 h": a forecast, a scheduled job); the date for moments a week or more
    /// away either way. Public/times.js says it the same way.
    static func describe(_ date: Date, now: Date) -> String {
        let elapsed = Int(now.timeIntervalSince(date).rounded())
        let seconds = abs(elapsed)
        func said(_ span: String) -> String { elapsed < 0 ? "in " + span : span + " ago" }
        if seconds < 45 { return "just now" }
        if seconds < 3600 { return said("\(max(1, (seconds + 30) / 60)) min") }
        if seconds < 86_400 { return said("\(seconds / 3600) h") }
        if seconds < 7 * 86_400 { return said("\(seconds / 86_400) d") }
        return date.formatted(Date.ISO8601FormatStyle().year().month().day())
    }

    /// How long ago `date` was, counted in seconds under a minute ("42 s ago"), as the
    /// status badge says it ("updated N s ago", the product contract's words); from a
    /// minute on, as ``describe(_:now:)``. Public/times.js keeps it fresh the same way
    /// (`data-relative="seconds"`).
    static func describeSeconds(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date).rounded(.down))
        if seconds < 60 { return "\(max(0, seconds)) s ago" }
        return describe(date, now: now)
    }

    /// The machine-readable form for `<time datetime>`.
    static func machine(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
