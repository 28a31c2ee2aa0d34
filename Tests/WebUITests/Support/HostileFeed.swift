import FeedCore

/// A NYT-shaped document whose every field carries an attack.
enum HostileFeed {
    /// Strings that must only ever appear as text.
    static let markup = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "'><svg onload=alert(1)>",
        "</title><script>alert(2)</script>",
        "<iframe src=javascript:alert(3)>",
        "{{title}} &amp; &lt;b&gt;",
        // A quote with a combining mark after it is one grapheme cluster, not a quote: an
        // escaper that walks Characters lets it through, and it closes the attribute.
        "\"\u{0301} onmouseover=alert(1) x=\"\u{0301}",
        "'\u{0301} onfocus=alert(1) autofocus x='\u{0301}",
    ]

    /// URLs that must never reach an href or src.
    static let urls = [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "&#106;avascript:alert(1)",
        "&#x6A;avascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1)",
        "//evil.example/x.png",
        "\"><script>alert(1)</script>",
        "https://ok.example/\" onerror=\"alert(1)",
    ]

    static func story(_ index: Int) -> JSONValue {
        let text = markup[index % markup.count]
        let url = urls[index % urls.count]
        return .object([
            "section": .string("World" + text),
            "subsection": .string(text),
            "title": .string("Title \(index) " + text),
            "abstract": .string("Abstract " + text),
            "uri": .string("nyt://article/hostile-\(index)"),
            "url": .string(url),
            "byline": .string("By " + text),
            "published_date": .string("2026-11-22T09:00:00-05:00"),
            "thumbnail_standard": .string(urls[(index + 1) % urls.count]),
            "multimedia": .array([
                .object([
                    // Every third story has a safe image, so its hostile caption is shown.
                    "url": .string(
                        index % 3 == 0 ? "https://images.example/\(index).jpg" : urls[(index + 2) % urls.count]),
                    "format": .string("superJumbo"),
                    "caption": .string("Caption " + text), "copyright": .string("Credit " + text),
                    "width": .int(600), "height": .int(400),
                ])
            ]),
            "related_urls": .array([
                .object([
                    "suggested_link_text": .string("Link " + text), "url": .string(urls[(index + 3) % urls.count]),
                ])
            ]),
        ])
    }

    /// Enough stories for every markup payload to meet every URL payload in every field.
    static var document: JSONValue {
        .object([
            "status": .string("OK"), "num_results": .int(Int64(urls.count * 2)),
            "results": .array((0..<(urls.count * 2)).map(story)),
        ])
    }

    /// The item keys of the hostile stories.
    static var keys: [String] {
        ItemExtractor(profile: .nytNewswire).items(in: document).map(\.key)
    }
}
