/// A series of readings an item holds in one member, oldest first: what a monitoring API
/// answers with and a dashboard shows as its latest value and a sparkline.
///
/// Three shapes are read:
/// - numbers (CoinCap's and CoinGecko's `sparkline_in_7d.price`: `[43100.5, 43210.1, …]`);
/// - `[time, value]` pairs, the time in seconds since 1970 (a Prometheus range query's
///   `values`: `[[1796065200, "0.64"], …]`, the value a number or a number sent as text);
/// - `[value, time]` pairs (Graphite's `datapoints`: `[[12.5, 1796065200], [null, …]]`).
///
/// A `null` value (or one past a double's range) is a gap: it is kept as `nil`, so that the
/// points stay where they were taken. Invariant: ``values`` has at least ``minimumPoints`` entries and at least one of
/// them is a number.
public struct ItemSeries: Sendable, Equatable {
    /// The readings, oldest first; `nil` where the feed sent `null`.
    public let values: [Double?]

    /// The fewest points a series has.
    public static let minimumPoints = 2
    /// The most points read from one series (the newest are kept); a longer one is cut, so
    /// that a hostile array of millions costs no more than this.
    public static let maximumPoints = 500

    /// The series `value` holds, or `nil` when it is no series: an array of at least
    /// ``minimumPoints`` numbers, or of pairs with a time (more than 10^9 seconds since
    /// 1970) in one place, the same place in every pair.
    public init?(_ value: JSONValue) {
        guard let elements = value.arrayValue, elements.count >= Self.minimumPoints else { return nil }
        let kept = elements.suffix(Self.maximumPoints)
        if kept.allSatisfy({ $0.doubleValue != nil || $0.isNull }) {
            values = kept.map { $0.doubleValue.flatMap { $0.isFinite ? $0 : nil } }
        } else if let pairs = Self.pairs(kept, timeAt: 0) {
            values = pairs
        } else if let pairs = Self.pairs(kept, timeAt: 1) {
            values = pairs
        } else {
            return nil
        }
        guard values.contains(where: { $0 != nil }) else { return nil }
    }

    /// The series at `pointer` in `item`, oldest first: when an array of as many times lies
    /// beside it in the same object (``timesNames``: CloudWatch's `Timestamps` beside its
    /// `Values`, newest first unless asked otherwise), in the order of those times.
    public init?(at pointer: JSONPointer, in item: JSONValue) {
        guard let value = item.value(at: pointer) else { return nil }
        if let elements = value.arrayValue, Self.isNewestFirst(beside: pointer, in: item, count: elements.count) {
            self.init(.array(elements.reversed()))
        } else {
            self.init(value)
        }
    }

    /// Names of an array of a series' times sent beside it, lower-cased.
    public static let timesNames: Set<String> = ["timestamps", "times", "timestamp", "time", "dates"]

    /// The member beside `pointer` in `item` that holds `count` times (``timesNames``, any
    /// case), if there is one.
    public static func times(beside pointer: JSONPointer, in item: JSONValue, count: Int) -> [JSONValue]? {
        guard count >= minimumPoints, let parent = pointer.parent, case .object(let members)? = item.value(at: parent)
        else { return nil }
        for (name, member) in members.prefix(64)
        where name != pointer.tokens.last && timesNames.contains(name.lowercased()) {
            if let times = member.arrayValue, times.count == count { return times }
        }
        return nil
    }

    /// Whether the times beside the series at `pointer` (``times(beside:in:count:)``) run
    /// from the newest to the oldest: its first later than its last.
    static func isNewestFirst(beside pointer: JSONPointer, in item: JSONValue, count: Int) -> Bool {
        guard let times = times(beside: pointer, in: item, count: count), let first = times.first,
            let last = times.last
        else { return false }
        func moment(_ time: JSONValue) -> Double? {
            if let number = time.doubleValue { return number }
            return time.stringValue.flatMap { WallTime(feedTime: $0) }.map { Double($0.microseconds) }
        }
        guard let newest = moment(first), let oldest = moment(last) else { return false }
        return newest > oldest
    }

    /// The newest reading that is a number.
    public var latest: Double? {
        values.last { $0 != nil } ?? nil
    }

    /// Whether `value` is a series made of `[time, value]` or `[value, time]` pairs, which
    /// nothing else looks like, unlike a short array of numbers (a point's coordinates).
    public static func isTimed(_ value: JSONValue) -> Bool {
        guard let elements = value.arrayValue, elements.count >= minimumPoints else { return false }
        let kept = elements.suffix(maximumPoints)
        return pairs(kept, timeAt: 0) != nil || pairs(kept, timeAt: 1) != nil
    }

    /// The values of `elements` when every one is a pair with a time at `timeAt`; a value
    /// is a number, a number sent as text, or `null`.
    private static func pairs(_ elements: ArraySlice<JSONValue>, timeAt: Int) -> [Double?]? {
        var values: [Double?] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let pair = element.arrayValue, pair.count == 2, let time = pair[timeAt].doubleValue, time > 1e9
            else { return nil }
            switch pair[1 - timeAt] {
            case .int, .double: values.append(pair[1 - timeAt].doubleValue.flatMap { $0.isFinite ? $0 : nil })
            case .null: values.append(nil)
            case .string(let text):
                // Prometheus writes a missing reading as `"NaN"`: a gap.
                guard let number = Double(text) else { return nil }
                values.append(number.isFinite ? number : nil)
            default: return nil
            }
        }
        return values
    }
}
