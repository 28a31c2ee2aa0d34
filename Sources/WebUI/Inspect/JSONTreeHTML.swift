import FeedCore

/// The document as `/inspect` shows it: a tree of nested `<details>`, one per object and
/// array, that the reader folds and unfolds (the page script keeps what was folded across
/// updates, by path).
///
/// Every node is an `<li>` with `data-type` (`object`, `array`, `string`, `number`,
/// `boolean`, `null`), `data-key` (its member name, or its index) and an id made from its
/// JSON Pointer (``id(of:)``: the page stream redraws a node alone by it,
/// ``JSONTreeChange``); a container's `<details>` carries `data-path` (the pointer). A
/// scalar's `.j-val` text is its JSON text, exactly as `/api/state` writes it, so the tree
/// reads back as the document. Every name and string is escaped. Past ``maxNodes`` nodes
/// the rest of each container is counted (`.j-more`) and the root says `data-truncated`.
enum JSONTreeHTML {
    /// The most nodes drawn.
    static let maxNodes = 5000
    /// Containers this deep or deeper start folded.
    static let openDepth = 2

    /// The tree of `document`.
    static func render(_ document: JSONValue) -> String {
        var out = ""
        var budget = maxNodes
        var truncated = false
        var body = ""
        node(document, key: nil, path: .root, depth: 0, budget: &budget, truncated: &truncated, into: &body)
        out += "<ul class=\"json-tree\" id=\"inspect-tree-root\""
        if truncated { out += " data-truncated=\"true\"" }
        out += ">" + body + "</ul>"
        return out
    }

    /// Whether `document` is drawn whole: at most ``maxNodes`` nodes, so nothing is
    /// counted instead of drawn and each container's drawing depends on itself alone.
    static func isWhole(_ document: JSONValue) -> Bool {
        var budget = maxNodes
        return fits(document, budget: &budget)
    }

    private static func fits(_ value: JSONValue, budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch value {
        case .object(let members):
            for member in members.values where !fits(member, budget: &budget) { return false }
        case .array(let elements):
            for element in elements where !fits(element, budget: &budget) { return false }
        default:
            break
        }
        return true
    }

    /// The `<li>` of the node at `path` in a document that ``isWhole(_:)``, as
    /// ``render(_:)`` draws it there (the fragment a page swaps in by ``id(of:)``).
    static func render(node value: JSONValue, at path: JSONPointer) -> String {
        var budget = Int.max
        var truncated = false
        var out = ""
        node(
            value, key: path.lastToken, path: path, depth: path.tokens.count, budget: &budget,
            truncated: &truncated, into: &out)
        return out
    }

    /// The element id of the node at `path`: `jt-` and the 64-bit FNV-1a hash of the
    /// pointer's text in hex (16 digits), the same for the same pointer in every frame.
    static func id(of path: JSONPointer) -> String {
        let hash = StaticFiles.fnv1a(Array(path.description.utf8))
        let hex = String(hash, radix: 16)
        return "jt-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func node(
        _ value: JSONValue, key: String?, path: JSONPointer, depth: Int, budget: inout Int, truncated: inout Bool,
        into out: inout String
    ) {
        budget -= 1
        out += "<li id=\"" + id(of: path) + "\" data-type=\"" + value.typeName + "\""
        if let key {
            out += " data-key=\""
            HTMLEscaping.escape(key, into: &out)
            out += "\""
        }
        out += ">"
        let label: String
        if let key {
            var escaped = ""
            HTMLEscaping.escape(key, into: &escaped)
            label = "<span class=\"j-key\">" + escaped + "</span>"
        } else {
            label = ""
        }
        switch value {
        case .object(let members):
            open(
                path: path, depth: depth, summary: label + " <span class=\"j-count\">{\(members.count)}</span>",
                into: &out)
            var shown = 0
            for (name, member) in members {
                guard budget > 0 else { break }
                node(
                    member, key: name, path: path.appending(name), depth: depth + 1, budget: &budget,
                    truncated: &truncated, into: &out)
                shown += 1
            }
            more(members.count - shown, truncated: &truncated, into: &out)
            out += "</ul></details>"
        case .array(let elements):
            open(
                path: path, depth: depth, summary: label + " <span class=\"j-count\">[\(elements.count)]</span>",
                into: &out)
            var shown = 0
            for (index, element) in elements.enumerated() {
                guard budget > 0 else { break }
                node(
                    element, key: String(index), path: path.appending(index: index), depth: depth + 1, budget: &budget,
                    truncated: &truncated, into: &out)
                shown += 1
            }
            more(elements.count - shown, truncated: &truncated, into: &out)
            out += "</ul></details>"
        default:
            if !label.isEmpty { out += label + ": " }
            out += "<span class=\"j-val\">"
            HTMLEscaping.escape(value.serializedString(), into: &out)
            out += "</span>"
        }
        out += "</li>"
    }

    private static func open(path: JSONPointer, depth: Int, summary: String, into out: inout String) {
        out += "<details data-path=\""
        HTMLEscaping.escape(path.description, into: &out)
        out += depth < openDepth ? "\" open>" : "\">"
        out += "<summary>" + summary + "</summary><ul>"
    }

    private static func more(_ count: Int, truncated: inout Bool, into out: inout String) {
        guard count > 0 else { return }
        truncated = true
        out += "<li class=\"j-more\">… \(count) more (the whole document is at /api/state)</li>"
    }

}

extension JSONValue {
    /// The value's JSON type, as `data-type` attributes name it: `object`, `array`,
    /// `string`, `number`, `boolean` or `null`.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
