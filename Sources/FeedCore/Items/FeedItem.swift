/// One item of the published view, normalised by a profile.
///
/// Every string is as the feed sent it: hostile until the renderer escapes it. Missing
/// fields are `nil` or empty, never an error.
@dynamicMemberLookup
public struct FeedItem: Sendable, Equatable {
    /// An image attached to the item.
    public struct Media: Sendable, Equatable {
        public var url: String
        public var caption: String?
        public var credit: String?
        public var width: Int?
        public var height: Int?
        public var format: String?

        public init(
            url: String, caption: String? = nil, credit: String? = nil, width: Int? = nil, height: Int? = nil,
            format: String? = nil
        ) {
            self.url = url
            self.caption = caption
            self.credit = credit
            self.width = width
            self.height = height
            self.format = format
        }
    }

    /// A related link.
    public struct Link: Sendable, Equatable {
        public var text: String
        public var url: String

        public init(text: String, url: String) {
            self.text = text
            self.url = url
        }
    }

    /// The item's fields, held in one shared, copy-on-write box: copying an item (the
    /// mirror, each published view and each item change hold the same items) is one
    /// reference count, not one per field.
    public struct Fields: Sendable, Equatable {
        /// The stable, URL-safe key used in `/items/{key}`.
        public var key: String
        public var title: String?
        public var section: String?
        public var subsection: String?
        public var abstract: String?
        public var byline: String?
        public var url: String?
        public var thumbnail: String?
        /// The publication time as the feed wrote it (usually ISO 8601).
        public var published: String?
        /// The last update time as the feed wrote it.
        public var updated: String?
        public var multimedia: [Media] = []
        public var related: [Link] = []
        /// The labels of the profile's chart marks (``ItemMark``) this item matches, in
        /// the profile's order; usually none.
        public var marks: [String] = []
        /// The item's own JSON, as the feed sent it: what a table's columns, the item page
        /// and the templates read any member from. Shared with the mirror (a reference
        /// count, not a copy); part of the item's equality, so a change to any member of it
        /// is an update.
        public var raw: JSONValue = .null
    }

    /// Invariant: `fields` is only mutated while the box is uniquely referenced (see
    /// ``modify(_:)``), so a shared box is immutable and safe to read from any thread.
    @usableFromInline
    final class Box: @unchecked Sendable {
        @usableFromInline var fields: Fields
        @usableFromInline init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline var box: Box

    public init(key: String) {
        box = Box(Fields(key: key))
    }

    public init(_ fields: Fields) {
        box = Box(fields)
    }

    /// All the fields at once.
    @inlinable
    public var fields: Fields { box.fields }

    @inlinable
    mutating func modify<T>(_ body: (inout Fields) -> T) -> T {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
        return body(&box.fields)
    }

    /// Whether both hold the same box of fields: then they are equal, without comparing a
    /// field (a shared box is never changed). `false` says nothing: equal items may sit in
    /// two boxes. What keeps an item's rendering (``==`` would compare every member of
    /// two different versions of a row).
    @inlinable
    public func sharesFields(with other: FeedItem) -> Bool {
        box === other.box
    }

    public static func == (lhs: FeedItem, rhs: FeedItem) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// Each field of ``Fields`` (`item.title`, `item.key = …`), read from the shared box and
    /// written copy-on-write. Inlinable, so a field read in another module compiles to a
    /// load, not a key-path projection at run time.
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { box.fields[keyPath: field] }
        set { modify { $0[keyPath: field] = newValue } }
    }

    /// The normalised item as JSON, as `/api/items` and `/events/items` carry it for news.
    public var json: JSONValue { json(withOwn: false) }

    /// The normalised item as JSON; with `withOwn`, its own JSON too, as the member `item`
    /// (what `/api/items` and `/events/items` carry for a table, whose values are there).
    public func json(withOwn: Bool) -> JSONValue {
        let fields = box.fields
        var object = JSONObject()
        object["key"] = .string(fields.key)
        func put(_ name: String, _ value: String?) {
            object[name] = value.map(JSONValue.string) ?? .null
        }
        put("title", fields.title)
        put("section", fields.section)
        put("subsection", fields.subsection)
        put("abstract", fields.abstract)
        put("byline", fields.byline)
        put("url", fields.url)
        put("thumbnail", fields.thumbnail)
        put("published", fields.published)
        put("updated", fields.updated)
        object["multimedia"] = .array(
            fields.multimedia.map { media in
                var m = JSONObject()
                m["url"] = .string(media.url)
                m["caption"] = media.caption.map(JSONValue.string) ?? .null
                m["credit"] = media.credit.map(JSONValue.string) ?? .null
                m["width"] = media.width.map { .int(Int64($0)) } ?? .null
                m["height"] = media.height.map { .int(Int64($0)) } ?? .null
                m["format"] = media.format.map(JSONValue.string) ?? .null
                return .object(m)
            })
        object["related"] = .array(
            fields.related.map { link in
                .object(["text": .string(link.text), "url": .string(link.url)])
            })
        if withOwn { object["item"] = fields.raw }
        return .object(object)
    }
}
