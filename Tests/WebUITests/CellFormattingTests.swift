import FeedCore
import Foundation
import Testing

@testable import WebUI

/// A cell's text from a value, for values the table's page tests do not reach.
@Suite("Cell formatting")
struct CellFormattingTests {

    @Test("times in micro- and nanoseconds are moments; an array's nulls are no values")
    func epochUnitsAndNulls() throws {
        let seconds = 1_796_000_000.0
        for (value, unit) in [(seconds * 1000, "ms"), (seconds * 1_000_000, "µs"), (seconds * 1_000_000_000, "ns")] {
            let date = CellFormatting.date(.int(Int64(value)))
            #expect(date?.timeIntervalSince1970 == seconds, "\(unit)")
        }
        #expect(CellFormatting.date(.double(seconds)).map { $0.timeIntervalSince1970 } == seconds)
        #expect(CellFormatting.date(.double(1e30)) == nil)
        let unit = try JSONValue(parsing: #"[{"name": "percent", "short_name": "%"}, null]"#)
        #expect(CellFormatting.summary(unit) == "percent")
        #expect(CellFormatting.summary(try JSONValue(parsing: "[null, null]")) == "none")
    }
}
