/// Why ``JSONParser`` rejected its input, and the byte offset (from the start of the input,
/// counting from 0) where it noticed.
public enum JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ended where more was required (including an empty input).
    case unexpectedEndOfInput(offset: Int)
    /// A byte that cannot start or continue the construct being read (a stray character,
    /// a trailing comma, a missing `:` or `,`, `NaN`, a single quote, …).
    case unexpectedByte(UInt8, offset: Int)
    /// `true`, `false` or `null` misspelt.
    case invalidLiteral(offset: Int)
    /// A number that breaks RFC 8259's grammar (leading zeros, `1.`, `.5`, `+1`, `1e`, …);
    /// the offset is the number's first byte.
    case invalidNumber(offset: Int)
    /// A number whose magnitude does not fit a finite `Double` (e.g. `1e400`); the offset is
    /// the number's first byte.
    case numberOutOfRange(offset: Int)
    /// A raw control character (below U+0020) inside a string.
    case controlCharacterInString(UInt8, offset: Int)
    /// A backslash followed by something other than `" \ / b f n r t u`.
    case invalidEscape(offset: Int)
    /// `\u` not followed by four hexadecimal digits.
    case invalidUnicodeEscape(offset: Int)
    /// Bytes that are not well-formed UTF-8 (overlong forms, surrogates, above U+10FFFF,
    /// truncated sequences, stray continuation bytes).
    case invalidUTF8(offset: Int)
    /// More than `limit` arrays/objects nested inside each other.
    case nestingTooDeep(limit: Int, offset: Int)
    /// Something other than whitespace after the top-level value.
    case trailingData(offset: Int)

    /// The byte offset the error refers to.
    public var offset: Int {
        switch self {
        case .unexpectedEndOfInput(let o), .unexpectedByte(_, let o), .invalidLiteral(let o),
            .invalidNumber(let o), .numberOutOfRange(let o), .controlCharacterInString(_, let o),
            .invalidEscape(let o), .invalidUnicodeEscape(let o), .invalidUTF8(let o),
            .nestingTooDeep(_, let o), .trailingData(let o):
            return o
        }
    }

    public var description: String {
        switch self {
        case .unexpectedEndOfInput(let o):
            return "unexpected end of input at byte \(o)"
        case .unexpectedByte(let b, let o):
            return "unexpected \(Self.describe(b)) at byte \(o)"
        case .invalidLiteral(let o):
            return "invalid literal (expected true, false or null) at byte \(o)"
        case .invalidNumber(let o):
            return "invalid number at byte \(o)"
        case .numberOutOfRange(let o):
            return "number out of range of Double at byte \(o)"
        case .controlCharacterInString(let b, let o):
            return "unescaped control character \(Self.describe(b)) in string at byte \(o)"
        case .invalidEscape(let o):
            return "invalid escape sequence at byte \(o)"
        case .invalidUnicodeEscape(let o):
            return "invalid \\u escape (expected 4 hex digits) at byte \(o)"
        case .invalidUTF8(let o):
            return "invalid UTF-8 at byte \(o)"
        case .nestingTooDeep(let limit, let o):
            return "nesting deeper than \(limit) at byte \(o)"
        case .trailingData(let o):
            return "unexpected data after the JSON value at byte \(o)"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        let code = "0x" + (hex.count < 2 ? "0" + hex : hex)
        if byte >= 0x21 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))' (\(code))"
        }
        return "byte \(code)"
    }
}
