import Foundation

/// Reads ``FeedItem``s out of a document with a profile, leniently: real feeds send `""`
/// for empty arrays, numbers where strings are expected, and leave fields out.
public struct ItemExtractor: Sendable {
    public let profile: ItemProfile

    public init(profile: ItemProfile) {
        self.profile = profile
    }

    /// The items of `document` in feed order; an item whose key repeats an earlier one is
    /// left out (keys must identify items).
    public func items(in document: JSONValue) -> [FeedItem] {
        guard let array = elements(of: document.value(at: profile.itemsPath)) else { return [] }
        var seen = Set<String>()
        var items: [FeedItem] = []
        items.reserveCapacity(array.count)
        for element in array {
            guard case .object = element else { continue }
            let item = self.item(from: element)
            if seen.insert(item.key).inserted { items.append(item) }
        }
        return items
    }

    /// The JSON values the items are read from, given what the document holds at the items
    /// path, as the profile's ``ItemProfile/itemsForm`` says: an array's elements, an
    /// object's members (``memberItems(of:nameMember:)``), a series' rows
    /// (``series(of:)``) or rows of values (``rows(of:names:header:)``). `nil` when the path
    /// holds no such thing (the elements need not be objects: the items are those that are).
    public func elements(of collection: JSONValue?) -> [JSONValue]? {
        Self.elements(of: collection, form: profile.itemsForm)
    }

    /// The JSON values the items are read from in `collection`, as `form` lays them out;
    /// `nil` when it holds no such thing.
    static func elements(of collection: JSONValue?, form: ItemsForm) -> [JSONValue]? {
        switch form {
        case .elements: collection?.arrayValue
        case .members(let nameMember): Self.memberItems(of: collection, nameMember: nameMember)
        case .series: Self.series(of: collection)
        case .rows(let names, let header): Self.rows(of: collection, names: names, header: header)
        case .values(let nameMember, let valueMember):
            Self.valueItems(of: collection, nameMember: nameMember, valueMember: valueMember)
        case .texts(let valueMember): Self.textItems(of: collection, valueMember: valueMember)
        }
    }

    /// The items of an object of named values (``ItemsForm/values(nameMember:valueMember:)``):
    /// each of its ``NamedValues`` (its plain values and lists, its small objects' plain
    /// values), in the object's order, as an object of two members: the value's name under
    /// `nameMember`, the value under `valueMember`. `nil` when `value` is not an object.
    public static func valueItems(of value: JSONValue?, nameMember: String, valueMember: String) -> [JSONValue]? {
        guard case .object(let members)? = value else { return nil }
        var items: [JSONValue] = []
        items.reserveCapacity(members.count)
        NamedValues.forEach(in: members) { name, member in
            items.append(.object([nameMember: .string(name), valueMember: member]))
        }
        return items
    }

    /// The rows of an array whose elements are arrays of values (``ItemsForm/rows(names:header:)``):
    /// each such row as an object with its values under `names`, in order (values past the
    /// names are left out, names past the values absent), the first row skipped when it is
    /// the `header`. An element that is not an array is kept as it is (no item: items are
    /// objects). `nil` when `value` is not an array.
    public static func rows(of value: JSONValue?, names: [String], header: Bool) -> [JSONValue]? {
        guard case .array(let elements)? = value else { return nil }
        var rows: [JSONValue] = []
        rows.reserveCapacity(elements.count)
        for element in elements.dropFirst(header ? 1 : 0) {
            guard case .array(let values) = element else {
                rows.append(element)
                continue
            }
            var row: JSONObject = [:]
            row.reserveCapacity(min(names.count, values.count))
            for (name, value) in zip(names, values) { row[name] = value }
            rows.append(.object(row))
        }
        return rows
    }

    /// The rows of an object whose members are arrays of values (``ItemsForm/series``):
    /// row `i` is an object with each such member's element `i` under the member's name, in
    /// the object's order, as many rows as the longest array has elements (a shorter array
    /// leaves its member out of the rows past its end). Members that are not arrays are not
    /// in the rows. `nil` when `value` is not an object.
    public static func series(of value: JSONValue?) -> [JSONValue]? {
        guard case .object(let members)? = value else { return nil }
        let columns = members.compactMap { name, member in member.arrayValue.map { (name, $0) } }
        let count = columns.map(\.1.count).max() ?? 0
        var rows: [JSONValue] = []
        rows.reserveCapacity(count)
        for index in 0..<count {
            var row: JSONObject = [:]
            row.reserveCapacity(columns.count)
            for (name, values) in columns where index < values.count { row[name] = values[index] }
            rows.append(.object(row))
        }
        return rows
    }

    /// The items of an array of texts (``ItemsForm/texts(valueMember:)``): each non-empty
    /// text, in order, as an object of one member, the text under `valueMember`; other
    /// values are left out. `nil` when `value` is not an array.
    public static func textItems(of value: JSONValue?, valueMember: String) -> [JSONValue]? {
        guard case .array(let elements)? = value else { return nil }
        return elements.compactMap { element in
            guard let text = element.stringValue, !text.isEmpty else { return nil }
            return .object([valueMember: .string(text)])
        }
    }

    /// The items of an object whose members are items: each member whose value is an
    /// object, in the object's order, as that object with the member's name first under
    /// `nameMember` (in place of a member of its own by that name: the name is the item's
    /// identity). The other members' values are shared, not copied. `nil` when `value` is
    /// not an object.
    public static func memberItems(of value: JSONValue?, nameMember: String) -> [JSONValue]? {
        guard case .object(let members)? = value else { return nil }
        var items: [JSONValue] = []
        items.reserveCapacity(members.count)
        for (name, member) in members {
            if let item = memberItem(named: name, member, nameMember: nameMember) { items.append(item) }
        }
        return items
    }

    /// One member of such an object as an item (see ``memberItems(of:nameMember:)``); `nil`
    /// when `member` is not an object.
    public static func memberItem(named name: String, _ member: JSONValue, nameMember: String) -> JSONValue? {
        guard case .object(let fields) = member else { return nil }
        var item: JSONObject = [:]
        item.reserveCapacity(fields.count + 1)
        item[nameMember] = .string(name)
        for (field, value) in fields where field != nameMember { item[field] = value }
        return .object(item)
    }

    /// The most members of an object shown as text (a field that is an object).
    static let maxTextMembers = 6

    /// One item from its JSON.
    public func item(from element: JSONValue) -> FeedItem {
        var item = FeedItem(key: ItemKey.make(id: id(of: element), item: element))
        item.raw = element
        func text(_ field: ItemProfile.Field) -> String? {
            guard let pointer = profile.fields[field] else { return nil }
            let text = Self.text(element.value(at: pointer))
            // A title sent as HTML (WordPress' `title.rendered`, a Mastodon status's
            // `content`, markup by its look) is named by its text; so is one sent escaped
            // (Stack Exchange's `&quot;Sendable&quot;`).
            guard let text,
                HTMLPlainText.isHTML(at: pointer) || HTMLPlainText.isMarkup(text) || HTMLPlainText.isEscaped(text)
            else { return text }
            let plain = HTMLPlainText.plain(text)
            return plain.isEmpty ? nil : plain
        }
        // A title of several lines (a commit's message) is its first: its subject.
        item.title = text(.title).map(Self.firstLine)
        // A match: both sides' names (`Lakers – Celtics`).
        if let title = item.title, let opponent = profile.titleOpponent,
            let other = Self.text(element.value(at: opponent))
        {
            item.title = title + " – " + other
        }
        item.section = text(.section)
        item.subsection = text(.subsection)
        item.abstract = text(.abstract)
        if item.title == nil || item.abstract == nil, let body = body(of: element) {
            // A post without a title (a microblog's) or without a summary, told by its text.
            if item.title == nil, profile.fields[.title] != nil {
                let titled = ItemText.titled(body)
                item.title = titled.title
                if item.abstract == nil, profile.fields[.abstract] != nil { item.abstract = titled.abstract }
            } else if item.abstract == nil, profile.fields[.abstract] != nil {
                item.abstract = ItemText.excerpt(body)
            }
        }
        item.byline = text(.byline)
        item.url = text(.url)
        item.published = text(.published)
        item.updated = text(.updated)
        if let pointer = profile.fields[.multimedia], let list = element.value(at: pointer)?.arrayValue {
            item.multimedia = list.compactMap(Self.media)
        }
        if let pointer = profile.fields[.related], let list = element.value(at: pointer)?.arrayValue {
            item.related = list.compactMap(Self.link)
        }
        item.thumbnail = text(.thumbnail) ?? Self.thumbnail(in: item.multimedia)
        if !profile.marks.isEmpty {
            item.marks = profile.marks.filter { $0.matches(element) }.map(\.label)
        }
        return item
    }

    /// The first line of `text` that holds more than white space, trimmed; `text` itself
    /// when it is one line.
    static func firstLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        let line = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
        return line.map { String($0.trimmingCharacters(in: .whitespaces)) } ?? text
    }

    /// The item's whole text: the first of the profile's ``ItemProfile/bodyPaths`` that
    /// holds a text, as one line of plain text (``ItemText/body(_:isHTML:)``).
    func body(of element: JSONValue) -> String? {
        for pointer in profile.bodyPaths {
            guard let raw = element.value(at: pointer)?.stringValue,
                let body = ItemText.body(raw, isHTML: HTMLPlainText.isHTML(at: pointer))
            else { continue }
            return body
        }
        return nil
    }

    /// The item's id: the first usable value (a non-empty string, a number, or a non-empty
    /// object: a series' labels) at the key path or, failing that, at the fallback key paths.
    func id(of element: JSONValue) -> JSONValue? {
        for pointer in [profile.keyPath].compactMap({ $0 }) + profile.fallbackKeyPaths {
            switch element.value(at: pointer) {
            case .string(let s) where !s.isEmpty: return .string(s)
            case .int(let i): return .int(i)
            case .double(let d): return .double(d)
            case .object(let members) where !members.isEmpty: return .object(members)
            default: continue
            }
        }
        return nil
    }

    /// A display string from any scalar, from an array of scalars joined with ", ", or from
    /// a small object of scalars (a series' labels: at most ``maxTextMembers``) as its values
    /// joined the same way. Empty strings count as missing.
    static func text(_ value: JSONValue?) -> String? {
        /// The plain values among `values` as text, joined; nested arrays and objects left out.
        func joined(_ values: some Sequence<JSONValue>) -> String? {
            let parts = values.compactMap { value -> String? in
                switch value {
                case .array, .object: return nil
                default: return text(value)
                }
            }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
        switch value {
        case .object(let members): return members.count <= maxTextMembers ? joined(members.values) : nil
        case .string(let s): return s.isEmpty ? nil : s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return b ? "true" : "false"
        case .array(let elements): return joined(elements)
        default: return nil
        }
    }

    static func media(_ value: JSONValue) -> FeedItem.Media? {
        guard let url = text(value["url"]) else { return nil }
        return FeedItem.Media(
            url: url, caption: text(value["caption"]), credit: text(value["copyright"] ?? value["credit"]),
            width: dimension(value["width"]), height: dimension(value["height"]), format: text(value["format"]))
    }

    /// A pixel size from a number or a numeric string (`75`, `75.0`, `"75"`); else `nil`.
    static func dimension(_ value: JSONValue?) -> Int? {
        switch value {
        case .int(let i): return i > 0 ? Int(clamping: i) : nil
        case .double(let d): return d.isFinite && d > 0 && d < 1e9 ? Int(d) : nil
        case .string(let s): return Int(s.trimmingCharacters(in: .whitespaces)).flatMap { $0 > 0 ? $0 : nil }
        default: return nil
        }
    }

    static func link(_ value: JSONValue) -> FeedItem.Link? {
        guard let url = text(value["url"]) else { return nil }
        let label = text(value["suggested_link_text"] ?? value["text"] ?? value["title"]) ?? url
        return FeedItem.Link(text: label, url: url)
    }

    /// The best thumbnail among the images: a "Standard Thumbnail" or the smallest one.
    static func thumbnail(in media: [FeedItem.Media]) -> String? {
        if let standard = media.first(where: { $0.format == "Standard Thumbnail" }) { return standard.url }
        return media.min(by: { ($0.width ?? .max) < ($1.width ?? .max) })?.url
    }
}
