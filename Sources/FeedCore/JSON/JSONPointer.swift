/// Why a string is not a JSON Pointer (RFC 6901).
public enum JSONPointerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A non-empty pointer must start with `/`.
    case missingLeadingSlash
    /// `~` must be followed by `0` or `1`; `offset` is the byte offset of the `~`.
    case invalidEscape(offset: Int)

    public var description: String {
        switch self {
        case .missingLeadingSlash:
            return "a JSON Pointer must be empty or start with \"/\""
        case .invalidEscape(let offset):
            return "invalid \"~\" escape at byte \(offset) (only ~0 and ~1 are allowed)"
        }
    }
}

/// A JSON Pointer (RFC 6901): a path of reference tokens from the root of a document.
///
/// The empty pointer (`""`, no tokens) is the whole document. `"/"` is one empty token
/// (the member named `""`). Tokens are stored unescaped; ``description`` escapes them again
/// (`~` as `~0`, `/` as `~1`).
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first.
    public var tokens: [String]

    /// The pointer to the whole document.
    public static let root = JSONPointer(tokens: [])

    /// A pointer made of already-unescaped tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the string form of a pointer (not its URI fragment form).
    public init(_ string: String) throws(JSONPointerError) {
        var tokens: [String] = []
        let utf8 = string.utf8
        guard let first = utf8.first else {
            self.tokens = []
            return
        }
        guard first == UInt8(ascii: "/") else { throw .missingLeadingSlash }
        var token: [UInt8] = []
        var needsUnescape = false
        var tokenStart = utf8.index(after: utf8.startIndex)
        var index = tokenStart
        var offset = 1
        while true {
            if index == utf8.endIndex || utf8[index] == UInt8(ascii: "/") {
                if needsUnescape {
                    tokens.append(String(decoding: token, as: UTF8.self))
                    token.removeAll(keepingCapacity: true)
                    needsUnescape = false
                } else {
                    tokens.append(String(string[tokenStart..<index]))
                }
                if index == utf8.endIndex { break }
                index = utf8.index(after: index)
                offset += 1
                tokenStart = index
                continue
            }
            let byte = utf8[index]
            if byte == UInt8(ascii: "~") {
                if !needsUnescape {
                    needsUnescape = true
                    token.append(contentsOf: utf8[tokenStart..<index])
                }
                let next = utf8.index(after: index)
                guard next != utf8.endIndex else { throw .invalidEscape(offset: offset) }
                switch utf8[next] {
                case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                default: throw .invalidEscape(offset: offset)
                }
                index = utf8.index(after: next)
                offset += 2
            } else {
                if needsUnescape { token.append(byte) }
                index = utf8.index(after: index)
                offset += 1
            }
        }
        self.tokens = tokens
    }

    /// The escaped string form, e.g. `/a~1b/~0c/0`; `""` for the root.
    public var description: String {
        var result = ""
        for token in tokens {
            result.append("/")
            if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
                for scalar in token.unicodeScalars {
                    switch scalar {
                    case "~": result.append("~0")
                    case "/": result.append("~1")
                    default: result.unicodeScalars.append(scalar)
                    }
                }
            } else {
                result.append(token)
            }
        }
        return result
    }

    /// `true` for the empty pointer (the whole document).
    public var isRoot: Bool { tokens.isEmpty }

    /// This pointer with one more token at the end.
    public func appending(_ token: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(token)
        return copy
    }

    /// This pointer with an array index appended.
    public func appending(index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// The pointer to the containing value, or `nil` for the root.
    public var parent: JSONPointer? {
        guard !tokens.isEmpty else { return nil }
        return JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// The last token, or `nil` for the root.
    public var lastToken: String? { tokens.last }

    /// `true` when `self` is a proper prefix of `other` (`other` lies strictly inside it).
    public func isProperPrefix(of other: JSONPointer) -> Bool {
        tokens.count < other.tokens.count && other.tokens.starts(with: tokens)
    }

    /// The array index a token denotes: decimal digits only, no leading zeros except `"0"`,
    /// no sign, within `Int`. `"-"` and anything else is `nil`.
    public static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first else { return nil }
        if first == UInt8(ascii: "0") {
            return utf8.count == 1 ? 0 : nil
        }
        var value = 0
        for byte in utf8 {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(digit))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }
}

extension JSONValue {
    /// The value `pointer` refers to, or `nil` if there is none. Array tokens must be
    /// canonical indices below the count (see ``JSONPointer/arrayIndex(_:)``); `-` never
    /// resolves. Tokens into scalars never resolve.
    public func value(at pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else {
                    return nil
                }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The value at the pointer in string form, or `nil` if the string is not a valid
    /// pointer or nothing is there.
    public func value(atPointer string: String) -> JSONValue? {
        guard let pointer = try? JSONPointer(string) else { return nil }
        return value(at: pointer)
    }
}
