/// HTML helpers for assertions on rendered pages.
public enum HTMLText {
    /// `text` escaped the way the page templates escape feed text (`& < > " '`).
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
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
}
