import Testing

@testable import FeedCore

/// `Duration` in the units feedweb's clocks and timeouts use.
@Suite struct DurationUnitsTests {
    @Test func wholeNanosecondsDropTheSubNanosecondPart() {
        let duration =
            Duration.seconds(3) + .milliseconds(250) + .nanoseconds(7)
            + Duration(secondsComponent: 0, attosecondsComponent: 999_999_999)
        #expect(duration.saturatingNanoseconds == 3_250_000_007)
        #expect(duration.timeInterval > 3.250_000_007 && duration.timeInterval < 3.250_000_009)
    }

    @Test func negativeIsZeroAndPastTheRangeIsTheMaximum() {
        #expect(Duration.milliseconds(-1).saturatingNanoseconds == 0)
        #expect(Duration.zero.saturatingNanoseconds == 0)
        #expect(Duration.seconds(Int64.max).saturatingNanoseconds == .max)
        // UInt64.max nanoseconds is 18,446,744,073.7 s.
        #expect(Duration.seconds(18_446_744_074).saturatingNanoseconds == .max)
        #expect(Duration.seconds(18_446_744_073).saturatingNanoseconds == 18_446_744_073_000_000_000)
    }
}
