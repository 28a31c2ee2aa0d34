extension Duration {
    /// The duration in seconds.
    public var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds (sub-nanosecond parts dropped), saturating: a
    /// negative duration is 0 and one past `UInt64.max` nanoseconds (about 584 years) is
    /// `UInt64.max`.
    public var saturatingNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || carry ? .max : total
    }
}
