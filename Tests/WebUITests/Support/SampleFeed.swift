import FeedCore

/// Small, benign NYT-shaped documents.
enum SampleFeed {
    static let sections = ["World", "Arts", "Science", "Business"]

    static func story(_ index: Int) -> JSONValue {
        .object([
            "section": .string(sections[index % sections.count]),
            "subsection": .string(index % 2 == 0 ? "Europe" : ""),
            "title": .string("Story number \(index)"),
            "abstract": .string("What happened in story \(index), in one sentence."),
            "uri": .string("nyt://article/sample-\(index)"),
            "url": .string("https://www.nytimes.com/2026/11/22/world/story-\(index).html"),
            "byline": .string("By Sam Writer"),
            "published_date": .string("2026-11-22T09:00:00-05:00"),
            "updated_date": .string("2026-11-22T09:30:00-05:00"),
            "thumbnail_standard": .string(index % 3 == 0 ? "" : "/static/demo/globe.svg"),
            "multimedia": index % 3 == 0
                ? .string("")
                : .array([
                    .object([
                        "url": .string("/static/demo/globe.svg"), "format": .string("superJumbo"),
                        "caption": .string("A caption for \(index)."), "copyright": .string("Photographer"),
                        "width": .int(600), "height": .int(400),
                    ])
                ]),
            "related_urls": .array([
                .object(["suggested_link_text": .string("Background"), "url": .string("https://example.org/\(index)")])
            ]),
        ])
    }

    static func document(count: Int, version: Int64? = nil) -> JSONValue {
        .object([
            "status": .string("OK"), "num_results": .int(version ?? Int64(count)),
            "results": .array((0..<count).reversed().map(story)),
        ])
    }
}
