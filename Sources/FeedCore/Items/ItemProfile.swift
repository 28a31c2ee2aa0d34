/// Where a feed keeps its items and their fields, as JSON Pointers.
///
/// Built-in profiles cover the NYT Times Newswire, Google Books volumes, Wikimedia
/// EventStreams `recentchange` (append mode) and a generic shape; every pointer can be
/// overridden (`--items-path`, `--key-path`, `--version-path`, `--field NAME=/pointer`).
public struct ItemProfile: Sendable, Equatable {
    /// The fields a profile maps; their names are what `--field NAME=…` accepts.
    public enum Field: String, Sendable, CaseIterable {
        case title, section, subsection, abstract, byline, url, thumbnail
        case published, updated, multimedia, related
    }

    /// The profile's name, e.g. `nyt-newswire`.
    public var name: String
    /// The array of items in the document, or the object that holds them (``itemsForm``).
    public var itemsPath: JSONPointer
    /// How the items lie at ``itemsPath``: an array's elements (the built-in profiles'), or
    /// an object's members, a series of arrays side by side, or rows of values
    /// (``ItemsForm``). Set otherwise by ``ItemShapeDetector`` only.
    public var itemsForm: ItemsForm = .elements
    /// The name under which each item carries its member's name, for items that are an
    /// object's members (``ItemsForm/members(nameMember:)``); else `nil`.
    public var nameMember: String? { itemsForm.nameMember }
    /// An item's stable id; without one, a hash of the item is the key.
    public var keyPath: JSONPointer?
    /// Where else to look for an id when an item has none at ``keyPath`` (or there is no
    /// key path), in order: NYT items without a `uri` are keyed by their `url`. An item with
    /// an id at none of them is keyed by a hash of its JSON.
    public var fallbackKeyPaths: [JSONPointer]
    /// Where an item's whole text is, in order (a JSON Feed post's `content_text`, then its
    /// `content_html`): an item with nothing at its ``Field/title`` is titled by the text's
    /// first sentence, one with nothing at its ``Field/abstract`` summarised by the text's
    /// beginning (``ItemText``); a field the profile does not map stays empty. Empty: no
    /// item is read for its text.
    public var bodyPaths: [JSONPointer] = []
    /// The document's version number, for the guard; without one every change publishes.
    public var versionPath: JSONPointer?
    /// Field pointers, relative to an item.
    public var fields: [Field: JSONPointer]
    /// Chart marks (`--mark`): an item matching one carries its label
    /// (``FeedItem/Fields/marks``), and `/stats` marks its arrival.
    public var marks: [ItemMark] = []
    /// How the pages show the items.
    public var layout: Layout = .news
    /// The table's columns, in order (`--column`); empty: the items' own fields, read from
    /// the first items (``ItemShapeDetector/columns(of:)``), or for news the profile's fields.
    public var columns: [ItemColumn] = []
    /// Whether ``columns`` are given (`--column`): a table shows them in exactly that order.
    public var columnsAreGiven = false
    /// The table's order when the URL does not say (`--sort`); `nil`: feed order.
    public var sort: ItemSort?
    /// Whether a news item without a picture shows a placeholder in its place (feeds whose
    /// items nearly all have one: the NYT, Google Books); otherwise it has no picture slot.
    public var showsPlaceholder = true
    /// For items that are matches between two sides (a scoreboard's `home` and `away`), the
    /// other side's name: an item whose title (the home side's) and this are both there is
    /// titled `HOME – AWAY` (``ItemExtractor``). Found by ``ItemShapeDetector`` only; a
    /// `--field title=` given clears it.
    public var titleOpponent: JSONPointer?
    /// For such matches, where each side's score is (`home/score`, `away/score`): a kiosk
    /// tile is led by both, `87 – 82`. Found by ``ItemShapeDetector`` only.
    public var scores: Scores?

    /// Where a match's two scores are.
    public struct Scores: Sendable, Equatable {
        public var home: JSONPointer
        public var away: JSONPointer

        public init(home: JSONPointer, away: JSONPointer) {
            self.home = home
            self.away = away
        }
    }

    /// How the pages show a feed's items.
    public enum Layout: String, Sendable, Equatable {
        /// Stories: a title, a kicker, an abstract, a byline, a picture.
        case news
        /// A table of the items' own values (``columns``).
        case table
    }

    public init(
        name: String, itemsPath: JSONPointer, keyPath: JSONPointer?, versionPath: JSONPointer?,
        fields: [Field: JSONPointer], fallbackKeyPaths: [JSONPointer] = [], layout: Layout = .news,
        showsPlaceholder: Bool = true, bodyPaths: [JSONPointer] = []
    ) {
        self.bodyPaths = bodyPaths
        self.layout = layout
        self.showsPlaceholder = showsPlaceholder
        self.name = name
        self.itemsPath = itemsPath
        self.keyPath = keyPath
        self.fallbackKeyPaths = fallbackKeyPaths
        self.versionPath = versionPath
        self.fields = fields
    }

    /// The names `--profile` accepts.
    public static let names = ["nyt-newswire", "google-books", "wikimedia-recentchange", "json-feed", "generic"]

    /// The built-in profile called `name`, or `nil`.
    public static func named(_ name: String) -> ItemProfile? {
        switch name {
        case "nyt-newswire": return .nytNewswire
        case "google-books": return .googleBooks
        case "wikimedia-recentchange": return .wikimediaRecentChange
        case "json-feed": return .jsonFeed
        case "generic": return .generic
        default: return nil
        }
    }

    /// The NYT Times Newswire API (`/svc/news/v3/content/…`).
    public static let nytNewswire = ItemProfile(
        name: "nyt-newswire", itemsPath: pointer("/results"), keyPath: pointer("/uri"),
        versionPath: pointer("/num_results"),
        fields: [
            .title: pointer("/title"), .section: pointer("/section"), .subsection: pointer("/subsection"),
            .abstract: pointer("/abstract"), .byline: pointer("/byline"), .url: pointer("/url"),
            .thumbnail: pointer("/thumbnail_standard"), .published: pointer("/published_date"),
            .updated: pointer("/updated_date"), .multimedia: pointer("/multimedia"),
            .related: pointer("/related_urls"),
        ], fallbackKeyPaths: [pointer("/url")])

    /// The Google Books volumes API (`/books/v1/volumes?q=…`).
    public static let googleBooks = ItemProfile(
        name: "google-books", itemsPath: pointer("/items"), keyPath: pointer("/id"), versionPath: nil,
        fields: [
            .title: pointer("/volumeInfo/title"), .section: pointer("/volumeInfo/categories/0"),
            .subsection: pointer("/volumeInfo/publisher"), .abstract: pointer("/volumeInfo/description"),
            .byline: pointer("/volumeInfo/authors"), .url: pointer("/volumeInfo/infoLink"),
            .thumbnail: pointer("/volumeInfo/imageLinks/thumbnail"),
            .published: pointer("/volumeInfo/publishedDate"),
        ], fallbackKeyPaths: [pointer("/selfLink")])

    /// Wikimedia EventStreams `recentchange`, kept by append mode as `{"items": […]}`.
    public static let wikimediaRecentChange = ItemProfile(
        name: "wikimedia-recentchange", itemsPath: pointer("/items"), keyPath: pointer("/meta/id"),
        versionPath: nil,
        fields: [
            .title: pointer("/title"), .section: pointer("/wiki"), .subsection: pointer("/type"),
            .abstract: pointer("/comment"), .byline: pointer("/user"), .url: pointer("/meta/uri"),
            .published: pointer("/meta/dt"),
        ], fallbackKeyPaths: [pointer("/id")], showsPlaceholder: false)

    /// JSON Feed (jsonfeed.org, versions 1 and 1.1: a blog's or a podcast's feed as JSON):
    /// its `items`, keyed by `id`, each post's title, summary, first author (1.1's
    /// `authors`), first tag, link, image and dates.
    public static let jsonFeed = ItemProfile(
        name: "json-feed", itemsPath: pointer("/items"), keyPath: pointer("/id"), versionPath: nil,
        fields: [
            .title: pointer("/title"), .section: pointer("/tags/0"), .abstract: pointer("/summary"),
            .byline: pointer("/authors/0/name"), .url: pointer("/url"), .thumbnail: pointer("/image"),
            .published: pointer("/date_published"), .updated: pointer("/date_modified"),
        ], fallbackKeyPaths: [pointer("/url")], showsPlaceholder: false,
        bodyPaths: [pointer("/content_text"), pointer("/content_html")])

    /// A JSON Feed of version 1.0, whose post has one `author` (1.1's `authors` is a list):
    /// ``jsonFeed`` with that author's name as the byline. Recognised by its `version`.
    public static let jsonFeedVersion1: ItemProfile = {
        var profile = jsonFeed
        profile.fields[.byline] = pointer("/author/name")
        return profile
    }()

    /// Any feed with an `items` array of objects with common field names; items are keyed
    /// by `id`, `guid` or `url`, whichever they have.
    public static let generic = ItemProfile(
        name: "generic", itemsPath: pointer("/items"), keyPath: nil, versionPath: nil,
        fields: [
            .title: pointer("/title"), .section: pointer("/section"), .subsection: pointer("/subsection"),
            .abstract: pointer("/summary"), .byline: pointer("/author"), .url: pointer("/url"),
            .thumbnail: pointer("/image"), .published: pointer("/published"), .updated: pointer("/updated"),
        ], fallbackKeyPaths: [pointer("/id"), pointer("/guid"), pointer("/url")], showsPlaceholder: false)

    /// A feed of any other items, shown as a table: the base of what ``ItemShapeDetector``
    /// finds (the items' array, key, title and columns) in a feed no built-in profile reads.
    public static let table = ItemProfile(
        name: "table", itemsPath: .root, keyPath: nil, versionPath: nil, fields: [:], layout: .table,
        showsPlaceholder: false)

    private static func pointer(_ text: String) -> JSONPointer {
        // Only called with the literals above, which are valid pointers.
        (try? JSONPointer(text)) ?? JSONPointer(tokens: [])
    }
}
