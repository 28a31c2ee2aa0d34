/// Text made safe for HTML (and XML): what the templates do to every `{{value}}`, for the
/// few fragments built in code (an SVG chart, `/inspect`'s JSON tree).
enum HTMLEscaping {
    /// `text` escaped for text and quoted attributes (`& < > " '`), without the characters
    /// XML 1.0 forbids even escaped (C0 controls other than tab, line feed and carriage
    /// return; U+FFFE, U+FFFF), which become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        escape(text, into: &out)
        return out
    }

    /// Appends `text`, escaped as ``escape(_:)`` does, to `out`.
    static func escape(_ text: String, into out: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
