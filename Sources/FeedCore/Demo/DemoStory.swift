import Foundation

/// One story as the demo newswire holds it, with the little state its later edits need,
/// and its rendering as a Times Newswire `results` element.
struct DemoStory: Sendable {
    /// How a story without a picture spells its `multimedia`, as the real feed varies.
    enum NoImageStyle: Sendable {
        case emptyString, emptyArray, null
    }

    var templateIndex: Int
    var desk: DemoDesk
    var title: String
    var abstract: String
    var uri: String
    var slugName: String
    /// The URL's last path component, without `.html`; unique among the feed's URLs.
    var slug: String
    var reporters: [String]
    var created: Date
    var published: Date
    var updated: Date
    var des: [String]
    var org: [String]
    var per: [String]
    var geo: [String]
    /// Whether an empty facet is written `""` (as the real feed sometimes does) or `[]`.
    var emptyFacetsAsString: Bool
    var image: DemoImage?
    var noImageStyle: NoImageStyle
    var caption: String
    var credit: String
    /// Rendered related links: (text, absolute URL).
    var related: [(text: String, url: String)]

    // State for later edits.
    /// The correct title, while the published one carries a typo.
    var pendingTitleFix: String?
    var followUp: DemoHeadline?
    var pendingUpdateSentence: String?
    /// Colleagues who may be added to the byline.
    var spareReporters: [String]

    /// A story from `template`, with names, picture and byline drawn from `rng`; when
    /// `mayHaveTypo`, one in ten goes out with a typo in its headline.
    init(
        templateIndex: Int,
        template: DemoStoryTemplate,
        published: Date,
        mayHaveTypo: Bool,
        rng: inout DemoRandom
    ) {
        let fill = DemoStoryBank.drawFill(using: &rng)
        func f(_ s: String) -> String { DemoStoryBank.fill(s, with: fill) }
        let desk = template.desk
        let title = f(template.title)

        self.templateIndex = templateIndex
        self.desk = desk
        self.abstract = f(template.abstract)
        self.uri = "nyt://article/" + rng.uuidString()
        self.slugName =
            DemoTimestamp.dayOfMonth(published) + desk.slugCode + "-"
            + DemoStory.slugWords(title).prefix(2).joined(separator: "-")
        self.slug = DemoStory.slugWords(title).prefix(7).joined(separator: "-")
        self.published = published
        self.created = published.addingTimeInterval(-Double(rng.int(in: 0...240)))
        self.updated = published
        self.des = template.des.map(f)
        self.org = template.org.map(f)
        self.per = template.per.map(f)
        self.geo = template.geo.map(f)
        self.emptyFacetsAsString = rng.chance(1, in: 3)
        self.caption = f(template.caption)

        // About one story in six has no picture.
        self.image = rng.chance(1, in: 6) ? nil : (template.image ?? desk.image)
        self.noImageStyle = rng.pick([.emptyString, .emptyArray, .null])
        let photographer = rng.pick(DemoStoryBank.photographers)
        self.credit =
            rng.chance(1, in: 2)
            ? "\(photographer) for The New York Times" : "\(photographer)/The New York Times"

        var pool = rng.shuffled(desk.reporters)
        let bylineCount = desk == .opinion ? 1 : (rng.chance(1, in: 3) ? 2 : 1)
        self.reporters = Array(pool.prefix(bylineCount))
        pool.removeFirst(min(bylineCount, pool.count))
        self.spareReporters = desk == .opinion ? [] : pool

        self.related = template.related.map { link in
            let day = DemoTimestamp.urlDatePath(
                published.addingTimeInterval(-86_400 * Double(link.daysAgo)))
            return (link.text, "https://www.nytimes.com/\(day)/\(link.path).html")
        }
        self.followUp = template.followUp.map { .init(title: f($0.title), abstract: f($0.abstract)) }
        self.pendingUpdateSentence = rng.pick(desk.updateSentences)

        // Now and then a headline goes out with a typo that a later edit fixes.
        if mayHaveTypo, rng.chance(1, in: 10), let typo = DemoStory.misspelled(title, using: &rng) {
            self.title = typo
            self.pendingTitleFix = title
        } else {
            self.title = title
            self.pendingTitleFix = nil
        }
    }

    /// `"By A"`, `"By A and B"`, `"By A, B and C"`.
    var byline: String {
        switch reporters.count {
        case 0: return ""
        case 1: return "By \(reporters[0])"
        default:
            return "By " + reporters.dropLast().joined(separator: ", ") + " and "
                + reporters[reporters.count - 1]
        }
    }

    var url: String {
        "https://www.nytimes.com/\(DemoTimestamp.urlDatePath(published))/\(desk.urlPath)/\(slug).html"
    }

    // MARK: Edits

    /// Revises the story in place (one of the ``DemoChange/Edit`` kinds still open to
    /// it), with `updated_date` set to `now`; `nil` when nothing is left to revise.
    mutating func applyEdit(now: Date, rng: inout DemoRandom) -> DemoChange.Edit? {
        var open: [DemoChange.Edit] = []
        if pendingTitleFix != nil {
            open = [.titleCorrected]  // a typo is fixed first
        } else {
            if followUp != nil { open.append(.headlineRevised) }
            if pendingUpdateSentence != nil { open.append(.abstractUpdated) }
            if reporters.count < 3, !spareReporters.isEmpty { open.append(.bylineExpanded) }
        }
        guard !open.isEmpty else { return nil }
        let edit = rng.pick(open)
        switch edit {
        case .titleCorrected:
            title = pendingTitleFix ?? title
            pendingTitleFix = nil
        case .headlineRevised:
            if let next = followUp {
                title = next.title
                abstract = next.abstract
            }
            followUp = nil
            pendingTitleFix = nil
        case .abstractUpdated:
            if let sentence = pendingUpdateSentence { abstract += " " + sentence }
            pendingUpdateSentence = nil
        case .bylineExpanded:
            if !spareReporters.isEmpty { reporters.append(spareReporters.removeFirst()) }
        }
        updated = max(updated, now)
        return edit
    }

    // MARK: JSON

    /// The story as a Times Newswire result object, members in the real feed's order.
    var json: JSONValue {
        let imageURL = image?.url ?? ""
        let story: JSONObject = [
            "slug_name": .string(slugName),
            "section": .string(desk.section),
            "subsection": .string(desk.subsection),
            "title": .string(title),
            "abstract": .string(abstract),
            "uri": .string(uri),
            "url": .string(url),
            "byline": .string(byline),
            "item_type": .string("Article"),
            "source": .string("New York Times"),
            "updated_date": .string(DemoTimestamp.iso8601(updated)),
            "created_date": .string(DemoTimestamp.iso8601(created)),
            "published_date": .string(DemoTimestamp.iso8601(published)),
            "first_published_date": .string(DemoTimestamp.iso8601(published)),
            "material_type_facet": .string(desk.materialType),
            "kicker": .string(desk.kicker),
            "subheadline": .string(""),
            "des_facet": facet(des),
            "org_facet": facet(org),
            "per_facet": facet(per),
            "geo_facet": facet(geo),
            "thumbnail_standard": .string(imageURL),
            "multimedia": multimedia,
            "related_urls": .array(
                related.map { .object(["suggested_link_text": .string($0.text), "url": .string($0.url)]) }
            ),
        ]
        return .object(story)
    }

    private func facet(_ values: [String]) -> JSONValue {
        if values.isEmpty, emptyFacetsAsString { return .string("") }
        return .array(values.map { .string($0) })
    }

    /// The four renditions the real feed lists, all pointing at the one offline SVG.
    private var multimedia: JSONValue {
        guard let image else {
            switch noImageStyle {
            case .emptyString: return .string("")
            case .emptyArray: return .array([])
            case .null: return .null
            }
        }
        let renditions: [(format: String, height: Int64, width: Int64)] = [
            ("Standard Thumbnail", 75, 75),
            ("mediumThreeByTwo210", 140, 210),
            ("superJumbo", 1365, 2048),
            ("thumbLarge", 150, 150),
        ]
        return .array(
            renditions.map { r in
                .object([
                    "url": .string(image.url),
                    "format": .string(r.format),
                    "height": .int(r.height),
                    "width": .int(r.width),
                    "type": .string("image"),
                    "subtype": .string("photo"),
                    "caption": .string(caption),
                    "copyright": .string(credit),
                ])
            }
        )
    }

    // MARK: Text helpers

    private static let stopWords: Set<String> = [
        "a", "an", "the", "of", "in", "on", "for", "to", "and", "at", "with", "its", "is", "as", "by",
        "from", "it",
    ]

    /// The title's meaningful words, lowercased ASCII, for slugs: “Lisbon’s New Tram”
    /// gives `["lisbons", "new", "tram"]`.
    static func slugWords(_ title: String) -> [String] {
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            .lowercased()
        var words: [String] = []
        var current = ""
        for scalar in folded.unicodeScalars {
            if scalar == "'" || scalar == "\u{2019}" { continue }
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        let meaningful = words.filter { !stopWords.contains($0) }
        return meaningful.isEmpty ? ["story"] : meaningful
    }

    /// `title` with two neighbouring letters of one longer word swapped, or `nil` when it
    /// has no word to misspell.
    static func misspelled(_ title: String, using rng: inout DemoRandom) -> String? {
        var words = title.split(separator: " ", omittingEmptySubsequences: false).map { Array($0) }
        let candidates = words.indices.filter { i in
            words[i].count >= 6 && words[i].allSatisfy(\.isLetter)
                && words[i].dropFirst().allSatisfy(\.isLowercase)
        }
        guard !candidates.isEmpty else { return nil }
        let w = rng.pick(candidates)
        let letters = words[w]
        let positions = (1..<(letters.count - 2)).filter { letters[$0] != letters[$0 + 1] }
        guard !positions.isEmpty else { return nil }
        let p = rng.pick(positions)
        words[w].swapAt(p, p + 1)
        return words.map { String($0) }.joined(separator: " ")
    }
}
