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

extension NewswireFeed {
    /// A full-size Times Newswire document: `status`, `copyright`, `num_results` and
    /// `results` (stories with multimedia, facets…), about 1.5 KB of JSON per story.
    public static func fullDocument(stories storyIDs: some Sequence<Int>) -> JSONValue {
        var stories: [JSONValue] = []
        for id in storyIDs {
            stories.append(fullStory(id))
        }
        return .object([
            "status": .string("OK"),
            "copyright": .string("Copyright (c) 2026 The New York Times Company.  All Rights Reserved."),
            "num_results": .int(Int64(stories.count)),
            "results": .array(stories),
        ])
    }

    /// Story `id` as the real Times Newswire sends it: every field, facets and three
    /// images, about 1.5 KB of JSON (for parser, diff and patch tests at realistic size).
    public static func fullStory(_ id: Int) -> JSONValue {
        func image(_ format: String, _ width: Int, _ height: Int) -> JSONValue {
            .object([
                "url": .string(
                    "https://static01.nyt.com/images/2026/11/22/multimedia/22story\(id)/22story\(id)-\(format).jpg"
                ),
                "format": .string(format),
                "height": .int(Int64(height)),
                "width": .int(Int64(width)),
                "type": .string("image"),
                "subtype": .string("photo"),
                "caption": .string("A scene from story \(id), where “something” happened — reportedly."),
                "copyright": .string("Photographer \(id) for The New York Times"),
            ])
        }
        let sections = ["U.S.", "World", "Business", "Arts", "Sports", "Opinion"]
        return .object([
            "slug_name": .string("22story-\(id)"),
            "section": .string(sections[id % sections.count]),
            "subsection": .string(id % 3 == 0 ? "" : "Politics"),
            "title": .string("Story number \(id) has a headline that is about this long"),
            "abstract": .string(
                "The abstract of story \(id) summarizes what happened, who said what, and why it matters to readers today."
            ),
            "uri": .string("nyt://article/\(id)-0000-5000-a000-000000000000"),
            "url": .string("https://www.nytimes.com/2026/11/22/us/politics/story-\(id).html"),
            "byline": .string("By Reporter \(id) and Another Reporter"),
            "item_type": .string("Article"),
            "source": .string("New York Times"),
            "updated_date": .string("2026-11-22T10:\(10 + id % 50):00-05:00"),
            "created_date": .string("2026-11-22T09:\(10 + id % 50):00-05:00"),
            "published_date": .string("2026-11-22T09:\(10 + id % 50):00-05:00"),
            "first_published_date": .string("2026-11-22T09:00:00-05:00"),
            "material_type_facet": .string(""),
            "kicker": .string(""),
            "des_facet": .array([.string("United States Politics and Government"), .string("Elections")]),
            "org_facet": .array([.string("Congress")]),
            "per_facet": .array([.string("Doe, Jane")]),
            "geo_facet": .array([]),
            "multimedia": .array([
                image("mediumThreeByTwo210", 210, 140), image("thumbLarge", 150, 150),
                image("Normal", 190, 127),
            ]),
        ])
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
