import FeedCore
import Testing

/// A store that found how to read a feed's items keeps reading them that way, but when a
/// change gives the items members they had not shown (a build's duration once it
/// finishes), their columns are worked out again and taken when they only add columns.
@Suite("Feed store: columns the items gain")
struct FeedStoreColumnsGainedTests {
    private func store(_ overrides: ItemProfile.Overrides = ItemProfile.Overrides()) -> FeedStore {
        FeedStore(configuration: .init(profile: .table, detection: overrides), epoch: "gained1")
    }

    private static let running = #"""
        {"builds": [
          {"id": 101, "branch": "main", "state": "running", "started_at": "2026-11-30T20:00:00Z"},
          {"id": 102, "branch": "fix-login", "state": "queued"}
        ]}
        """#

    private func columns(_ store: FeedStore) -> [String] {
        store.itemReading.profile.columns.map(\.pointer.description)
    }

    @Test("a finished build's new members become columns; only the items read differently change")
    func finishedBuildGainsColumns() throws {
        let store = store()
        store.replaceDocument(try JSONValue(parsing: Self.running))
        let before = columns(store)
        #expect(!before.contains("/duration_seconds"), "\(before)")
        let firstKeys = store.snapshot?.published.items.map(\.key)

        // As a poll sees it: the whole document, diffed into a patch.
        store.replaceDocument(
            try JSONValue(
                parsing: #"""
                    {"builds": [
                      {"id": 101, "branch": "main", "state": "passed", "started_at": "2026-11-30T20:00:00Z",
                       "finished_at": "2026-11-30T20:04:12Z", "duration_seconds": 252, "author": "ana"},
                      {"id": 102, "branch": "fix-login", "state": "queued"}
                    ]}
                    """#))
        let after = columns(store)
        #expect(Array(after.prefix(before.count)) == before, "the columns before stay, in order: \(after)")
        for gained in ["/finished_at", "/duration_seconds", "/author"] {
            #expect(after.contains(gained), "\(gained) in \(after)")
        }
        let reading = store.itemReading
        #expect(reading.origin == .found)
        #expect(reading.notes.last?.contains("/duration_seconds") == true, "\(reading.notes)")
        let view = try #require(store.snapshot?.published)
        #expect(view.reading == reading)
        #expect(view.items.map(\.key) == firstKeys, "the same items, under the same keys")
        // The build that finished changed; the queued one, read the same way, did not.
        #expect(view.itemChanges.map(\.kind) == [.updated])
        #expect(view.itemChanges.map(\.item.key) == ["101"])
    }

    @Test("a member added by a patch, one level down too, is a column once it has a value")
    func patchedMembersOnceTheyHaveAValue() throws {
        let store = store()
        store.replaceDocument(
            try JSONValue(
                parsing:
                    #"{"hosts": [{"name": "db1", "status": {"phase": "up"}}, {"name": "db2", "status": {"phase": "up"}}]}"#
            ))
        let before = columns(store)
        let notes = store.itemReading.notes

        // A null tells nothing yet: the reading stays as it was.
        try store.apply(JSONPatch(parsing: #"[{"op":"add","path":"/hosts/0/load","value":null}]"#))
        #expect(columns(store) == before)
        #expect(store.itemReading.notes == notes)

        try store.apply(JSONPatch(parsing: #"[{"op":"replace","path":"/hosts/0/load","value":0.75}]"#))
        #expect(columns(store).contains("/load"), "\(columns(store))")
        try store.apply(
            JSONPatch(parsing: #"[{"op":"add","path":"/hosts/1/status/since","value":"2026-11-30T20:00:00Z"}]"#))
        #expect(columns(store).contains("/status/since"), "\(columns(store))")
        #expect(store.snapshot?.published.items.map(\.key) == ["db1", "db2"])
    }

    @Test("a thing in an envelope, null in every item at first, is a column by its name once one has it")
    func envelopedThingGained() throws {
        let store = store()
        func issues(_ assignee: String) -> String {
            let issues = (0..<4).map { index in
                #"""
                {"id": "\#(index)", "key": "OPS-\#(index)",
                 "fields": {"summary": "s\#(index)", "assignee": \#(index == 1 ? assignee : "null")}}
                """#
            }
            return #"{"issues": [\#(issues.joined(separator: ","))]}"#
        }
        store.replaceDocument(try JSONValue(parsing: issues("null")))
        #expect(!columns(store).contains { $0.hasPrefix("/fields/assignee") }, "\(columns(store))")
        store.replaceDocument(try JSONValue(parsing: issues(#"{"displayName": "Ada", "active": true}"#)))
        #expect(columns(store).contains("/fields/assignee/displayName"), "\(columns(store))")
    }

    @Test("a reading again that would drop a column is not taken: columns only grow")
    func columnsNeverDrop() throws {
        let store = store()
        store.replaceDocument(
            try JSONValue(parsing: #"{"quotes": [{"symbol": "ACME", "price": 1.5}, {"symbol": "GLBX", "price": 2}]}"#))
        let before = store.itemReading
        // `price` renamed `cost` in every item: read again, `price` would be gone.
        store.replaceDocument(
            try JSONValue(parsing: #"{"quotes": [{"symbol": "ACME", "cost": 1.5}, {"symbol": "GLBX", "cost": 2}]}"#))
        #expect(store.itemReading == before)
        #expect(store.snapshot?.published.items.map(\.key) == ["ACME", "GLBX"])
    }

    @Test("columns given with the options stay as given")
    func givenColumnsStay() throws {
        var overrides = ItemProfile.Overrides()
        overrides.columns = [try ItemColumn(parsing: "Price=/price")]
        let store = store(overrides)
        store.replaceDocument(
            try JSONValue(parsing: #"{"quotes": [{"symbol": "ACME", "price": 1.5}, {"symbol": "GLBX", "price": 2}]}"#))
        let before = store.itemReading
        try store.apply(JSONPatch(parsing: #"[{"op":"add","path":"/quotes/0/volume","value":1200}]"#))
        #expect(store.itemReading == before)
        #expect(columns(store) == ["/price"])
    }

    @Test("a restored document's items are watched too")
    func restoredThenGained() throws {
        let store = store()
        store.restore(document: try JSONValue(parsing: #"[{"id": "a", "size": 1}, {"id": "b", "size": 2}]"#), seq: 7)
        #expect(!columns(store).contains("/owner"))
        try store.apply(JSONPatch(parsing: #"[{"op":"add","path":"/1/owner","value":"ana"}]"#))
        #expect(columns(store).contains("/owner"), "\(columns(store))")
        #expect(store.snapshot?.published.itemChanges.map(\.item.key) == ["b"])
    }
}
