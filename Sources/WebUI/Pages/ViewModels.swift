import FeedCore
import Foundation

/// One story as the templates see it. Every string is raw feed text: the templates
/// escape it; URLs have already passed ``URLPolicy``.
struct StoryView {
    let key: String
    let domID: String
    let href: String
    let title: String
    let kicker: String?
    let abstract: String?
    let byline: String?
    let thumbnail: String?
    let placeholder: String
    let timeMachine: String?
    let timeText: String?
    let sectionHref: String?
    /// Whether each optional part is there. Stored, not computed (templates read stored
    /// values); the templates' sections test these flags rather than the strings, so the
    /// names inside a section are looked up in this view, not first in a string.
    let hasThumbnail: Bool
    let hasKicker: Bool
    let hasAbstract: Bool
    let hasByline: Bool
    let hasTime: Bool
    /// Whether the story has a picture slot: a thumbnail, or a placeholder where the
    /// profile's items usually have one (``ItemProfile/showsPlaceholder``).
    let hasMedia: Bool
    /// The item's own JSON (`{{item.price}}`).
    let item: TemplateJSON

    /// The moment a story says it is of (published, else updated): its time, said relative
    /// to `now` (``timeText``).
    static func moment(of item: FeedItem) -> Date? {
        RelativeTime.parse(item.published ?? item.updated)
    }

    /// `moment`: ``moment(of:)`` of `item` where the caller has parsed it already
    /// (`.some(nil)`: the item has none), so that it is parsed once; `nil`: parsed here.
    init(
        _ item: FeedItem, now: Date, links: PageLinks, showsPlaceholder: Bool = true,
        moment: Date?? = nil
    ) {
        key = item.key
        domID = "item-" + item.key
        href = links.item(item.key)
        title = item.title ?? "Untitled"
        let parts = [item.section, item.subsection].compactMap { $0 }
        kicker = parts.isEmpty ? nil : parts.joined(separator: " › ")
        abstract = item.abstract
        byline = item.byline
        thumbnail = links.safeURL(item.thumbnail)
        placeholder = links.placeholder
        let date = moment ?? Self.moment(of: item)
        timeMachine = date.map(RelativeTime.machine)
        timeText = date.map { RelativeTime.describe($0, now: now) }
        sectionHref = item.section.map(links.section)
        hasThumbnail = thumbnail != nil
        hasKicker = kicker != nil
        hasAbstract = abstract != nil
        hasByline = byline != nil
        hasTime = timeMachine != nil
        hasMedia = hasThumbnail || showsPlaceholder
        self.item = TemplateJSON(item.raw)
    }

    /// Percent-encodes a query value (everything but unreserved characters).
    static func queryEscape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

/// The detail page's extra parts.
struct DetailView {
    struct Image {
        let url: String
        let caption: String?
        let credit: String?
        let width: Int?
        let height: Int?
    }

    struct Link {
        let text: String
        let url: String
    }

    /// One block of a post's text, plain (escaped by the template like any value): a
    /// paragraph, a heading, or a list (its items, in order; consecutive items of the post
    /// of one kind are one list), numbered or not.
    struct Paragraph {
        /// The paragraph's or the heading's text; empty for a list.
        let text: String
        let isHeading: Bool
        let isList: Bool
        let isNumbered: Bool
        let items: [ListItem]

        init(_ block: TextBlock) {
            text = block.text
            isHeading = block.kind == .heading
            isList = false
            isNumbered = false
            items = []
        }

        init(list: [ListItem], numbered: Bool) {
            text = ""
            isHeading = false
            isList = true
            isNumbered = numbered
            items = list
        }

        /// `blocks` as the page shows them: each list item joins the list before it when
        /// that list is of its kind.
        static func grouping(_ blocks: [TextBlock]) -> [Paragraph] {
            var paragraphs: [Paragraph] = []
            var list: [ListItem] = []
            var numbered = false
            func endList() {
                if !list.isEmpty { paragraphs.append(Paragraph(list: list, numbered: numbered)) }
                list = []
            }
            for block in blocks {
                let item = block.kind == .listItem || block.kind == .numberedItem
                if !item || (block.kind == .numberedItem) != numbered { endList() }
                guard item else {
                    paragraphs.append(Paragraph(block))
                    continue
                }
                numbered = block.kind == .numberedItem
                list.append(ListItem(text: block.text))
            }
            endList()
            return paragraphs
        }
    }

    /// One item of a list in a post's text.
    struct ListItem {
        let text: String
    }

    let story: StoryView
    /// The story's abstract above its meta, `nil` where the paragraphs below begin with it
    /// (an abstract taken from the post's text): nothing is said twice.
    let lede: String?
    /// The post's whole text (a JSON Feed post's `content_html`), past what its title says.
    let paragraphs: [Paragraph]
    /// Stored, not computed: templates read stored values (TemplateValues.swift).
    let hasBody: Bool
    /// The item's own JSON (`{{item.price}}`).
    let item: TemplateJSON
    let section: String?
    let subsection: String?
    let original: String?
    let published: String?
    let publishedMachine: String?
    let updated: String?
    let updatedMachine: String?
    let images: [Image]
    let links: [Link]
    /// Stored, not computed: templates read stored values (TemplateValues.swift).
    let hasLinks: Bool
    /// The list, the breadcrumb's first link (``PageLinks/home``).
    let homeHref: String

    /// The page of `item`; `bodyPaths` are where its profile finds a post's whole text
    /// (``ItemProfile/bodyPaths``); `titledByText`: its title was taken from that text (a
    /// post without a title of its own), so the text does not say it again.
    init(
        _ item: FeedItem, now: Date, links: PageLinks, showsPlaceholder: Bool = true,
        bodyPaths: [JSONPointer] = [], titledByText: Bool = false
    ) {
        story = StoryView(item, now: now, links: links, showsPlaceholder: showsPlaceholder)
        homeHref = links.home
        self.item = TemplateJSON(item.raw)
        let text = ItemText.blocks(of: item.raw, at: bodyPaths)
        let body = titledByText ? Self.body(text, title: item.title) : text
        (lede, paragraphs) = Self.lede(item.abstract, body: body)
        hasBody = !paragraphs.isEmpty
        section = item.section
        subsection = item.subsection
        original = links.safeURL(item.url)
        let published = RelativeTime.parse(item.published)
        let updated = RelativeTime.parse(item.updated)
        self.published = published.map { Self.long($0) } ?? item.published
        publishedMachine = published.map(RelativeTime.machine)
        self.updated = updated.map { Self.long($0) } ?? item.updated
        updatedMachine = updated.map(RelativeTime.machine)
        // The largest rendition of each distinct image, with its caption.
        var seenCaptions = Set<String>()
        var images: [Image] = []
        for media in item.multimedia.sorted(by: { ($0.width ?? 0) > ($1.width ?? 0) }) {
            guard let url = links.safeURL(media.url) else { continue }
            let identity = media.caption ?? url
            guard seenCaptions.insert(identity).inserted else { continue }
            images.append(
                Image(url: url, caption: media.caption, credit: media.credit, width: media.width, height: media.height))
        }
        self.images = images
        self.links = item.related.compactMap { link in links.safeURL(link.url).map { Link(text: link.text, url: $0) } }
        hasLinks = !self.links.isEmpty
    }

    /// `paragraphs` without the title they begin with: a title taken from a post's first
    /// sentence (``ItemText``), or its beginning where it was cut (then `…` leads on).
    static func body(_ paragraphs: [TextBlock], title: String?) -> [TextBlock] {
        guard let title, let first = paragraphs.first else { return paragraphs }
        let cut = title.hasSuffix("…")
        let stem = cut ? String(title.dropLast()) : title
        guard !stem.isEmpty, first.text.hasPrefix(stem) else { return paragraphs }
        let rest = first.text.dropFirst(stem.count).drop(while: \.isWhitespace)
        var body = paragraphs
        if rest.isEmpty { body.removeFirst() } else { body[0] = TextBlock(first.kind, (cut ? "…" : "") + rest) }
        return body
    }

    /// The lede and the paragraphs to show of `abstract` and `body`: the abstract alone when
    /// the body is that one paragraph; the body alone when the abstract is its beginning
    /// (an excerpt, or its paragraphs run together); both when they differ (a post's own
    /// summary).
    static func lede(_ abstract: String?, body: [TextBlock]) -> (String?, [Paragraph]) {
        let paragraphs = Paragraph.grouping(body)
        guard let abstract else { return (nil, paragraphs) }
        let texts = body.map(\.text)
        if texts.isEmpty || texts == [abstract] { return (abstract, []) }
        let stem = abstract.hasSuffix("…") ? String(abstract.dropLast()) : abstract
        return texts.joined(separator: " ").hasPrefix(stem) ? (nil, paragraphs) : (abstract, paragraphs)
    }

    /// "22 Nov 2026, 14:59 UTC": unambiguous on the server; the page script shows the
    /// viewer's local time instead.
    static func long(_ date: Date) -> String {
        let parts = UTCParts(date)
        return "\(parts.day) \(parts.month) \(parts.year), \(parts.clock) UTC"
    }

    /// A moment's parts in UTC as people write them: day `22`, month `Nov`, year `2026`,
    /// clock `14:59`.
    struct UTCParts {
        let day: Int
        let month: String
        let year: Int
        let clock: String

        /// Read with `gmtime_r`, as ``WallTime`` prints itself: no calendar is made per value
        /// (a table's date cells ask per row).
        init(_ date: Date) {
            let seconds = date.timeIntervalSince1970.rounded(.down)
            var time = time_t(seconds.isFinite ? max(-1e15, min(1e15, seconds)) : 0)
            var parts = tm()
            gmtime_r(&time, &parts)
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            day = Int(parts.tm_mday)
            month = months[max(0, min(11, Int(parts.tm_mon)))]
            year = Int(parts.tm_year) + 1900
            clock = String(parts.tm_hour).leftPadded(to: 2) + ":" + String(parts.tm_min).leftPadded(to: 2)
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
