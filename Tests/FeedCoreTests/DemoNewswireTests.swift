import Foundation
import TestSupport
import Testing

@testable import FeedCore

// MARK: - Helpers

/// JSON equality for the tests (JSONValue has no Equatable conformance here): objects
/// compare as unordered member sets, numbers by value.
private func jsonEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { jsonEqual($0, $1) }
    case (.object(let x), .object(let y)):
        guard x.count == y.count else { return false }
        for (key, value) in x {
            guard let other = y[key], jsonEqual(value, other) else { return false }
        }
        return true
    default:
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return false
    }
}

/// 2026-11-22T14:14:05Z, i.e. 09:14:05 in New York.
private let start = Date(timeIntervalSince1970: 1_795_356_845)

/// The string at `value`, or "" when it is missing or not a string.
private func str(_ value: JSONValue?) -> String { value?.stringValue ?? "" }

private func results(_ doc: JSONValue) -> [JSONValue] { doc["results"]?.arrayValue ?? [] }
private func numResults(_ doc: JSONValue) -> Int64 { doc["num_results"]?.int64Value ?? -1 }
private func uris(_ doc: JSONValue) -> [String] {
    results(doc).compactMap { $0["uri"]?.stringValue }
}

/// Every image URL in a document (thumbnail_standard and multimedia[].url).
private func imageURLs(_ doc: JSONValue) -> [String] {
    results(doc).flatMap { story -> [String] in
        var urls: [String] = []
        if let thumb = story["thumbnail_standard"]?.stringValue, !thumb.isEmpty { urls.append(thumb) }
        for item in story["multimedia"]?.arrayValue ?? [] {
            if let url = item["url"]?.stringValue { urls.append(url) }
        }
        return urls
    }
}

/// Every string anywhere in a value.
private func allStrings(_ value: JSONValue) -> [String] {
    switch value {
    case .string(let s): return [s]
    case .array(let a): return a.flatMap(allStrings)
    case .object(let o): return o.values.flatMap(allStrings)
    default: return []
    }
}

/// `Public/demo` relative to this file: Tests/FeedCoreTests → ../../Public/demo.
private let publicDemo = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Public/demo")

private func matches(_ s: String, _ pattern: String) -> Bool {
    s.range(of: pattern, options: .regularExpression) != nil
}

private let isoPattern = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$"#

/// Runs `steps` steps of five seconds each, calling `body` with the document before,
/// the change and the document after.
private func run(
    seed: UInt64,
    steps: Int = 200,
    _ body: (_ step: Int, _ before: JSONValue, _ change: DemoChange, _ after: JSONValue, _ now: Date)
        -> Void
) {
    var wire = DemoNewswire(seed: seed, now: start)
    for step in 1...steps {
        let now = start.addingTimeInterval(Double(step) * 5)
        let before = wire.document
        let change = wire.advance(now: now)
        body(step, before, change, wire.document, now)
    }
}

// MARK: - Determinism

@Test(.onThreadsOfItsOwn) func sameSeedGivesSameDocuments() {
    var a = DemoNewswire(seed: 42, now: start)
    var b = DemoNewswire(seed: 42, now: start)
    #expect(jsonEqual(a.document, b.document))
    for step in 1...120 {
        let now = start.addingTimeInterval(Double(step) * 3)
        #expect(a.advance(now: now) == b.advance(now: now))
        #expect(jsonEqual(a.document, b.document), "documents differ at step \(step)")
    }
}

@Test func differentSeedsGiveDifferentDocuments() {
    let a = DemoNewswire(seed: 1, now: start)
    let b = DemoNewswire(seed: 2, now: start)
    #expect(!jsonEqual(a.document, b.document))
}

// MARK: - Shape

@Test func initialDocumentHasTheNewswireShape() throws {
    let wire = DemoNewswire(seed: 7, now: start)
    let doc = wire.document
    #expect(doc["status"]?.stringValue == "OK")
    #expect(
        doc["copyright"]?.stringValue
            == "Copyright (c) 2026 The New York Times Company.  All Rights Reserved.")
    #expect(numResults(doc) == 20)
    #expect(wire.capacity == 20)
    let stories = results(doc)
    #expect(stories.count == 20)
    #expect(Array(doc.objectValue?.keys ?? []) == ["status", "copyright", "num_results", "results"])

    let stringFields = [
        "slug_name", "section", "subsection", "title", "abstract", "uri", "url", "byline", "item_type",
        "source",
        "updated_date", "created_date", "published_date", "first_published_date", "material_type_facet",
        "kicker",
        "subheadline", "thumbnail_standard",
    ]
    let facetFields = ["des_facet", "org_facet", "per_facet", "geo_facet"]
    var previousPublished = "9999"
    for story in stories {
        let object = try #require(story.objectValue)
        for field in stringFields {
            #expect(object[field]?.stringValue != nil, "\(field) missing or not a string")
        }
        for field in ["title", "abstract", "section", "byline", "slug_name"] {
            #expect(!str(object[field]).isEmpty, "\(field) empty")
        }
        #expect(object["item_type"]?.stringValue == "Article")
        #expect(object["source"]?.stringValue == "New York Times")
        #expect(object["subheadline"]?.stringValue == "")
        #expect(
            matches(
                str(object["uri"]),
                #"^nyt://article/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#))
        #expect(
            matches(
                str(object["url"]),
                #"^https://www\.nytimes\.com/\d{4}/\d{2}/\d{2}/[a-z/]+/[a-z0-9-]+\.html$"#))
        #expect(str(object["byline"]).hasPrefix("By "))
        for field in ["updated_date", "created_date", "published_date", "first_published_date"] {
            #expect(matches(str(object[field]), isoPattern), "\(field) not ISO 8601 with -05:00")
        }
        let published = str(object["published_date"])
        #expect(object["first_published_date"]?.stringValue == published)
        #expect(str(object["created_date"]) <= published)
        #expect(str(object["updated_date"]) >= published)
        #expect(published < previousPublished, "results must be newest first")
        #expect(published >= "2026-11-22T02:00:00-05:00" && published <= "2026-11-22T09:14:05-05:00")
        previousPublished = published
        for field in facetFields {
            switch object[field] {
            case .string(let s): #expect(s.isEmpty, "a string facet must be empty")
            case .array(let items): #expect(items.allSatisfy { $0.stringValue != nil })
            default: Issue.record("\(field) is neither an array nor \"\"")
            }
        }
        switch object["multimedia"] {
        case .null, .string(""): #expect(object["thumbnail_standard"]?.stringValue == "")
        case .array(let items):
            #expect(items.isEmpty == (object["thumbnail_standard"]?.stringValue == ""))
            for item in items {
                let media = try #require(item.objectValue)
                #expect(
                    Array(media.keys) == [
                        "url", "format", "height", "width", "type", "subtype", "caption", "copyright",
                    ])
                #expect(media["type"]?.stringValue == "image")
                #expect(media["subtype"]?.stringValue == "photo")
                #expect(media["height"]?.int64Value != nil && media["width"]?.int64Value != nil)
                #expect(
                    ["Standard Thumbnail", "mediumThreeByTwo210", "superJumbo", "thumbLarge"]
                        .contains(str(media["format"])))
                #expect(!str(media["caption"]).isEmpty)
                #expect(!str(media["copyright"]).isEmpty)
            }
        default: Issue.record("multimedia is neither an array, \"\" nor null")
        }
        let related = try #require(object["related_urls"]?.arrayValue)
        for link in related {
            #expect(link["suggested_link_text"]?.stringValue != nil)
            #expect(str(link["url"]).hasPrefix("https://www.nytimes.com/"))
        }
    }
}

@Test func resultMembersComeInTheRealFeedsOrder() throws {
    let story = try #require(results(DemoNewswire(seed: 3, now: start).document).first?.objectValue)
    #expect(
        Array(story.keys) == [
            "slug_name", "section", "subsection", "title", "abstract", "uri", "url", "byline",
            "item_type", "source",
            "updated_date", "created_date", "published_date", "first_published_date",
            "material_type_facet",
            "kicker", "subheadline", "des_facet", "org_facet", "per_facet", "geo_facet",
            "thumbnail_standard",
            "multimedia", "related_urls",
        ])
}

@Test func initialCountIsHonoured() {
    #expect(results(DemoNewswire(seed: 1, now: start, initialCount: 5).document).count == 5)
    #expect(numResults(DemoNewswire(seed: 1, now: start, initialCount: 5).document) == 5)
    var empty = DemoNewswire(seed: 1, now: start, initialCount: 0)
    #expect(results(empty.document).isEmpty)
    for step in 1...30 {
        _ = empty.advance(now: start.addingTimeInterval(Double(step)))
        #expect(results(empty.document).count <= 1)
    }
    // More stories than the bank has templates still gives unique URIs and URLs.
    let big = DemoNewswire(seed: 9, now: start, initialCount: 250).document
    #expect(Set(uris(big)).count == 250)
    #expect(Set(results(big).compactMap { $0["url"]?.stringValue }).count == 250)
}

// MARK: - Steps

@Test(.onThreadsOfItsOwn, arguments: [1, 42, 2026] as [UInt64])
func stepsKeepTheInvariants(seed: UInt64) {
    var highest: Int64 = 20
    var previousWasRegression = false
    var kinds: Set<String> = []
    run(seed: seed) { step, before, change, after, now in
        let list = results(after)
        #expect(list.count <= 20, "list exceeds the cap at step \(step)")
        #expect(Set(uris(after)).count == list.count, "duplicate uri at step \(step)")
        let urls = list.compactMap { $0["url"]?.stringValue }
        #expect(Set(urls).count == list.count, "duplicate url at step \(step)")
        #expect(!jsonEqual(before, after), "step \(step) did not change the document")

        let n = numResults(after)
        switch change {
        case .staleRegression(let served, let latest):
            kinds.insert("stale")
            #expect(!previousWasRegression)
            #expect(n < numResults(before), "a stale regression must lower num_results")
            #expect(served == n && latest == highest)
        default:
            #expect(n > numResults(before), "num_results must grow at step \(step)")
            #expect(n > highest, "num_results must exceed every earlier value at step \(step)")
            highest = n
        }
        if case .recovered = change {
            #expect(previousWasRegression, "recovered only right after a regression")
        } else if previousWasRegression {
            Issue.record("the step after a regression must recover")
        }
        if case .staleRegression = change {
            previousWasRegression = true
        } else {
            previousWasRegression = false
        }

        let beforeURIs = Set(uris(before))
        switch change.underlying {
        case .added(let title):
            kinds.insert("added")
            #expect(list.first?["title"]?.stringValue == title)
            #expect(!beforeURIs.contains(list.first?["uri"]?.stringValue ?? ""))
            #expect(list.first?["published_date"]?.stringValue == DemoTimestamp.iso8601(now))
            #expect(list.first?["updated_date"]?.stringValue == DemoTimestamp.iso8601(now))
        case .edited(let title, _):
            kinds.insert("edited")
            let story = list.first { $0["title"]?.stringValue == title }
            #expect(story?["updated_date"]?.stringValue == DemoTimestamp.iso8601(now))
        case .removed(let title):
            kinds.insert("removed")
            #expect(!list.contains { $0["title"]?.stringValue == title })
        case .staleRegression, .recovered:
            break
        }
    }
    #expect(kinds == ["added", "edited", "removed", "stale"], "seen: \(kinds)")
}

@Test func editsKeepTheStoryInPlace() {
    var edits = 0
    run(seed: 5, steps: 300) { _, before, change, after, _ in
        guard case .edited(let title, let kind) = change else { return }
        edits += 1
        let list = results(after)
        guard let index = list.firstIndex(where: { $0["title"]?.stringValue == title }) else {
            Issue.record("edited story not found")
            return
        }
        let old = results(before)[index]
        #expect(old["uri"]?.stringValue == list[index]["uri"]?.stringValue)
        #expect(old["published_date"]?.stringValue == list[index]["published_date"]?.stringValue)
        switch kind {
        case .titleCorrected, .headlineRevised:
            #expect(old["title"]?.stringValue != title)
        case .abstractUpdated:
            #expect(old["abstract"]?.stringValue != list[index]["abstract"]?.stringValue)
        case .bylineExpanded:
            #expect(str(list[index]["byline"]).count > str(old["byline"]).count)
        }
    }
    #expect(edits > 20)
}

@Test func staleRegressionServesAnEarlierDocument() {
    var earlier: [JSONValue] = []
    var wire = DemoNewswire(seed: 11, now: start)
    earlier.append(wire.document)
    var regressions = 0
    for step in 1...400 {
        let change = wire.advance(now: start.addingTimeInterval(Double(step) * 4))
        if case .staleRegression = change {
            regressions += 1
            #expect(wire.isServingStale)
            #expect(earlier.suffix(6).dropLast().contains { jsonEqual($0, wire.document) })
        } else {
            #expect(!wire.isServingStale)
            #expect(numResults(wire.document) == wire.latestNumResults)
            earlier.append(wire.document)
        }
    }
    // About one step in 12 (an eligible step is never the one right after a regression).
    #expect((15...50).contains(regressions), "\(regressions) regressions in 400 steps")
}

@Test func changesAreMostlyNewStories() {
    var counts: [String: Int] = [:]
    run(seed: 77, steps: 600) { _, _, change, _, _ in
        switch change.underlying {
        case .added: counts["added", default: 0] += 1
        case .edited: counts["edited", default: 0] += 1
        case .removed: counts["removed", default: 0] += 1
        default: counts["stale", default: 0] += 1
        }
    }
    #expect(counts["added", default: 0] > 300)
    #expect((60...220).contains(counts["edited", default: 0]))
    #expect((15...80).contains(counts["removed", default: 0]))
}

@Test(.onThreadsOfItsOwn) func allTextIsFilledAndPlausible() {
    var texts: Set<String> = []
    run(seed: 3, steps: 300) { _, _, _, after, _ in texts.formUnion(allStrings(after)) }
    for text in texts {
        #expect(!text.contains("{") && !text.contains("}"), "unfilled placeholder in “\(text)”")
        #expect(!text.contains("  ") || text.hasPrefix("Copyright"), "double space in “\(text)”")
        #expect(
            text == text.trimmingCharacters(in: .whitespacesAndNewlines), "stray whitespace in “\(text)”")
    }
}

// MARK: - Images

@Test func imageURLsPointAtShippedSVGs() throws {
    let shipped = Set(try FileManager.default.contentsOfDirectory(atPath: publicDemo.path))
    var seen: Set<String> = []
    var withImage = 0
    var withoutImage = 0
    var urls: Set<String> = []
    run(seed: 8, steps: 200) { _, _, change, after, _ in
        urls.formUnion(imageURLs(after))
        if case .added = change.underlying, let top = results(after).first {
            if top["thumbnail_standard"]?.stringValue == "" { withoutImage += 1 } else { withImage += 1 }
        }
    }
    for url in urls {
        #expect(matches(url, #"^/static/demo/[a-z]+\.svg$"#), "\(url)")
        let name = String(url.dropFirst("/static/demo/".count))
        #expect(shipped.contains(name), "\(name) is not in Public/demo")
        seen.insert(name)
    }
    #expect(seen.count >= 10)
    // About one story in six has no picture.
    let share = Double(withoutImage) / Double(max(1, withImage + withoutImage))
    #expect(share > 0.05 && share < 0.35, "share without image: \(share)")
}

@Test func everyThumbnailIsASmallSelfContainedSVG() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: publicDemo.path).filter {
        $0.hasSuffix(".svg")
    }
    #expect((12...16).contains(files.count))
    #expect(Set(files) == Set(DemoImage.allCases.map(\.fileName)))
    for file in files {
        let data = try Data(contentsOf: publicDemo.appendingPathComponent(file))
        #expect(data.count < 2048, "\(file) is \(data.count) bytes")
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), "\(file)")
        #expect(text.contains(#"viewBox="0 0 300 200""#), "\(file)")
        for banned in ["<script", "href", "<text", "url(", "<image", "<foreignObject", "@import", "on"]
        where banned != "on" {
            #expect(!text.contains(banned), "\(file) contains \(banned)")
        }
        #expect(!matches(text, #"\son[a-z]+="#), "\(file) has an event handler")
    }
}

// MARK: - Pieces

@Test func timestampsUseAFixedNewYorkOffset() {
    #expect(DemoTimestamp.iso8601(start) == "2026-11-22T09:14:05-05:00")
    #expect(DemoTimestamp.urlDatePath(start) == "2026/11/22")
    #expect(DemoTimestamp.iso8601(Date(timeIntervalSince1970: 0)) == "1969-12-31T19:00:00-05:00")
    #expect(DemoTimestamp.iso8601(Date(timeIntervalSince1970: 0.999)) == "1969-12-31T19:00:00-05:00")
    #expect(DemoTimestamp.iso8601(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T18:59:59-05:00")
    // 2024-02-29T04:59:59Z is still Feb. 28 in New York; a leap day follows.
    #expect(
        DemoTimestamp.iso8601(Date(timeIntervalSince1970: 1_709_182_799)) == "2024-02-28T23:59:59-05:00"
    )
    #expect(
        DemoTimestamp.iso8601(Date(timeIntervalSince1970: 1_709_182_800)) == "2024-02-29T00:00:00-05:00"
    )
    #expect(
        DemoTimestamp.iso8601(Date(timeIntervalSince1970: 1_767_243_600)) == "2026-01-01T00:00:00-05:00"
    )
    #expect(DemoTimestamp.iso8601(Date(timeIntervalSince1970: .nan)) == "1969-12-31T19:00:00-05:00")
}

@Test func storyBankIsLargeAndCoversTheSections() {
    let templates = DemoStoryBank.templates
    #expect(templates.count >= 80)
    let sections = Set(templates.map(\.desk.section))
    #expect(
        sections.isSuperset(of: [
            "World", "U.S.", "Business", "Technology", "Science", "Climate", "Health", "Arts", "Books",
            "Sports",
            "Food", "Travel", "Opinion", "Weather",
        ]))
    #expect(Set(templates.map(\.desk)) == Set(DemoDesk.allCases), "every desk has stories")
    #expect(Set(templates.map(\.title)).count == templates.count, "titles are unique")
    #expect(templates.filter { $0.followUp != nil }.count >= 8)
    #expect(templates.filter { !$0.related.isEmpty }.count >= 5)
    for desk in DemoDesk.allCases {
        #expect(desk.reporters.count >= 2 && !desk.updateSentences.isEmpty)
    }
    for pool in [
        DemoStoryBank.photographers, DemoStoryBank.firstNames, DemoStoryBank.lastNames,
        DemoStoryBank.companies,
        DemoStoryBank.teams,
    ] {
        #expect(pool.count >= 2)
    }
    #expect(DemoStoryBank.towns.count >= 2)
}

@Test func placeholdersAreFilled() {
    let values = ["person": "Ann Lee", "person.rev": "Lee, Ann"]
    #expect(DemoStoryBank.fill("{person} ({person.rev})", with: values) == "Ann Lee (Lee, Ann)")
    #expect(DemoStoryBank.fill("no tokens", with: values) == "no tokens")
    #expect(DemoStoryBank.fill("{unknown} and {", with: values) == "{unknown} and {")
}

@Test func slugsAndTyposBehave() {
    #expect(
        DemoStory.slugWords("Lisbon’s New Tram Line in Decades") == [
            "lisbons", "new", "tram", "line", "decades",
        ])
    #expect(DemoStory.slugWords("Café au Lait, 36 Hours") == ["cafe", "au", "lait", "36", "hours"])
    var rng = DemoRandom(seed: 1)
    for _ in 0..<50 {
        let title = "Norway Expands Its Network of Free Mountain Huts"
        let typo = DemoStory.misspelled(title, using: &rng)
        #expect(typo != nil && typo != title && typo?.count == title.count)
    }
    #expect(DemoStory.misspelled("Big Red Dog", using: &rng) == nil)
}

@Test func randomHelpersStayInRange() {
    var rng = DemoRandom(seed: 0)
    for bound in [1, 2, 3, 7, 100] {
        for _ in 0..<200 { #expect((0..<bound).contains(rng.int(below: bound))) }
    }
    #expect(rng.shuffled(Array(0..<50)).sorted() == Array(0..<50))
    var again = DemoRandom(seed: 99)
    var other = DemoRandom(seed: 99)
    #expect(again.uuidString() == other.uuidString())
}
