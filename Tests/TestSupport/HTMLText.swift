import Foundation

/// HTML helpers for assertions on rendered pages.
public enum HTMLText {
    /// `text` escaped the way the page templates escape feed text, written out scalar by
    /// scalar: every `& < > " '` whatever follows it (a combining mark after a quote does not
    /// shield it), C0 controls other than tab, line feed and carriage return and U+FFFE,
    /// U+FFFF replaced by U+FFFD, all else as it was. The reference `HTMLEscaping` is checked
    /// against.
    public static func escaped(_ text: String) -> String {
        var out = ""
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
        return out
    }

    /// The inner text of every `<h2 class="story-title"><a …>TEXT</a>` in order.
    public static func storyTitles(in html: String) -> [String] {
        var titles: [String] = []
        var rest = Substring(html)
        while let start = rest.range(of: "<h2 class=\"story-title\">") {
            rest = rest[start.upperBound...]
            guard let open = rest.range(of: ">"), let close = rest.range(of: "</a>") else { break }
            titles.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return titles
    }

    /// One element of a page: its tag, its attributes and its text (tags stripped, white
    /// space folded, entities left as they are).
    public struct Element: Sendable, CustomStringConvertible {
        public let tag: String
        public let attributes: [String: String]
        public let text: String
        public var description: String { "<\(tag) \(attributes)> \(text)" }
    }

    /// The element whose `id` is `id`, up to its matching end tag; `nil` if there is none.
    /// For feedweb's own templates (double-quoted attributes), not for any HTML.
    public static func element(withID id: String, in html: String) -> Element? {
        guard let idRange = html.range(of: " id=\"\(id)\"") else { return nil }
        guard let open = html[..<idRange.lowerBound].lastIndex(of: "<"),
            let headEnd = html[idRange.upperBound...].firstIndex(of: ">")
        else { return nil }
        let head = html[html.index(after: open)..<headEnd]
        let tag = String(head.prefix { $0.isLetter || $0.isNumber })
        var attributes: [String: String] = [:]
        var rest = head.dropFirst(tag.count)
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces)
            let afterEquals = rest[rest.index(after: equals)...]
            guard afterEquals.first == "\"",
                let close = afterEquals.dropFirst().firstIndex(of: "\"")
            else { break }
            attributes[name] = String(afterEquals[afterEquals.index(after: afterEquals.startIndex)..<close])
            rest = afterEquals[afterEquals.index(after: close)...]
        }
        // The content up to the matching end tag.
        var depth = 1
        var index = html.index(after: headEnd)
        let contentStart = index
        var contentEnd = html.endIndex
        while index < html.endIndex, let next = html[index...].range(of: "<") {
            let after = html[next.upperBound...]
            if after.hasPrefix("/" + tag + ">") {
                depth -= 1
                if depth == 0 {
                    contentEnd = next.lowerBound
                    break
                }
            } else if after.hasPrefix(tag + " ") || after.hasPrefix(tag + ">") {
                depth += 1
            }
            index = next.upperBound
        }
        var text = ""
        var inTag = false
        for character in html[contentStart..<contentEnd] {
            if character == "<" {
                inTag = true
                text += " "
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        let folded = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return Element(tag: tag, attributes: attributes, text: folded)
    }
}
