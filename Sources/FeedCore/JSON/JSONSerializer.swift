/// Compact JSON text (RFC 8259) for a ``JSONValue``.
///
/// - No whitespace; object members in their stored order (or sorted by key's UTF-8 bytes
///   with `sortedKeys: true`, for canonical output).
/// - Strings: `"` and `\` are escaped, control characters below U+0020 use the short forms
///   `\b \f \n \r \t` where they exist and `\u00XX` otherwise; everything else (including
///   `/` and non-ASCII) is written as raw UTF-8.
/// - Integers as decimal digits. Doubles as the shortest text that reads back to the same
///   `Double` (Swift's `description`, e.g. `0.1`, `2.0`, `1e+16`, `-0.0`, `5e-324`), which is
///   always valid JSON. A non-finite double, which the parser never produces, is written as
///   `null` (as JavaScript's `JSON.stringify` does) so the output stays valid JSON.
///
/// Round trip: `JSONParser.parse(JSONSerializer.serialize(v)) == v` for every finite value.
public enum JSONSerializer {
    /// The compact UTF-8 text of `value`.
    public static func serialize(_ value: JSONValue, sortedKeys: Bool = false) -> [UInt8] {
        var writer = _JSONWriter(sortedKeys: sortedKeys)
        writer.output.reserveCapacity(1024)
        writer.write(value)
        return writer.output
    }

    /// Appends the compact UTF-8 text of `value` to `output`.
    public static func serialize(
        _ value: JSONValue, into output: inout [UInt8], sortedKeys: Bool = false
    ) {
        var writer = _JSONWriter(sortedKeys: sortedKeys)
        swap(&writer.output, &output)
        writer.write(value)
        swap(&writer.output, &output)
    }

    /// The compact text of `value` as a `String`.
    public static func serializeToString(_ value: JSONValue, sortedKeys: Bool = false) -> String {
        String(decoding: serialize(value, sortedKeys: sortedKeys), as: UTF8.self)
    }
}

extension JSONValue {
    /// The compact JSON text of this value, as UTF-8 bytes. See ``JSONSerializer``.
    public func serializedBytes(sortedKeys: Bool = false) -> [UInt8] {
        JSONSerializer.serialize(self, sortedKeys: sortedKeys)
    }

    /// The compact JSON text of this value. See ``JSONSerializer``.
    public func serializedString(sortedKeys: Bool = false) -> String {
        JSONSerializer.serializeToString(self, sortedKeys: sortedKeys)
    }
}

struct _JSONWriter {
    var output: [UInt8] = []
    let sortedKeys: Bool

    init(sortedKeys: Bool) {
        self.sortedKeys = sortedKeys
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null:
            appendLiteral("null")
        case .bool(let b):
            if b { appendLiteral("true") } else { appendLiteral("false") }
        case .int(let i):
            writeInt(i)
        case .double(let d):
            writeDouble(d)
        case .string(let s):
            writeString(s)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if sortedKeys {
                let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                var first = true
                for key in keys {
                    guard let member = members[key] else { continue }
                    if !first { output.append(UInt8(ascii: ",")) }
                    first = false
                    writeString(key)
                    output.append(UInt8(ascii: ":"))
                    write(member)
                }
            } else {
                let keys = members.keys
                let values = members.values
                for i in 0..<keys.count {
                    if i > 0 { output.append(UInt8(ascii: ",")) }
                    writeString(keys[i])
                    output.append(UInt8(ascii: ":"))
                    write(values[i])
                }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        output.append(
            contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        )
    }

    mutating func writeInt(_ value: Int64) {
        if value >= 0 && value < 10 {
            output.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        // 20 bytes hold any Int64 including the sign.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var i = 20
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "-")
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<20]))
        }
    }

    mutating func writeDouble(_ value: Double) {
        guard value.isFinite else {
            appendLiteral("null")
            return
        }
        // Swift's description is the shortest round-trip form, and is valid JSON for finite
        // values ("1e+16", "0.1", "-0.0", "5e-324").
        var text = value.description
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { writeEscaped($0) }
    }

    mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        output.append(UInt8(ascii: "\""))
        guard let base = bytes.baseAddress else {
            output.append(UInt8(ascii: "\""))
            return
        }
        let count = bytes.count
        var runStart = 0
        var i = 0
        while true {
            // Skip 8 bytes at a time while none is `"`, `\` or a control character.
            while i &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let ones: UInt64 = 0x0101_0101_0101_0101
                let quotes = word ^ (ones &* 0x22)
                let slashes = word ^ (ones &* 0x5C)
                let flags =
                    (((quotes &- ones) & ~quotes) | ((slashes &- ones) & ~slashes)
                        | ((word &- ones &* 0x20) & ~word)) & 0x8080_8080_8080_8080
                if flags == 0 {
                    i &+= 8
                } else {
                    i &+= flags.trailingZeroBitCount >> 3
                    break
                }
            }
            guard i < count else { break }
            let byte = base[i]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
                i += 1
                continue
            }
            if i > runStart {
                output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
            }
            switch byte {
            case 0x22: appendPair(UInt8(ascii: "\""))
            case 0x5C: appendPair(UInt8(ascii: "\\"))
            case 0x0A: appendPair(UInt8(ascii: "n"))
            case 0x0D: appendPair(UInt8(ascii: "r"))
            case 0x09: appendPair(UInt8(ascii: "t"))
            case 0x08: appendPair(UInt8(ascii: "b"))
            case 0x0C: appendPair(UInt8(ascii: "f"))
            default:
                let high = byte >> 4  // 0 or 1
                let low = byte & 0xF
                let lowDigit = low < 10 ? UInt8(ascii: "0") &+ low : UInt8(ascii: "a") &+ (low &- 10)
                appendPair(UInt8(ascii: "u"))
                output.append(UInt8(ascii: "0"))
                output.append(UInt8(ascii: "0"))
                output.append(UInt8(ascii: "0") &+ high)
                output.append(lowDigit)
            }
            i += 1
            runStart = i
        }
        if count > runStart {
            output.append(
                contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
        output.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    mutating func appendPair(_ escaped: UInt8) {
        output.append(UInt8(ascii: "\\"))
        output.append(escaped)
    }
}
