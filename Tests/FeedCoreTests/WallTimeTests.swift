import FeedCore
import Foundation
import Testing

/// Moments read from text: `?at=`'s RFC 3339, strictly; a feed's times as feeds write them.
@Suite("Wall time from text")
struct WallTimeTests {
    /// 2026-11-30T10:00:00Z in microseconds since 1970, as Foundation's ISO 8601 reader
    /// reads it.
    private static let tenUTC: Int64 = {
        let date = try? Date("2026-11-30T10:00:00Z", strategy: Date.ISO8601FormatStyle())
        return Int64((date?.timeIntervalSince1970 ?? 0) * 1_000_000)
    }()

    @Test("RFC 3339: Z or ±hh:mm; an offset without its colon is no RFC 3339")
    func rfc3339() {
        #expect(Self.tenUTC > 0)
        #expect(WallTime(rfc3339: "2026-11-30T10:00:00Z")?.microseconds == Self.tenUTC)
        #expect(WallTime(rfc3339: "2026-11-30T11:30:00+01:30")?.microseconds == Self.tenUTC)
        #expect(WallTime(rfc3339: "2026-11-30T10:00:00.000+0000") == nil)
        #expect(WallTime(rfc3339: "2026-11-30T15:00:00+05") == nil)
    }

    @Test("a feed's time: RFC 3339, or an offset as ±hhmm (Jira's, Java's) or ±hh")
    func feedTime() {
        for (text, shift) in [
            ("2026-11-30T10:00:00.000+0000", 0), ("2026-11-30T02:00:00-0800", 0), ("2026-11-30T15:30:00+0530", 0),
            ("2026-11-30T15:00:00+05", 0), ("2026-11-30T10:00:00Z", 0), ("2026-11-30T10:00:00.250+00:00", 250_000),
        ] {
            #expect(WallTime(feedTime: text)?.microseconds == Self.tenUTC + Int64(shift), "\(text)")
        }
        for text in [
            "2026-11-30T10:00:00+000", "2026-11-30T10:00:00+0", "2026-11-30T10:00:00+0560", "2026-11-30T10:00:00+",
        ] {
            #expect(WallTime(feedTime: text) == nil, "\(text)")
        }
        #expect(WallTime(localTime: "2026-11-30T10:00:00+0000", offsetSeconds: 3_600)?.microseconds == Self.tenUTC)
    }
}
