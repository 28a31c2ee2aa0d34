/// One item of the published view, normalised by a profile.
///
/// Every string is as the feed sent it: hostile until the renderer escapes it. Missing
/// fields are `nil` or empty, never an error.
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
    public var multimedia: [Media]
    public var related: [Link]

    public init(key: String) {
        self.key = key
        self.multimedia = []
        self.related = []
    }

    /// The normalised item as JSON, as `/api/items` and `/events/items` carry it.
    public var json: JSONValue {
        var object = JSONObject()
        object["key"] = .string(key)
        func put(_ name: String, _ value: String?) {
            object[name] = value.map(JSONValue.string) ?? .null
        }
        put("title", title)
        put("section", section)
        put("subsection", subsection)
        put("abstract", abstract)
        put("byline", byline)
        put("url", url)
        put("thumbnail", thumbnail)
        put("published", published)
        put("updated", updated)
        object["multimedia"] = .array(
            multimedia.map { media in
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
            related.map { link in
                .object(["text": .string(link.text), "url": .string(link.url)])
            })
        return .object(object)
    }
}
