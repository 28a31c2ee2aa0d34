import Foundation

/// A chart mark (`--mark 'LABEL:/pointer=value'`, or a comparison: `'Hot:/temperature>30'`):
/// an item that comes to match it (added matching, or changed from not matching:
/// ``ItemChange/newMarks``) is a notable event ``label`` on `/stats` (a marker on the chart,
/// a line in the list), in `/api/stats`, and a screen's attention. Seed 003:
/// `New user:/type=newuser`.
public struct ItemMark: Sendable, Equatable {
    /// How the item's value is compared with ``value``.
    public enum Comparison: String, Sendable, Equatable, CaseIterable {
        /// `=`: the same string, or the same number, `true`, `false` or `null` written as it.
        case equal = "="
        /// `!=`: a value that is there and is not ``equal``.
        case notEqual = "!="
        /// `<`, `<=`, `>`, `>=`: a number (or a number sent as text, `"21.4"`, `"12,400"`)
        /// against ``value`` read as a number; anything else never matches.
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// What the marker is called (feed-independent text the user chose).
    public let label: String
    /// Where, within an item, the value is.
    public let pointer: JSONPointer
    /// The value that marks an item, as text: a string equal to it, or a number, `true`,
    /// `false` or `null` written as it; a number for the ordering comparisons.
    public let value: String
    public let comparison: Comparison
    /// ``value`` as a number, read once (`nil`: not one, and no ordering comparison matches).
    private let limit: Double?

    public init(label: String, pointer: JSONPointer, value: String, comparison: Comparison = .equal) {
        self.label = label
        self.pointer = pointer
        self.value = value
        self.comparison = comparison
        limit = ItemShapeDetector.writtenNumber(value.trimmingCharacters(in: .whitespaces))
    }

    /// Why a `--mark` value is not `LABEL:/pointer=value` (or another comparison).
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case noPointer
        case noValue
        case emptyLabel
        case invalidPointer(String)
        case notANumber(String)

        public var description: String {
            switch self {
            case .noPointer: return "has no ':/pointer' after the label"
            case .noValue: return "has no '=value' (or '!=', '<', '<=', '>', '>=' and a value) after the pointer"
            case .emptyLabel: return "has an empty label"
            case .invalidPointer(let reason): return "has a pointer that is not a JSON Pointer (\(reason))"
            case .notANumber(let value): return "compares with '\(value)', which is not a number"
            }
        }
    }

    /// Parses `LABEL:/pointer=value`: the label runs to the first `:/`, the pointer to the
    /// next `=`, `!=`, `<` or `>` (with `<=`, `>=`), the value is the rest (it may be empty
    /// after `=` and `!=`, or hold `=`; a number after the others). A pointer that holds one
    /// of those characters cannot be given this way.
    public init(parsing text: String) throws(ParseError) {
        guard let colon = text.range(of: ":/") else { throw .noPointer }
        let label = text[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty else { throw .emptyLabel }
        let rest = text[text.index(before: colon.upperBound)...]
        var found: (end: Substring.Index, comparison: Comparison, valueStart: Substring.Index)?
        var index = rest.startIndex
        while index < rest.endIndex, found == nil {
            let next = rest.index(after: index)
            let followedByEquals = next < rest.endIndex && rest[next] == "="
            switch rest[index] {
            case "=": found = (index, .equal, next)
            case "!" where followedByEquals: found = (index, .notEqual, rest.index(after: next))
            case "<": found = followedByEquals ? (index, .lessOrEqual, rest.index(after: next)) : (index, .less, next)
            case ">":
                found = followedByEquals ? (index, .greaterOrEqual, rest.index(after: next)) : (index, .greater, next)
            default: break
            }
            index = next
        }
        guard let found else { throw .noValue }
        let pointer: JSONPointer
        do {
            pointer = try JSONPointer(String(rest[..<found.end]))
        } catch {
            throw .invalidPointer(error.description)
        }
        let value = String(rest[found.valueStart...])
        self.init(label: label, pointer: pointer, value: value, comparison: found.comparison)
        switch comparison {
        case .equal, .notEqual: break
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard limit != nil else { throw .notANumber(value) }
        }
    }

    /// Whether `item` (an item's JSON) is marked.
    public func matches(_ item: JSONValue) -> Bool {
        guard let found = item.value(at: pointer) else { return false }
        switch comparison {
        case .equal: return equals(found)
        case .notEqual: return !equals(found)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let limit else { return false }
            let number: Double? =
                switch found {
                case .int, .double: found.doubleValue
                case .string(let text): ItemShapeDetector.writtenNumber(text)
                default: nil
                }
            guard let number else { return false }
            switch comparison {
            case .less: return number < limit
            case .lessOrEqual: return number <= limit
            case .greater: return number > limit
            default: return number >= limit
            }
        }
    }

    private func equals(_ found: JSONValue) -> Bool {
        switch found {
        case .string(let text): return text == value
        case .int(let number): return String(number) == value
        case .double(let number): return Double(value) == number
        case .bool(let flag): return (flag ? "true" : "false") == value
        case .null: return value == "null"
        default: return false
        }
    }
}
