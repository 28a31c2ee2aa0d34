import Foundation

/// A chart mark (`--mark 'LABEL:/pointer=value'`): every added or changed item whose value
/// at ``pointer`` equals ``value`` is a notable event ``label`` on `/stats` (a marker on the
/// chart, a line in the list) and in `/api/stats`. Seed 003: `New user:/type=newuser`.
public struct ItemMark: Sendable, Equatable {
    /// What the marker is called (feed-independent text the user chose).
    public let label: String
    /// Where, within an item, the value is.
    public let pointer: JSONPointer
    /// The value that marks an item, as text: a string equal to it, or a number, `true`,
    /// `false` or `null` written as it.
    public let value: String

    public init(label: String, pointer: JSONPointer, value: String) {
        self.label = label
        self.pointer = pointer
        self.value = value
    }

    /// Why a `--mark` value is not `LABEL:/pointer=value`.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case noPointer
        case noValue
        case emptyLabel
        case invalidPointer(String)

        public var description: String {
            switch self {
            case .noPointer: return "has no ':/pointer' after the label"
            case .noValue: return "has no '=value' after the pointer"
            case .emptyLabel: return "has an empty label"
            case .invalidPointer(let reason): return "has a pointer that is not a JSON Pointer (\(reason))"
            }
        }
    }

    /// Parses `LABEL:/pointer=value`: the label runs to the first `:/`, the pointer to the
    /// next `=`, the value is the rest (it may be empty, or hold `=`).
    public init(parsing text: String) throws(ParseError) {
        guard let colon = text.range(of: ":/") else { throw .noPointer }
        let label = text[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty else { throw .emptyLabel }
        let rest = text[text.index(before: colon.upperBound)...]
        guard let equals = rest.firstIndex(of: "=") else { throw .noValue }
        let pointer: JSONPointer
        do {
            pointer = try JSONPointer(String(rest[..<equals]))
        } catch {
            throw .invalidPointer(error.description)
        }
        self.init(label: label, pointer: pointer, value: String(rest[rest.index(after: equals)...]))
    }

    /// Whether `item` (an item's JSON) is marked.
    public func matches(_ item: JSONValue) -> Bool {
        switch item.value(at: pointer) {
        case .string(let text)?: return text == value
        case .int(let number)?: return String(number) == value
        case .double(let number)?: return Double(value) == number
        case .bool(let flag)?: return (flag ? "true" : "false") == value
        case .null?: return value == "null"
        default: return false
        }
    }
}
