import FeedCore

// Release-mode timing of the JSON engine (figures in BENCHMARKS.md).

/// An NYT Times Newswire-shaped document: `status`, `copyright`, `num_results` and
/// `results` (stories with multimedia, facets…), about 1.5 KB of JSON per story.
func newswireDocument(storyIDs: some Sequence<Int>) -> JSONValue {
    var stories: [JSONValue] = []
    for id in storyIDs {
        stories.append(newswireStory(id: id))
    }
    var root = JSONObject()
    root["status"] = .string("OK")
    root["copyright"] = .string(
        "Copyright (c) 2026 The New York Times Company.  All Rights Reserved.")
    root["num_results"] = .int(Int64(stories.count))
    root["results"] = .array(stories)
    return .object(root)
}

func newswireStory(id: Int) -> JSONValue {
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

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

let only = CommandLine.arguments.dropFirst().first

func measure(
    _ name: String, iterations: Int, unitsPerIteration: Double = 1, unit: String = "op",
    _ body: () throws -> Void
) rethrows -> Double {
    if let only, !name.contains(only) { return 1 }
    // Warm up, then take the best of 5 rounds.
    for _ in 0..<max(1, iterations / 10) { try body() }
    var best = Duration.seconds(1_000)
    for _ in 0..<9 {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { try body() }
        let elapsed = clock.now - start
        if elapsed < best { best = elapsed }
    }
    let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
    let microsPerIteration = seconds * 1e6 / Double(iterations)
    print(
        "\(name): \(String(format3(microsPerIteration))) µs per iteration, \(String(format3(microsPerIteration / unitsPerIteration))) µs per \(unit)"
    )
    return seconds / Double(iterations)
}

func format3(_ x: Double) -> String {
    let scaled = (x * 1000).rounded() / 1000
    return "\(scaled)"
}

let base = newswireDocument(storyIDs: 1...20)
let baseBytes = base.serializedBytes()
print("document: \(baseBytes.count) bytes, \(20) stories")

let newStory = newswireStory(id: 999).serializedString()
let patchText = """
    [{"op":"add","path":"/results/0","value":\(newStory)},\
    {"op":"remove","path":"/results/20"},\
    {"op":"replace","path":"/num_results","value":20},\
    {"op":"replace","path":"/results/5/title","value":"A corrected headline"},\
    {"op":"test","path":"/status","value":"OK"}]
    """
let patchBytes = Array(patchText.utf8)
print("patch: \(patchBytes.count) bytes, 5 operations")

do {
    // (1) parse + apply a 5-op patch, chained on a persistent document.
    var document = try JSONParser.parse(baseBytes)
    _ = measure("parse+apply 5-op patch", iterations: 20_000, unitsPerIteration: 5) {
        do {
            let patch = try JSONPatch(parsing: patchBytes)
            try patch.apply(to: &document)
        } catch {
            fatalError("\(error)")
        }
    }
    let patch = try JSONPatch(parsing: patchBytes)
    _ = measure("  parse patch only", iterations: 20_000) {
        blackHole(try? JSONPatch(parsing: patchBytes))
    }
    _ = measure("  apply only", iterations: 20_000, unitsPerIteration: 5) {
        do { try patch.apply(to: &document) } catch { fatalError("\(error)") }
    }
    let small = try JSONPatch(parsing: #"[{"op":"replace","path":"/results/5/title","value":"x"}]"#)
    _ = measure("  apply one replace", iterations: 100_000) {
        do { try small.apply(to: &document) } catch { fatalError("\(error)") }
    }

    // (2) diff: one new story on top, one dropped at the bottom.
    let after = newswireDocument(storyIDs: [1000] + Array(1...19))
    let diffPatch = JSONDiff.diff(from: base, to: after)
    print(
        "diff gives \(diffPatch.operations.count) operations: \(diffPatch.operations.map { "\($0.name) \($0.path)" })"
    )
    _ = measure("diff 30 KB documents", iterations: 5_000) {
        blackHole(JSONDiff.diff(from: base, to: after))
    }
    var edited = base
    try JSONPatch(parsing: #"[{"op":"replace","path":"/results/5/title","value":"x"}]"#).apply(
        to: &edited)
    _ = measure("diff, one title edited", iterations: 5_000) {
        blackHole(JSONDiff.diff(from: base, to: edited))
    }
    let editedUnshared = try JSONParser.parse(edited.serializedBytes())
    _ = measure("diff, one title edited, no shared storage", iterations: 5_000) {
        blackHole(JSONDiff.diff(from: base, to: editedUnshared))
    }
    let baseCopy = try JSONParser.parse(baseBytes)
    _ = measure("equality of equal 30 KB documents, no shared storage", iterations: 5_000) {
        blackHole(base == baseCopy)
    }

    // (3) parse and serialize.
    let megabytes = Double(baseBytes.count) / 1_000_000
    let parseSeconds = measure("parse 30 KB", iterations: 5_000) {
        blackHole(try? JSONParser.parse(baseBytes))
    }
    print("  parse: \(format3(megabytes / parseSeconds)) MB/s")
    let serializeSeconds = measure("serialize 30 KB", iterations: 5_000) {
        blackHole(base.serializedBytes())
    }
    print("  serialize: \(format3(megabytes / serializeSeconds)) MB/s")
    let bothSeconds = measure("parse+serialize 30 KB", iterations: 5_000) {
        blackHole((try? JSONParser.parse(baseBytes))?.serializedBytes())
    }
    print("  parse+serialize: \(format3(megabytes / bothSeconds)) MB/s of input")
} catch {
    print("error: \(error)")
}
