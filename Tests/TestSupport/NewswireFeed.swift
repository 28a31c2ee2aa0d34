import FeedCore

/// The one builder of NYT-Newswire-shaped test documents (`num_results`, `results` of
/// stories keyed by `uri`), which feedweb's default profile reads.
///
/// Story `n` is the same wherever it is built: sections cycle through ``sections``, even
/// stories have the subsection "Europe", every third has no thumbnail and no multimedia
/// (NYT's `""`), the others a thumbnail and one image served from Public/.
public enum NewswireFeed {
    public static let sections = ["World", "Arts", "Science", "Business"]

    /// Story `index`; `section`, `title` and `uri` replace the defaults.
    public static func story(_ index: Int, section: String? = nil, title: String? = nil, uri: String? = nil)
        -> JSONValue
    {
        let pictured = index % 3 != 0
        return .object([
            "section": .string(section ?? sections[index % sections.count]),
            "subsection": .string(index % 2 == 0 ? "Europe" : ""),
            "title": .string(title ?? "Story number \(index)"),
            "abstract": .string("What happened in story \(index), in one sentence."),
            "uri": .string(uri ?? "nyt://article/story-\(index)"),
            "url": .string("https://www.nytimes.com/2026/11/22/world/story-\(index).html"),
            "byline": .string("By Sam Writer"),
            "published_date": .string("2026-11-22T09:\(String(index % 60).leftPadded(2)):00-05:00"),
            "updated_date": .string("2026-11-22T09:30:00-05:00"),
            "thumbnail_standard": .string(pictured ? "/static/demo/globe.svg" : ""),
            "multimedia": pictured
                ? .array([
                    .object([
                        "url": .string("/static/demo/globe.svg"), "format": .string("superJumbo"),
                        "caption": .string("A caption for \(index)."), "copyright": .string("Photographer"),
                        "width": .int(600), "height": .int(400),
                    ])
                ])
                : .string(""),
            "related_urls": .array([
                .object(["suggested_link_text": .string("Background"), "url": .string("https://example.org/\(index)")])
            ]),
        ])
    }

    /// A document with stories `indices` in that order and `num_results` = `version`
    /// (by default the number of stories).
    public static func document(stories indices: [Int], version: Int64? = nil) -> JSONValue {
        document(indices.map { story($0) }, version: version)
    }

    /// A document with `stories` in that order and `num_results` = `version` (by default
    /// the number of stories).
    public static func document(_ stories: [JSONValue], version: Int64? = nil) -> JSONValue {
        .object([
            "status": .string("OK"),
            "num_results": .int(version ?? Int64(stories.count)),
            "results": .array(stories),
        ])
    }

    /// A document with stories `count - 1` down to `0` (newest first).
    public static func document(count: Int, version: Int64? = nil) -> JSONValue {
        document(stories: Array((0..<count).reversed()), version: version)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
