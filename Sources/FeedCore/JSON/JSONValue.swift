import OrderedCollections

/// The members of a JSON object, in document order.
///
/// Order is kept so that a document re-broadcast downstream reads like the one upstream
/// sent; it never affects equality (see ``JSONValue``'s `==`).
public typealias JSONObject = OrderedDictionary<String, JSONValue>

/// A JSON value (RFC 8259) as feedweb holds documents in memory.
///
/// Invariants:
/// - Integers that fit in `Int64` are `.int`; every other number is `.double`
///   (always finite: the parser never produces NaN or infinity).
/// - Equality is JSON equality as RFC 6902's `test` defines it: numbers compare by
///   numeric value (`1 == 1.0`), objects compare as unordered sets of members,
///   arrays compare element by element in order.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// The member named `key` when this is an object, else `nil`.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The string when this is a string, else `nil`.
    @inlinable
    public var stringValue: String? {
        guard case .string(let s) = self else { return nil }
        return s
    }

    /// The flag when this is `true` or `false`, else `nil`.
    @inlinable
    public var boolValue: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    /// The elements when this is an array, else `nil`.
    @inlinable
    public var arrayValue: [JSONValue]? {
        guard case .array(let a) = self else { return nil }
        return a
    }

    /// The members when this is an object, else `nil`.
    @inlinable
    public var objectValue: JSONObject? {
        guard case .object(let o) = self else { return nil }
        return o
    }

    /// The number as a `Double` when this is any number, else `nil`.
    @inlinable
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The number as an `Int64` when it is integral and fits, else `nil`.
    @inlinable
    public var int64Value: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d): return Int64(exactly: d)
        default: return nil
        }
    }

    /// `true` for `.null`.
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
