/// A strict RFC 8259 JSON parser working directly on UTF-8 bytes.
///
/// What it accepts and produces:
/// - Exactly one JSON value (any kind, scalars included) surrounded by optional whitespace;
///   whitespace is only space, tab, line feed and carriage return. Anything after the
///   value is ``JSONParseError/trailingData(offset:)``. No byte-order mark.
/// - No trailing commas, comments, single quotes, `NaN`/`Infinity`, leading `+`, leading
///   zeros (`01`), `1.` or `.5`.
/// - Numbers: a token without fraction or exponent that fits `Int64` becomes `.int`; every
///   other number becomes `.double`, correctly rounded. `-0` becomes `.double(-0.0)` so that
///   its sign survives a round trip (it still equals `.int(0)`). A number whose magnitude
///   overflows `Double` (`1e400`, `-1e400`) is rejected with
///   ``JSONParseError/numberOutOfRange(offset:)`` rather than turned into infinity, since
///   ``JSONValue`` numbers are always finite; one that underflows (`1e-400`) becomes 0.
/// - Strings: raw bytes must be well-formed UTF-8 (else ``JSONParseError/invalidUTF8(offset:)``)
///   with no raw control characters. `\uXXXX` escapes are decoded, surrogate pairs combined;
///   a lone (unpaired) surrogate escape becomes U+FFFD REPLACEMENT CHARACTER instead of
///   failing the whole document, because a Swift `String` cannot hold one.
/// - Objects: a duplicated key keeps its first position and its last value ("last wins").
/// - Nesting deeper than `maxDepth` arrays/objects (default 512) is
///   ``JSONParseError/nestingTooDeep(limit:offset:)``, not a stack overflow. Keep `maxDepth`
///   modest: parsing recurses once per level.
public enum JSONParser {
    /// The default limit on nested arrays/objects.
    public static let defaultMaxDepth = 512

    /// Parses one JSON document from raw UTF-8 bytes.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .unexpectedEndOfInput(offset: 0)
        }
        var parser = _JSONByteParser(
            base: base.assumingMemoryBound(to: UInt8.self),
            end: bytes.count,
            maxDepth: maxDepth
        )
        return try parser.parseDocument()
    }

    /// Parses one JSON document from UTF-8 bytes.
    public static func parse(
        _ bytes: [UInt8],
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                try parse(buffer, maxDepth: maxDepth)
            }
        }
        return try result.get()
    }

    /// Parses one JSON document from a string (its UTF-8 form).
    public static func parse(
        _ string: String,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        let result = string.utf8.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth)
            }
        }
        if let result { return try result.get() }
        return try parse(Array(string.utf8), maxDepth: maxDepth)
    }

    /// Parses one JSON document from any sequence of UTF-8 bytes (contiguous storage is
    /// used in place; anything else is copied into an array first).
    public static func parse(
        _ bytes: some Sequence<UInt8>,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth)
            }
        }
        if let result { return try result.get() }
        return try parse(Array(bytes), maxDepth: maxDepth)
    }
}

extension JSONValue {
    /// Parses a JSON document. See ``JSONParser`` for the exact rules.
    public init(parsing string: String) throws(JSONParseError) {
        self = try JSONParser.parse(string)
    }

    /// Parses a JSON document from UTF-8 bytes. See ``JSONParser`` for the exact rules.
    public init(parsing bytes: [UInt8]) throws(JSONParseError) {
        self = try JSONParser.parse(bytes)
    }

    /// Parses a JSON document from a sequence of UTF-8 bytes. See ``JSONParser``.
    public init(parsing bytes: some Sequence<UInt8>) throws(JSONParseError) {
        self = try JSONParser.parse(bytes)
    }
}

// MARK: - Implementation

private let asciiQuote: UInt8 = 0x22
private let asciiBackslash: UInt8 = 0x5C

/// 10^exponent for 0...22: exactly representable in a `Double` (Clinger's fast path). A
/// switch rather than a global array, which would pay a lazy-initialisation check per use.
@inline(__always)
private func exactPowerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: return 1e0
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default: return 1e22
    }
}

/// The state of one parse. Reads `end` bytes from `base`; never past them.
struct _JSONByteParser {
    let base: UnsafePointer<UInt8>
    let end: Int
    let maxDepth: Int
    var pos = 0
    var depth = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, end: Int, maxDepth: Int) {
        self.base = base
        self.end = end
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        if pos != end {
            throw .trailingData(offset: pos)
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < end {
            switch base[pos] {
            case 0x20, 0x0A, 0x0D, 0x09:
                pos &+= 1
            default:
                return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard pos < end else { throw .unexpectedEndOfInput(offset: pos) }
        switch base[pos] {
        case asciiQuote:
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return try parseObject()
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case let byte:
            throw .unexpectedByte(byte, offset: pos)
        }
    }

    @inline(__always)
    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = pos
        guard end - pos >= count else { throw .invalidLiteral(offset: start) }
        let text = literal.utf8Start
        for i in 0..<count where base[pos + i] != text[i] {
            throw .invalidLiteral(offset: start)
        }
        pos += count
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw .nestingTooDeep(limit: maxDepth, offset: pos)
        }
        pos += 1
    }

    // Elements and members of the containers being parsed are collected on these two
    // stacks (shared by all nesting levels) and moved into exactly-sized storage when the
    // container closes: one allocation per container instead of repeated growth.
    var valueStack: [JSONValue] = []
    var keyStack: [String] = []

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        skipWhitespace()
        if pos < end && base[pos] == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            return .array([])
        }
        let start = valueStack.count
        while true {
            valueStack.append(try parseValue())
            skipWhitespace()
            guard pos < end else { throw .unexpectedEndOfInput(offset: pos) }
            switch base[pos] {
            case UInt8(ascii: ","):
                pos += 1
            case UInt8(ascii: "]"):
                pos += 1
                depth -= 1
                let elements = Array(valueStack[start...])
                valueStack.removeSubrange(start...)
                return .array(elements)
            case let byte:
                throw .unexpectedByte(byte, offset: pos)
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        skipWhitespace()
        if pos < end && base[pos] == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            return .object(JSONObject())
        }
        let start = keyStack.count
        while true {
            guard pos < end else { throw .unexpectedEndOfInput(offset: pos) }
            guard base[pos] == asciiQuote else { throw .unexpectedByte(base[pos], offset: pos) }
            keyStack.append(try parseString())
            skipWhitespace()
            guard pos < end else { throw .unexpectedEndOfInput(offset: pos) }
            guard base[pos] == UInt8(ascii: ":") else {
                throw .unexpectedByte(base[pos], offset: pos)
            }
            pos += 1
            valueStack.append(try parseValue())
            skipWhitespace()
            guard pos < end else { throw .unexpectedEndOfInput(offset: pos) }
            switch base[pos] {
            case UInt8(ascii: ","):
                pos += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                pos += 1
                depth -= 1
                return .object(makeObject(keysFrom: start))
            case let byte:
                throw .unexpectedByte(byte, offset: pos)
            }
        }
    }

    /// Moves the members collected since `keyStart` into an object. Duplicate keys keep
    /// their first position and their last value.
    mutating func makeObject(keysFrom keyStart: Int) -> JSONObject {
        let count = keyStack.count - keyStart
        let valueStart = valueStack.count - count
        defer {
            keyStack.removeSubrange(keyStart...)
            valueStack.removeSubrange(valueStart...)
        }
        if count <= 15 {
            // Small objects have no hash table anyway: check for duplicates directly.
            var unique = true
            check: for i in keyStart..<(keyStart + count) {
                for j in (i + 1)..<(keyStart + count) where keyStack[i] == keyStack[j] {
                    unique = false
                    break check
                }
            }
            if unique {
                return JSONObject(
                    uncheckedUniqueKeys: keyStack[keyStart...], values: valueStack[valueStart...])
            }
        }
        var members = JSONObject(minimumCapacity: count)
        for i in 0..<count {
            members.updateValue(valueStack[valueStart + i], forKey: keyStack[keyStart + i])
        }
        return members
    }

    // MARK: Strings

    /// Parses a string; `pos` is at the opening quote. Leaves `pos` after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        pos += 1
        let start = pos
        var runStart = pos
        var escaped = false
        while true {
            // Skip 8 ordinary bytes at a time: stop at the first `"`, `\`, control or
            // non-ASCII byte (the lowest flagged byte is always a true hit).
            while pos &+ 8 <= end {
                let word = UInt64(
                    littleEndian: UnsafeRawPointer(base + pos).loadUnaligned(as: UInt64.self)
                )
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let quotes = word ^ (ones &* 0x22)
                let slashes = word ^ (ones &* 0x5C)
                let flags =
                    (((quotes &- ones) & ~quotes) | ((slashes &- ones) & ~slashes)
                        | ((word &- ones &* 0x20) & ~word) | word) & highs
                if flags == 0 {
                    pos &+= 8
                } else {
                    pos &+= flags.trailingZeroBitCount >> 3
                    break
                }
            }
            guard pos < end else { throw .unexpectedEndOfInput(offset: pos) }
            let byte = base[pos]
            if byte == asciiQuote {
                let result: String
                if escaped {
                    appendRun(from: runStart)
                    result = String(decoding: scratch, as: UTF8.self)
                } else {
                    result = String(
                        decoding: UnsafeBufferPointer(start: base + start, count: pos - start),
                        as: UTF8.self
                    )
                }
                pos += 1
                return result
            } else if byte == asciiBackslash {
                if !escaped {
                    escaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                appendRun(from: runStart)
                try decodeEscape()
                runStart = pos
            } else if byte < 0x20 {
                throw .controlCharacterInString(byte, offset: pos)
            } else if byte >= 0x80 {
                pos += try validateUTF8Sequence(lead: byte)
            } else {
                pos += 1
            }
        }
    }

    @inline(__always)
    mutating func appendRun(from runStart: Int) {
        if pos > runStart {
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: pos - runStart))
        }
    }

    /// Checks the multi-byte UTF-8 sequence starting at `pos` (whose first byte is `lead`,
    /// at least 0x80) and returns its length.
    @inline(__always)
    func validateUTF8Sequence(lead: UInt8) throws(JSONParseError) -> Int {
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3:
            length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default:
            throw .invalidUTF8(offset: pos)
        }
        guard end - pos >= length else { throw .invalidUTF8(offset: pos) }
        let second = base[pos + 1]
        guard second >= low && second <= high else { throw .invalidUTF8(offset: pos) }
        if length > 2 {
            guard base[pos + 2] & 0xC0 == 0x80 else { throw .invalidUTF8(offset: pos) }
            if length > 3 {
                guard base[pos + 3] & 0xC0 == 0x80 else { throw .invalidUTF8(offset: pos) }
            }
        }
        return length
    }

    /// Decodes the escape at `pos` (a backslash) into `scratch` and moves past it.
    mutating func decodeEscape() throws(JSONParseError) {
        let escapeStart = pos
        guard pos + 1 < end else { throw .unexpectedEndOfInput(offset: end) }
        let decoded: UInt8
        switch base[pos + 1] {
        case asciiQuote: decoded = asciiQuote
        case asciiBackslash: decoded = asciiBackslash
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            guard let unit = readHex4(at: pos + 2) else {
                throw .invalidUnicodeEscape(offset: escapeStart)
            }
            pos += 6
            var scalar = UInt32(0xFFFD)
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate: combine with an immediately following low surrogate.
                if pos + 1 < end && base[pos] == asciiBackslash && base[pos + 1] == UInt8(ascii: "u"),
                    let next = readHex4(at: pos + 2), (0xDC00...0xDFFF).contains(next)
                {
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (next - 0xDC00)
                    pos += 6
                }
            case 0xDC00...0xDFFF:
                break  // lone low surrogate: U+FFFD
            default:
                scalar = unit
            }
            appendUTF8(scalar)
            return
        default:
            throw .invalidEscape(offset: escapeStart)
        }
        scratch.append(decoded)
        pos += 2
    }

    @inline(__always)
    func readHex4(at offset: Int) -> UInt32? {
        guard end - offset >= 4 else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let c = base[offset + i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    @inline(__always)
    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(truncatingIfNeeded: 0xC0 | (scalar >> 6)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: Numbers

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Parses a number; `pos` is at its first byte (`-` or a digit).
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = pos
        var negative = false
        if base[pos] == UInt8(ascii: "-") {
            negative = true
            pos += 1
            guard pos < end else { throw .invalidNumber(offset: start) }
        }
        // Up to 19 significant digits are accumulated exactly; more means "slow path".
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var decimalExponent = 0
        var isInteger = true

        let first = base[pos]
        if first == UInt8(ascii: "0") {
            pos += 1
            if pos < end && isDigit(base[pos]) { throw .invalidNumber(offset: start) }
        } else if isDigit(first) {
            while pos < end {
                let digit = base[pos] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                } else {
                    significantDigits += 1
                    decimalExponent += 1
                }
                pos += 1
            }
        } else {
            throw .invalidNumber(offset: start)
        }

        if pos < end && base[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < end && isDigit(base[pos]) else { throw .invalidNumber(offset: start) }
            while pos < end {
                let digit = base[pos] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if mantissa == 0 && digit == 0 {
                    decimalExponent -= 1  // leading zero of the fraction: not significant
                } else if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                    decimalExponent -= 1
                } else {
                    significantDigits += 1
                }
                pos += 1
            }
        }

        if pos < end && (base[pos] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            pos += 1
            var exponentNegative = false
            if pos < end && (base[pos] == UInt8(ascii: "+") || base[pos] == UInt8(ascii: "-")) {
                exponentNegative = base[pos] == UInt8(ascii: "-")
                pos += 1
            }
            guard pos < end && isDigit(base[pos]) else { throw .invalidNumber(offset: start) }
            var exponent = 0
            while pos < end {
                let digit = base[pos] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if exponent < 1_000_000 {
                    exponent = exponent * 10 + Int(digit)
                }
                pos += 1
            }
            decimalExponent += exponentNegative ? -exponent : exponent
        }

        if isInteger && significantDigits <= 19 {
            if negative {
                if mantissa == 0 { return .double(-0.0) }
                if mantissa <= UInt64(Int64.max) + 1 {
                    return .int(Int64(truncatingIfNeeded: 0 &- mantissa))
                }
                return .double(-Double(mantissa))
            }
            if mantissa <= UInt64(Int64.max) {
                return .int(Int64(mantissa))
            }
            return .double(Double(mantissa))
        }

        if mantissa == 0 {
            return .double(negative ? -0.0 : 0.0)
        }
        // Clinger's fast path: exact mantissa and exact power of ten give a correctly
        // rounded quotient/product.
        if significantDigits <= 19 && mantissa <= 1 << 53 && decimalExponent >= -22
            && decimalExponent <= 22
        {
            var value = Double(mantissa)
            if decimalExponent < 0 {
                value /= exactPowerOfTen(-decimalExponent)
            } else {
                value *= exactPowerOfTen(decimalExponent)
            }
            return .double(negative ? -value : value)
        }
        return .double(try slowDouble(from: start))
    }

    /// Full-precision conversion through the C library (correctly rounded).
    func slowDouble(from start: Int) throws(JSONParseError) -> Double {
        let text = String(
            decoding: UnsafeBufferPointer(start: base + start, count: pos - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw .numberOutOfRange(offset: start)
        }
        return value
    }
}
