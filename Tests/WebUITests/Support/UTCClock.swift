import Foundation

/// Wall-clock times as the server writes them on pages (in UTC).
enum UTCClock {
    /// "HH:MM" of `date` in UTC.
    static func hoursMinutes(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return two(parts.hour) + ":" + two(parts.minute)
    }
}
