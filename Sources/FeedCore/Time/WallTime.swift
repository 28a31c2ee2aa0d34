import Foundation

/// A moment on the wall clock, in whole microseconds since 1970-01-01T00:00:00Z: when a
/// change was committed, as `?at=`, `/api/changes` and `/inspect` give it. Whole
/// microseconds, so the time a cluster's log stores (PostgreSQL's `timestamptz`) is the
/// time every node reads back, to the bit.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// `date`, rounded down to the microsecond.
    public init(_ date: Date) {
        self.microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
    }

    /// Now.
    public static func now() -> WallTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return WallTime(microseconds: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000)
    }

    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.microseconds < rhs.microseconds }

    /// RFC 3339 in UTC to the microsecond, `2026-11-24T14:03:12.345678Z`: what `?at=` reads
    /// back to this very moment.
    public var description: String {
        let seconds = microseconds.quotient(dividingBy: 1_000_000)
        let micros = Int(microseconds - seconds * 1_000_000)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(Int(parts.tm_mon) + 1, 2))-\(padded(Int(parts.tm_mday), 2))T"
            + "\(padded(Int(parts.tm_hour), 2)):\(padded(Int(parts.tm_min), 2)):\(padded(Int(parts.tm_sec), 2))."
            + "\(padded(micros, 6))Z"
    }

    /// An RFC 3339 date-time: `2026-11-24T14:03:00Z`, with any fraction of a second (digits
    /// past the sixth are dropped) and `Z` or an offset `±hh:mm`; `t` and `z` too. `nil`
    /// for anything else.
    public init?(rfc3339 text: String) {
        guard let microseconds = Self.microseconds(of: text, zoneless: nil, basicOffsets: false) else { return nil }
        self.microseconds = microseconds
    }

    /// A date-time as feeds send it: RFC 3339 (``init(rfc3339:)``), or ISO 8601 with its
    /// offset written without the colon (`2026-11-30T10:00:00.000+0000`, as Jira and Java's
    /// formatters write it) or as hours alone (`+05`). `nil` for anything else.
    public init?(feedTime text: String) {
        guard let microseconds = Self.microseconds(of: text, zoneless: nil, basicOffsets: true) else { return nil }
        self.microseconds = microseconds
    }

    /// A date and time without a zone, as many APIs send local times (Open-Meteo's
    /// `2026-11-30T00:00`, a database's `2026-11-30 14:00:00`), read at `offsetSeconds` east of
    /// UTC: the date, `T` or a space, hours and minutes, optionally seconds and a fraction.
    /// A text with a zone is read at its own, as ``init(feedTime:)`` reads it. `nil` for
    /// anything else.
    public init?(localTime text: String, offsetSeconds: Int) {
        guard let microseconds = Self.microseconds(of: text, zoneless: offsetSeconds, basicOffsets: true) else {
            return nil
        }
        self.microseconds = microseconds
    }

    /// Microseconds since 1970 of an RFC 3339 date-time, or, with `zoneless` (an offset in
    /// seconds east of UTC), of one without a zone and maybe without seconds; with
    /// `basicOffsets`, its offset may be `±hhmm` or `±hh` too.
    private static func microseconds(of text: String, zoneless: Int?, basicOffsets: Bool) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + width] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += width
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt "), let hour = number(2), expect(":"), let minute = number(2)
        else { return nil }
        var second = 0
        if expect(":") {
            guard let seconds = number(2) else { return nil }
            second = seconds
        } else if zoneless == nil {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var micros = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 6 { micros = micros * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        var offset = 0
        if expect("Zz") {
        } else if index == bytes.count, let zoneless {
            offset = zoneless
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), hours < 24 else { return nil }
            var minutes = 0
            if expect(":") || basicOffsets && index < bytes.count {
                guard let written = number(2), written < 60 else { return nil }
                minutes = written
            } else if !basicOffsets {
                return nil
            }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offset)
        return seconds * 1_000_000 + Int64(micros)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}

extension Int64 {
    /// The quotient rounded towards negative infinity (times before 1970 too).
    fileprivate func quotient(dividingBy divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
