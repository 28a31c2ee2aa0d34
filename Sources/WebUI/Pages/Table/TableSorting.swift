import FeedCore

/// Orders a table's items by one value of each: numbers by their value (sent as text too:
/// `"12,400"`; a size written for people by its bytes: `"1.2gb"`; a series by its latest
/// reading; a tally by its figure), text without regard to case, then anything else; items
/// without the value last, whichever the direction. Stable: items with equal values keep
/// their feed order.
enum TableSorting {
    private enum Key: Comparable {
        case number(Double)
        case text(String)
        case other(String)
    }

    static func sorted(_ items: some Collection<FeedItem>, by column: ItemColumn, descending: Bool) -> [FeedItem] {
        var keyed: [(key: Key?, index: Int, item: FeedItem)] = []
        keyed.reserveCapacity(items.count)
        let pointer = column.pointer
        for (index, item) in items.enumerated() {
            let value = item.raw.value(at: pointer)
            // A tally (a pod's containers ready) sorts by its figure.
            if case .tally(let tally) = column.format {
                keyed.append((tally.of(value).map { .number($0.value) }, index, item))
                continue
            }
            // A condition (a node's `Ready`) sorts by its status: `False` before `True`.
            if case .condition(let type) = column.format {
                keyed.append((ItemCondition.status(in: value, type: type).map { .text($0.lowercased()) }, index, item))
                continue
            }
            keyed.append((key(value, at: pointer, in: item.raw), index, item))
        }
        keyed.sort { a, b in
            switch (a.key, b.key) {
            case (nil, nil): return a.index < b.index
            case (nil, _): return false
            case (_, nil): return true
            case (let x?, let y?):
                if x == y { return a.index < b.index }
                return descending ? x > y : x < y
            }
        }
        return keyed.map(\.item)
    }

    private static func key(_ value: JSONValue?, at pointer: JSONPointer, in item: JSONValue) -> Key? {
        switch value {
        case nil, .null?: return nil
        case .int(let number)?: return .number(Double(number))
        case .double(let number)?: return .number(number)
        case .string(let text)?:
            // A number sent as text (`"21.4"`, a spreadsheet's `"12,400"`) sorts by its value.
            if let number = ItemShapeDetector.writtenNumber(text) { return .number(number) }
            // A size written for people (`"1.2gb"`) sorts by its bytes.
            if let bytes = ItemShapeDetector.writtenSize(text) { return .number(bytes) }
            return text.isEmpty ? nil : .text(text.lowercased())
        case .bool(let flag)?: return .other(flag ? "1" : "0")
        // A series (a Prometheus range, Graphite's datapoints) sorts by its latest reading.
        case .array?:
            if let latest = ItemSeries(at: pointer, in: item)?.latest { return .number(latest) }
            return value.map { .other($0.serializedString()) }
        case let value?: return .other(value.serializedString())
        }
    }
}
