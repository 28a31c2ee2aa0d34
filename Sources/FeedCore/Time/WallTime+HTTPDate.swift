extension WallTime {
    /// The month names of an HTTP date, in order.
    private static let httpMonths = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// An HTTP date (RFC 9110 §5.6.7, the IMF-fixdate every server sends:
    /// `Sun, 06 Nov 1994 08:49:37 GMT`), as `Retry-After` carries one; `nil` for any other
    /// text, the obsolete RFC 850 and asctime forms included.
    public init?(httpDate text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].last == ",", parts[5] == "GMT",
            parts[1].count == 2, let day = Int(parts[1]), (1...31).contains(day),
            let month = Self.httpMonths.firstIndex(of: String(parts[2])),
            parts[3].count == 4, let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = Self.daysFromCivil(year: year, month: month + 1, day: day)
        let seconds = Int64(days) * 86400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
        self.init(microseconds: seconds * 1_000_000)
    }
}
