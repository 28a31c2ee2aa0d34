import Foundation

/// Wall-clock formatting for the demo feed, in New York's standard time (a fixed
/// UTC-05:00 offset, as the brief asks; no daylight-saving switch).
///
/// Pure arithmetic on `timeIntervalSince1970`: no `DateFormatter`, no locale, no
/// calendar, no time-zone database, so the output is identical everywhere.
enum DemoTimestamp {
    /// The fixed offset from UTC, in seconds.
    static let offsetSeconds: Int64 = -5 * 3600

    /// A broken-down local (UTC-05:00) time.
    struct Civil: Sendable, Equatable {
        var year: Int64
        var month: Int64
        var day: Int64
        var hour: Int64
        var minute: Int64
        var second: Int64
    }

    /// `date` broken down in UTC-05:00, truncated to whole seconds.
    static func civil(_ date: Date) -> Civil {
        let raw = date.timeIntervalSince1970
        // Clamp to roughly ±300,000 years so the conversion below can never trap.
        let bounded = raw.isFinite ? min(max(raw, -1e16), 1e16) : 0
        let local = Int64(bounded.rounded(.down)) + offsetSeconds
        let days = floorDiv(local, 86_400)
        let secondOfDay = local - days * 86_400
        let (year, month, day) = civilFromDays(days)
        return Civil(
            year: year,
            month: month,
            day: day,
            hour: secondOfDay / 3600,
            minute: secondOfDay % 3600 / 60,
            second: secondOfDay % 60
        )
    }

    /// ISO 8601 with offset, as the Times Newswire writes it: `2026-11-22T09:14:05-05:00`.
    static func iso8601(_ date: Date) -> String {
        let c = civil(date)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
            + "T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))-05:00"
    }

    /// The date part of a story URL: `2026/11/22`.
    static func urlDatePath(_ date: Date) -> String {
        let c = civil(date)
        return "\(pad(c.year, 4))/\(pad(c.month, 2))/\(pad(c.day, 2))"
    }

    /// The local day of the month, two digits (`"07"`), as slug names start with it.
    static func dayOfMonth(_ date: Date) -> String {
        pad(civil(date).day, 2)
    }

    /// The local year.
    static func year(_ date: Date) -> Int64 {
        civil(date).year
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Days since 1970-01-01 to a proleptic Gregorian (year, month, day)
    /// (Howard Hinnant's `civil_from_days`).
    private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}
