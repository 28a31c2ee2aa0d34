import FeedCore
import Testing

@testable import WebUI

/// A series' line: oldest at the left, highest at the top, gaps skipped, any readings drawn
/// inside the view box.
@Suite struct SparklineTests {
    @Test("readings across the box, a gap skipped, a flat line at mid-height, extremes inside the box")
    func points() throws {
        func points(_ json: String) throws -> String? {
            Sparkline.points(try #require(ItemSeries(try JSONValue(parsing: json))))
        }
        #expect(try points("[1, 2, 3]") == "0.0,22.0 50.0,12.0 100.0,2.0")
        #expect(try points("[3, null, 1]") == "0.0,2.0 100.0,22.0", "the gap joined, in its place")
        #expect(try points("[5, 5]") == "0.0,12.0 100.0,12.0")
        #expect(try points("[-1.7e308, 1.7e308, 0]") == "0.0,22.0 50.0,2.0 100.0,12.0")
        #expect(try points("[1, null]") == nil, "one reading is no line")
    }
}
