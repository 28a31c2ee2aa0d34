import FeedCore

/// The inputs of the micro-benchmarks, shaped like what `timed_upstream` (the fan-out
/// benchmark's upstream) sends: an NYT Times Newswire document of 20 stories (~35 KB) with
/// `sent_ns` and `seq`, and patches that replace those and `num_results`, now and then
/// adding a story on top and dropping the last.
public enum Fixtures {
    /// A story in the NYT Times Newswire shape, about 1.6 KB of JSON.
    public static func story(id: Int) -> JSONValue {
        func image(_ format: String, _ width: Int, _ height: Int) -> JSONValue {
            .object([
                "url": .string(
                    "https://static01.nyt.com/images/2026/11/22/multimedia/22story\(id)/22story\(id)-\(format).jpg"),
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
            "material_type_facet": .string("News"),
            "kicker": .string(""),
            "des_facet": .array([.string("United States Politics and Government"), .string("Elections")]),
            "org_facet": .array([.string("Congress")]),
            "per_facet": .array([.string("Doe, Jane")]),
            "geo_facet": .array([]),
            "multimedia": .array([
                image("mediumThreeByTwo210", 210, 140), image("thumbLarge", 150, 150), image("Normal", 190, 127),
            ]),
        ])
    }

    /// The document: `status`, `copyright`, `num_results`, `sent_ns`, `seq`, `results`.
    public static func document(storyIDs: some Sequence<Int> = 1...20, numResults: Int64 = 20) -> JSONValue {
        var root = JSONObject()
        root["status"] = .string("OK")
        root["copyright"] = .string("Copyright (c) 2026 The New York Times Company.  All Rights Reserved.")
        root["num_results"] = .int(numResults)
        root["sent_ns"] = .int(1_732_270_000_123_456_789)
        root["seq"] = .int(0)
        root["results"] = .array(storyIDs.map(story(id:)))
        return .object(root)
    }

    /// The document serialized (~35 KB).
    public static let documentBytes: [UInt8] = document().serializedBytes()

    /// The typical patch (~150 bytes, 90 % of timed_upstream's): `sent_ns`, `seq`, `num_results`.
    public static func stampPatch(seq: Int) -> String {
        #"[{"op":"replace","path":"/sent_ns","value":\#(1_732_270_000_123_456_789 + seq)},"#
            + #"{"op":"replace","path":"/seq","value":\#(seq)},"#
            + #"{"op":"replace","path":"/num_results","value":\#(20 + seq)}]"#
    }

    /// A patch with a new story on top and the last one dropped (~1.9 KB, 5 operations);
    /// applied again and again it leaves the document's size unchanged.
    public static func storyPatch(seq: Int) -> String {
        #"[{"op":"add","path":"/results/0","value":\#(story(id: 1000 + seq).serializedString())},"#
            + #"{"op":"remove","path":"/results/20"},"#
            + #"{"op":"replace","path":"/sent_ns","value":\#(1_732_270_000_123_456_789 + seq)},"#
            + #"{"op":"replace","path":"/seq","value":\#(seq)},"#
            + #"{"op":"replace","path":"/num_results","value":\#(20 + seq)}]"#
    }

    /// An SSE stream as feedweb reads it from timed_upstream: `retry`, one `data` event with
    /// the document, then `patch` events (every tenth a story patch), ids 1, 2, …, and a
    /// heartbeat comment every 100 events; at least `bytes` long.
    public static func sseStream(bytes: Int, withDocument: Bool) -> (bytes: [UInt8], events: Int) {
        var out = SSEEncoder.retry(milliseconds: 1000)
        var events = 0
        if withDocument {
            SSEEncoder.event(
                type: "data", data: String(decoding: documentBytes, as: UTF8.self), id: "0", into: &out)
            events += 1
        }
        var seq = 1
        while out.count < bytes {
            let data = seq % 10 == 0 ? storyPatch(seq: seq) : stampPatch(seq: seq)
            SSEEncoder.event(type: "patch", data: data, id: String(seq), into: &out)
            events += 1
            if seq % 100 == 0 { SSEEncoder.comment("heartbeat", into: &out) }
            seq += 1
        }
        return (out, events)
    }

    /// A new store with the document loaded (NYT profile: version `/num_results`).
    public static func store() -> FeedStore {
        let store = FeedStore(configuration: .init(profile: .nytNewswire), epoch: "bench")
        store.replaceDocument(document())
        return store
    }
}
