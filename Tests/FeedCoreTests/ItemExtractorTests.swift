import FeedCore
import Testing

/// Sample documents shaped like the real feeds (trimmed), quirks included.
enum ItemSamples {
    /// The NYT Times Newswire API (`/svc/news/v3/content/all/all.json`), with the quirks
    /// real responses have: `""` for empty facets and sometimes for `multimedia`, missing
    /// fields, `http:` image URLs, numbers where strings are expected, `null`s.
    static let nyt = #"""
        {
          "status": "OK",
          "copyright": "Copyright (c) 2024 The New York Times Company.  All Rights Reserved.",
          "num_results": 4,
          "results": [
            {
              "slug_name": "01europe-election",
              "section": "World",
              "subsection": "Europe",
              "title": "Voters in the North Head to the Polls",
              "abstract": "A close race is expected after a campaign dominated by energy prices.",
              "uri": "nyt://article/4a1b9c2e-5d6f-5e7a-8b9c-0d1e2f3a4b5c",
              "url": "https://www.nytimes.com/2024/05/01/world/europe/north-election.html",
              "byline": "By Jane Doe and Ola Nordmann",
              "thumbnail_standard": "https://static01.nyt.com/images/2024/05/01/multimedia/01europe-thumbStandard.jpg",
              "item_type": "Article",
              "source": "New York Times",
              "updated_date": "2024-05-01T10:12:03-04:00",
              "created_date": "2024-05-01T05:00:09-04:00",
              "published_date": "2024-05-01T05:00:09-04:00",
              "first_published_date": "2024-05-01T05:00:09-04:00",
              "material_type_facet": "News",
              "kicker": "",
              "subheadline": "",
              "des_facet": ["Elections"],
              "org_facet": "",
              "per_facet": ["Doe, John"],
              "geo_facet": "",
              "related_urls": [
                {"suggested_link_text": "Earlier: The Campaign Begins", "url": "https://www.nytimes.com/2024/04/01/world/europe/campaign.html"},
                {"url": "https://www.nytimes.com/2024/04/15/world/europe/debate.html"},
                {"suggested_link_text": "no url"}
              ],
              "multimedia": [
                {"url": "https://static01.nyt.com/images/2024/05/01/multimedia/01europe-thumbStandard.jpg", "format": "Standard Thumbnail", "height": 75, "width": 75, "type": "image", "subtype": "photo", "caption": "Voters queued before dawn.", "copyright": "Reuters"},
                {"url": "https://static01.nyt.com/images/2024/05/01/multimedia/01europe-superJumbo.jpg", "format": "superJumbo", "height": 1365, "width": 2048, "type": "image", "subtype": "photo", "caption": "Voters queued before dawn.", "copyright": "Reuters"}
              ]
            },
            {
              "section": "Briefing",
              "subsection": "",
              "title": "Your Wednesday Evening Briefing",
              "abstract": "",
              "url": "http://www.nytimes.com/2024/05/01/briefing/evening-briefing.html",
              "byline": "",
              "thumbnail_standard": "",
              "updated_date": "2024-05-01T17:58:00-04:00",
              "published_date": "2024-05-01T17:58:00-04:00",
              "des_facet": "",
              "org_facet": "",
              "per_facet": "",
              "geo_facet": "",
              "related_urls": null,
              "multimedia": ""
            },
            {
              "section": 2024,
              "title": 1984,
              "abstract": ["Part one", "part two", {"nested": true}],
              "uri": "nyt://interactive/9f8e7d6c-5b4a-5392-8171-6f5e4d3c2b1a",
              "byline": null,
              "published_date": "2024-05-01T09:00:00-04:00",
              "multimedia": [
                {"url": "http://static01.nyt.com/images/2024/05/01/arts/01numbers-thumbLarge.jpg", "format": "thumbLarge", "height": "150", "width": "150", "caption": null, "copyright": 42},
                {"url": "http://static01.nyt.com/images/2024/05/01/arts/01numbers-articleLarge.jpg", "format": "Normal", "height": 400.0, "width": 600.0},
                {"format": "no url here", "width": 10},
                "not an object"
              ]
            },
            "not an item",
            {
              "title": "Same uri as the first: left out",
              "uri": "nyt://article/4a1b9c2e-5d6f-5e7a-8b9c-0d1e2f3a4b5c"
            }
          ]
        }
        """#

    /// The Google Books volumes API (`/books/v1/volumes?q=…`).
    static let googleBooks = #"""
        {
          "kind": "books#volumes",
          "totalItems": 1432,
          "items": [
            {
              "kind": "books#volume",
              "id": "zyTCAlFPjgYC",
              "etag": "f0zKg75Mx/I",
              "selfLink": "https://www.googleapis.com/books/v1/volumes/zyTCAlFPjgYC",
              "volumeInfo": {
                "title": "The Google Story",
                "authors": ["David A. Vise", "Mark Malseed"],
                "publisher": "Random House Digital, Inc.",
                "publishedDate": "2005-11-15",
                "description": "Here is the story behind one of the most remarkable Internet successes of our time.",
                "pageCount": 207,
                "categories": ["Browsers (Computer programs)"],
                "imageLinks": {
                  "smallThumbnail": "http://books.google.com/books/content?id=zyTCAlFPjgYC&printsec=frontcover&img=1&zoom=5&source=gbs_api",
                  "thumbnail": "http://books.google.com/books/content?id=zyTCAlFPjgYC&printsec=frontcover&img=1&zoom=1&source=gbs_api"
                },
                "language": "en",
                "infoLink": "http://books.google.com/books?id=zyTCAlFPjgYC&source=gbs_api"
              }
            },
            {
              "kind": "books#volume",
              "id": "8U2oAAAAQBAJ",
              "volumeInfo": {
                "title": "Untitled Draft",
                "publishedDate": "2014"
              }
            }
          ]
        }
        """#

    /// Wikimedia EventStreams `recentchange`, as append mode keeps it.
    static let wikimedia = #"""
        {
          "items": [
            {
              "$schema": "/mediawiki/recentchange/1.0.0",
              "meta": {
                "uri": "https://en.wikipedia.org/wiki/Alan_Turing",
                "request_id": "2b8e7c71-8a4d-4d0e-9f1b-6f6e0b6c7d3e",
                "id": "c4a9d6f2-1b3e-4f5a-9c8d-7e6f5a4b3c2d",
                "dt": "2024-05-01T12:00:01Z",
                "domain": "en.wikipedia.org",
                "stream": "mediawiki.recentchange"
              },
              "id": 1749347218,
              "type": "edit",
              "namespace": 0,
              "title": "Alan Turing",
              "comment": "/* Early life */ fix typo",
              "timestamp": 1714564801,
              "user": "ExampleEditor",
              "bot": false,
              "minor": true,
              "length": {"old": 120345, "new": 120346},
              "server_url": "https://en.wikipedia.org",
              "wiki": "enwiki"
            },
            {
              "meta": {"dt": "2024-05-01T12:00:02Z"},
              "id": 1749347219,
              "type": "log",
              "title": "User:Someone",
              "user": "Someone",
              "wiki": "enwiki"
            }
          ]
        }
        """#
}

@Suite("Item extractor")
struct ItemExtractorTests {
    private func items(_ text: String, _ profile: ItemProfile) throws -> [FeedItem] {
        ItemExtractor(profile: profile).items(in: try JSONValue(parsing: text))
    }

    // MARK: nyt-newswire

    @Test("nyt-newswire: a complete story")
    func nytComplete() throws {
        let all = try items(ItemSamples.nyt, .nytNewswire)
        let story = try #require(all.first)
        #expect(story.key == "4a1b9c2e-5d6f-5e7a-8b9c-0d1e2f3a4b5c")
        #expect(story.title == "Voters in the North Head to the Polls")
        #expect(story.section == "World")
        #expect(story.subsection == "Europe")
        #expect(story.abstract == "A close race is expected after a campaign dominated by energy prices.")
        #expect(story.byline == "By Jane Doe and Ola Nordmann")
        #expect(story.url == "https://www.nytimes.com/2024/05/01/world/europe/north-election.html")
        #expect(story.thumbnail == "https://static01.nyt.com/images/2024/05/01/multimedia/01europe-thumbStandard.jpg")
        #expect(story.published == "2024-05-01T05:00:09-04:00")
        #expect(story.updated == "2024-05-01T10:12:03-04:00")
        #expect(story.multimedia.count == 2)
        #expect(
            story.multimedia.first
                == FeedItem.Media(
                    url: "https://static01.nyt.com/images/2024/05/01/multimedia/01europe-thumbStandard.jpg",
                    caption: "Voters queued before dawn.", credit: "Reuters", width: 75, height: 75,
                    format: "Standard Thumbnail"))
        #expect(story.multimedia.last?.width == 2048)
        #expect(
            story.related == [
                FeedItem.Link(
                    text: "Earlier: The Campaign Begins",
                    url: "https://www.nytimes.com/2024/04/01/world/europe/campaign.html"),
                FeedItem.Link(
                    text: "https://www.nytimes.com/2024/04/15/world/europe/debate.html",
                    url: "https://www.nytimes.com/2024/04/15/world/europe/debate.html"),
            ])
    }

    @Test("nyt-newswire: \"\" for facets and multimedia, empty strings, nulls and a missing uri")
    func nytEmptyQuirks() throws {
        let all = try items(ItemSamples.nyt, .nytNewswire)
        #expect(all.count == 3)
        let briefing = all[1]
        #expect(briefing.title == "Your Wednesday Evening Briefing")
        #expect(briefing.subsection == nil)
        #expect(briefing.abstract == nil)
        #expect(briefing.byline == nil)
        #expect(briefing.thumbnail == nil)
        #expect(briefing.multimedia.isEmpty)
        #expect(briefing.related.isEmpty)
        // No uri: keyed by its url (hashed, as URLs are), the same on every extraction.
        #expect(briefing.url == "http://www.nytimes.com/2024/05/01/briefing/evening-briefing.html")
        #expect(
            briefing.key
                == ItemKey.make(
                    id: .string("http://www.nytimes.com/2024/05/01/briefing/evening-briefing.html"), item: .null))
    }

    @Test("nyt-newswire: numbers where strings are expected, arrays of text, http: images")
    func nytTypeQuirks() throws {
        let odd = try items(ItemSamples.nyt, .nytNewswire)[2]
        #expect(odd.key == "9f8e7d6c-5b4a-5392-8171-6f5e4d3c2b1a")
        #expect(odd.section == "2024")
        #expect(odd.title == "1984")
        #expect(odd.abstract == "Part one, part two")
        #expect(odd.byline == nil)
        #expect(odd.url == nil)
        #expect(odd.multimedia.count == 2)
        let thumb = try #require(odd.multimedia.first)
        #expect(thumb.url == "http://static01.nyt.com/images/2024/05/01/arts/01numbers-thumbLarge.jpg")
        #expect(thumb.width == 150 && thumb.height == 150)
        #expect(thumb.caption == nil)
        #expect(thumb.credit == "42")
        #expect(odd.multimedia[1].width == 600 && odd.multimedia[1].height == 400)
        // No thumbnail_standard: the smallest image is the thumbnail, http: kept as sent.
        #expect(odd.thumbnail == "http://static01.nyt.com/images/2024/05/01/arts/01numbers-thumbLarge.jpg")
    }

    @Test("nyt-newswire: a repeated key keeps the first item; non-objects are skipped")
    func nytDuplicates() throws {
        let all = try items(ItemSamples.nyt, .nytNewswire)
        #expect(
            all.map(\.title) == ["Voters in the North Head to the Polls", "Your Wednesday Evening Briefing", "1984"])
        #expect(Set(all.map(\.key)).count == all.count)
    }

    @Test("nyt-newswire: no results, results as \"\", or no document shape at all: no items")
    func nytNoResults() throws {
        for text in [
            #"{"status":"OK","num_results":0,"results":[]}"#, #"{"status":"OK","num_results":0,"results":""}"#,
            #"{"status":"ERROR"}"#, "[]", "null", "42",
        ] {
            #expect(try items(text, .nytNewswire).isEmpty, "\(text)")
        }
    }

    @Test("the normalised JSON of an item carries the key and every field")
    func itemJSON() throws {
        let story = try #require(try items(ItemSamples.nyt, .nytNewswire).first)
        let json = story.json
        #expect(json["key"] == .string(story.key))
        #expect(json["title"] == .string("Voters in the North Head to the Polls"))
        #expect(json["thumbnail"]?.stringValue == story.thumbnail)
        #expect(json["multimedia"]?.arrayValue?.count == 2)
        #expect(json["multimedia"]?.arrayValue?.first?["width"] == .int(75))
        #expect(json["related"]?.arrayValue?.first?["text"] == .string("Earlier: The Campaign Begins"))
        let briefing = try items(ItemSamples.nyt, .nytNewswire)[1].json
        #expect(briefing["abstract"] == .null)
        #expect(briefing["multimedia"] == .array([]))
        for name in [
            "title", "section", "subsection", "abstract", "byline", "url", "thumbnail", "published", "updated",
        ] {
            #expect(briefing[name] != nil, "\(name) missing from the JSON")
        }
    }

    // MARK: google-books

    @Test("google-books: volumes with authors joined, first category, http: thumbnail")
    func googleBooks() throws {
        let all = try items(ItemSamples.googleBooks, .googleBooks)
        #expect(all.count == 2)
        let book = all[0]
        #expect(book.key == "zyTCAlFPjgYC")
        #expect(book.title == "The Google Story")
        #expect(book.byline == "David A. Vise, Mark Malseed")
        #expect(book.section == "Browsers (Computer programs)")
        #expect(book.subsection == "Random House Digital, Inc.")
        #expect(book.abstract?.hasPrefix("Here is the story") == true)
        #expect(book.url == "http://books.google.com/books?id=zyTCAlFPjgYC&source=gbs_api")
        #expect(book.thumbnail?.hasPrefix("http://books.google.com/books/content?id=zyTCAlFPjgYC") == true)
        #expect(book.published == "2005-11-15")
        let draft = all[1]
        #expect(draft.key == "8U2oAAAAQBAJ")
        #expect(draft.byline == nil && draft.thumbnail == nil && draft.section == nil)
        #expect(draft.published == "2014")
    }

    // MARK: wikimedia-recentchange

    @Test("wikimedia-recentchange: keyed by meta.id, else the numeric rc id")
    func wikimedia() throws {
        let all = try items(ItemSamples.wikimedia, .wikimediaRecentChange)
        #expect(all.count == 2)
        let edit = all[0]
        #expect(edit.key == "c4a9d6f2-1b3e-4f5a-9c8d-7e6f5a4b3c2d")
        #expect(edit.title == "Alan Turing")
        #expect(edit.section == "enwiki")
        #expect(edit.subsection == "edit")
        #expect(edit.abstract == "/* Early life */ fix typo")
        #expect(edit.byline == "ExampleEditor")
        #expect(edit.url == "https://en.wikipedia.org/wiki/Alan_Turing")
        #expect(edit.published == "2024-05-01T12:00:01Z")
        #expect(all[1].key == "1749347219")
        #expect(all[1].url == nil)
    }

    // MARK: generic

    @Test("generic: common field names; keyed by id, guid or url, else a hash of the item")
    func generic() throws {
        let text = #"""
            {"items": [
              {"id": 17, "title": "By id", "summary": "S", "author": "A", "url": "https://example.com/17",
               "image": "https://example.com/17.png", "section": "News", "published": "2024-05-01", "updated": "2024-05-02"},
              {"guid": "tag:example.com,2024:item-18", "title": "By guid"},
              {"url": "https://example.com/posts/19", "title": "By url"},
              {"title": "No id at all"}
            ]}
            """#
        let all = try items(text, .generic)
        #expect(all.count == 4)
        #expect(all[0].key == "17")
        #expect(all[0].abstract == "S" && all[0].byline == "A" && all[0].thumbnail == "https://example.com/17.png")
        #expect(all[0].section == "News" && all[0].published == "2024-05-01" && all[0].updated == "2024-05-02")
        #expect(all[1].key == ItemKey.make(id: .string("tag:example.com,2024:item-18"), item: .null))
        #expect(all[2].key == ItemKey.make(id: .string("https://example.com/posts/19"), item: .null))
        #expect(all[3].key.hasPrefix("h"))
        #expect(Set(all.map(\.key)).count == 4)
    }

    @Test("without an id, the key follows the item's content but not its member order")
    func hashKeys() throws {
        let a = try items(#"{"items":[{"title":"T","url":""}]}"#, .generic)
        let b = try items(#"{"items":[{"url":"","title":"T"}]}"#, .generic)
        let c = try items(#"{"items":[{"title":"T2","url":""}]}"#, .generic)
        #expect(a.first?.key == b.first?.key)
        #expect(a.first?.key != c.first?.key)
    }

    // MARK: overrides

    @Test("field overrides: a custom profile reads other pointers")
    func overrides() throws {
        var profile = ItemProfile.nytNewswire
        profile.fields[.title] = try JSONPointer("/headline/main")
        profile.fields[.abstract] = try JSONPointer("/lead_paragraph")
        profile.fields[.thumbnail] = try JSONPointer("/images/0/src")
        profile.fields[.byline] = nil
        profile.itemsPath = try JSONPointer("/response/docs")
        profile.keyPath = try JSONPointer("/_id")
        let text = #"""
            {"response":{"docs":[
              {"_id":"nyt://article/0b6f1d2e-3c4d-5e6f-7a8b-9c0d1e2f3a4b","headline":{"main":"Main headline"},
               "lead_paragraph":"Lead.","byline":"By Someone","section":"Arts",
               "images":[{"src":"https://example.com/a.jpg"}]}
            ]}}
            """#
        let item = try #require(try items(text, profile).first)
        #expect(item.key == "0b6f1d2e-3c4d-5e6f-7a8b-9c0d1e2f3a4b")
        #expect(item.title == "Main headline")
        #expect(item.abstract == "Lead.")
        #expect(item.byline == nil)
        #expect(item.section == "Arts")
        #expect(item.thumbnail == "https://example.com/a.jpg")
    }

    @Test("the built-in profiles by name")
    func namedProfiles() {
        #expect(
            ItemProfile.names == ["nyt-newswire", "google-books", "wikimedia-recentchange", "json-feed", "generic"])
        for name in ItemProfile.names {
            #expect(ItemProfile.named(name)?.name == name)
        }
        #expect(ItemProfile.named("nope") == nil)
        #expect(ItemProfile.nytNewswire.versionPath?.description == "/num_results")
        #expect(ItemProfile.nytNewswire.itemsPath.description == "/results")
        #expect(ItemProfile.googleBooks.itemsPath.description == "/items")
        #expect(ItemProfile.generic.versionPath == nil)
    }
}
