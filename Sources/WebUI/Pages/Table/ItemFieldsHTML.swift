import FeedCore

/// Every member of an item, as its page shows it: a list of names and values, nested
/// objects and arrays as parts that fold (`<details>`, the first level open), long arrays
/// cut after ``maxElements`` with how many more there are, http(s) URLs as links. Every
/// name and string is escaped; only URLs that pass ``URLPolicy`` become links.
enum ItemFieldsHTML {
    /// The most elements of one array shown.
    static let maxElements = 20
    /// The most nodes drawn in all (an item is not a document).
    static let maxNodes = 2000

    /// The fields of `item` (its own JSON): `<dl class="fields">…</dl>`.
    static func render(_ item: JSONValue) -> String {
        var out = ""
        var budget = maxNodes
        switch item {
        case .object(let members):
            out += "<dl class=\"fields\">"
            for (name, value) in members {
                guard budget > 0 else { break }
                entry(name: name, value, depth: 0, budget: &budget, into: &out)
            }
            out += "</dl>"
        default:
            out += "<dl class=\"fields\">"
            entry(name: "value", item, depth: 0, budget: &budget, into: &out)
            out += "</dl>"
        }
        return out
    }

    private static func entry(name: String, _ value: JSONValue, depth: Int, budget: inout Int, into out: inout String) {
        budget -= 1
        out += "<div class=\"field\" data-type=\"" + value.typeName + "\"><dt>"
        HTMLEscaping.escape(name, into: &out)
        out += "</dt><dd>"
        switch value {
        case .object(let members):
            out += depth == 0 ? "<details open>" : "<details>"
            out += "<summary>" + (members.count == 1 ? "1 field" : "\(members.count) fields") + "</summary>"
            out += "<dl class=\"fields\">"
            for (member, inner) in members {
                guard budget > 0 else { break }
                entry(name: member, inner, depth: depth + 1, budget: &budget, into: &out)
            }
            out += "</dl></details>"
        case .array(let elements):
            out += depth == 0 ? "<details open>" : "<details>"
            out += "<summary>" + (elements.count == 1 ? "1 item" : "\(elements.count) items") + "</summary>"
            out += "<dl class=\"fields\">"
            for (index, element) in elements.prefix(maxElements).enumerated() {
                guard budget > 0 else { break }
                entry(name: String(index), element, depth: depth + 1, budget: &budget, into: &out)
            }
            if elements.count > maxElements {
                out += "<div class=\"field more\"><dt>…</dt><dd>and \(elements.count - maxElements) more</dd></div>"
            }
            out += "</dl></details>"
        case .string(let text):
            if ItemShapeDetector.isHTTPURL(text), let url = URLPolicy.safeURL(text) {
                out += "<a href=\""
                HTMLEscaping.escape(url, into: &out)
                out += "\" rel=\"noopener noreferrer\" target=\"_blank\">"
                HTMLEscaping.escape(text, into: &out)
                out += "</a>"
            } else {
                HTMLEscaping.escape(text, into: &out)
            }
        default:
            HTMLEscaping.escape(value.serializedString(), into: &out)
        }
        out += "</dd></div>"
    }
}
