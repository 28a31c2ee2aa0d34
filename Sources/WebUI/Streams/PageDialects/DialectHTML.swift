/// The little HTML the dialects write themselves, around the rendered fragments: where
/// feedweb's page script changes an element in place (a text, an attribute), a library can
/// only swap whole elements, so these are the elements as the built-in templates have them.
enum DialectHTML {
    /// The CSS selector of the element `id` (`#item-a\.b`): feedweb's ids are `item-` and a
    /// key of `A–Z a–z 0–9 - _ .`, or a fixed name; anything else is escaped.
    static func selector(id: String) -> String {
        var out = "#"
        for scalar in id.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": out.unicodeScalars.append(scalar)
            default:
                out += "\\"
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `html` with `attribute` (`name="value"`, already escaped) added to its first start
    /// tag, the fragment's root element; unchanged when it has none.
    static func adding(_ attribute: String, toRootOf html: String) -> String {
        let bytes = html.utf8
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            var end = bytes.index(after: open)
            guard end < bytes.endIndex else { break }
            let first = bytes[end]
            guard (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z") else {
                index = end
                continue
            }
            while end < bytes.endIndex, !isTagNameEnd(bytes[end]) { end = bytes.index(after: end) }
            let cut = String.Index(end, within: html) ?? html.endIndex
            return String(html[..<cut]) + " " + attribute + String(html[cut...])
        }
        return html
    }

    /// Whether `byte` ends a tag name (white space, `/` or `>`).
    private static func isTagNameEnd(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: ">")
    }

    /// The item page's `#gone` notice, shown, saying `text`.
    static func gone(_ text: String) -> String {
        "<p class=\"gone\" id=\"gone\">" + HTMLEscaping.escape(text) + "</p>"
    }

    /// The table page's `#problem` notice saying `notice`, hidden when it is empty.
    static func problem(_ notice: String) -> String {
        "<p class=\"notice\" id=\"problem\" role=\"note\"" + (notice.isEmpty ? " hidden" : "") + ">"
            + HTMLEscaping.escape(notice) + "</p>"
    }
}
