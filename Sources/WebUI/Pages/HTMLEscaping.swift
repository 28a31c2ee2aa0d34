/// Text made safe for HTML (and XML): what every template does to every `{{value}}`
/// (``TemplateEscaping``), and the fragments built in code (an SVG chart, `/inspect`'s JSON
/// tree, a table's fields).
///
/// It works on the UTF-8 bytes, so it escapes every `& < > " '` whatever follows it. An
/// escaper that walks `Character`s does not: a quote followed by a combining mark
/// (`"` U+0301) is one grapheme cluster, not equal to `"`, and would pass through and close
/// the attribute it stands in.
enum HTMLEscaping {
    /// `text` escaped for text and quoted attributes (`& < > " '`), without the characters
    /// XML 1.0 forbids even escaped (C0 controls other than tab, line feed and carriage
    /// return; U+FFFE, U+FFFF), which become U+FFFD. `text` itself (no copy) when nothing
    /// in it changes.
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            let grown = growth(of: bytes)
            guard let grown else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + grown) { out in
                write(bytes, into: out)
            }
        } ?? text
    }

    /// Appends `text`, escaped as ``escape(_:)`` does, to `out`.
    static func escape(_ text: String, into out: inout String) {
        out += escape(text)
    }

    /// How many bytes escaping `bytes` adds, or `nil` when it changes nothing.
    private static func growth(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var grown = 0
        var changes = false
        var index = 0
        while index < bytes.count {
            if let (replacement, length) = replacement(in: bytes, at: index) {
                grown += replacement.utf8CodeUnitCount - length
                changes = true
                index += length
            } else {
                index += 1
            }
        }
        return changes ? grown : nil
    }

    /// Writes `bytes` escaped into `out` (`bytes.count` plus ``growth(of:)`` bytes);
    /// returns how many it wrote. Every copy is checked against `out`'s end.
    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        var written = 0
        func copy(_ piece: UnsafeBufferPointer<UInt8>) {
            precondition(written + piece.count <= out.count, "HTMLEscaping: the escaped text outgrew its count")
            guard let base = piece.baseAddress, let target = out.baseAddress else { return }
            (target + written).update(from: base, count: piece.count)
            written += piece.count
        }
        var plainStart = 0
        var index = 0
        while index < bytes.count {
            guard let (replacement, length) = replacement(in: bytes, at: index) else {
                index += 1
                continue
            }
            copy(UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
            replacement.withUTF8Buffer { copy($0) }
            index += length
            plainStart = index
        }
        copy(UnsafeBufferPointer(rebasing: bytes[plainStart..<bytes.count]))
        return written
    }

    /// What the bytes at `index` become and how many of them it replaces, or `nil` when the
    /// byte there stays. The one table both passes read.
    @inline(__always)
    private static func replacement(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (StaticString, Int)? {
        let byte = bytes[index]
        if byte < 0x40 {
            switch byte {
            case UInt8(ascii: "&"): return ("&amp;", 1)
            case UInt8(ascii: "<"): return ("&lt;", 1)
            case UInt8(ascii: ">"): return ("&gt;", 1)
            case UInt8(ascii: "\""): return ("&quot;", 1)
            case UInt8(ascii: "'"): return ("&#39;", 1)
            case 0x09, 0x0A, 0x0D: return nil
            case 0..<0x20: return ("\u{FFFD}", 1)
            default: return nil
            }
        }
        // U+FFFE and U+FFFF: EF BF BE, EF BF BF.
        if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
            return ("\u{FFFD}", 3)
        }
        return nil
    }
}
