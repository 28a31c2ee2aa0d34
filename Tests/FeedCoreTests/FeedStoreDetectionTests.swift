import FeedCore
import Testing

/// A store started without a profile: it reads no items until a document holds some, then
/// reads them with what it found, keeps each item's own JSON, and says so when the
/// document later loses its items.
@Suite("Feed store: how items are read without a profile")
struct FeedStoreDetectionTests {
    private func store() -> FeedStore {
        FeedStore(configuration: .init(profile: .table, detection: ItemProfile.Overrides()), epoch: "detect1")
    }

    @Test("undecided until a document holds items; then every item, with its own JSON")
    func decidedByTheFirstDocumentWithItems() throws {
        let store = store()
        #expect(store.itemReading.origin == .undecided)
        store.replaceDocument(try JSONValue(parsing: #"{"quotes": []}"#))
        let empty = try #require(store.snapshot?.published)
        #expect(empty.items.isEmpty)
        #expect(empty.reading?.origin == .undecided)
        #expect(empty.itemsProblem?.contains("/quotes is an empty array") == true, "\(empty.itemsProblem ?? "")")

        try store.apply(
            JSONPatch(
                parsing: #"[{"op":"add","path":"/quotes/-","value":{"symbol":"ACME","price":1.5}},"#
                    + #"{"op":"add","path":"/quotes/-","value":{"symbol":"GLBX","price":2}}]"#))
        let view = try #require(store.snapshot?.published)
        #expect(view.reading?.origin == .found)
        #expect(store.itemReading.origin == .found)
        #expect(view.items.map(\.key) == ["ACME", "GLBX"])
        #expect(view.itemsProblem == nil)
        #expect(view.itemChanges.map(\.kind) == [.added, .added])
        #expect(view.items.first?.raw["price"] == .double(1.5))
    }

    @Test("a change to a value only a column shows is an update of that item alone")
    func anyMemberChangeIsAnUpdate() throws {
        let store = store()
        store.replaceDocument(
            try JSONValue(parsing: #"{"quotes": [{"symbol":"ACME","price":1.5},{"symbol":"GLBX","price":2}]}"#))
        try store.apply(JSONPatch(parsing: #"[{"op":"replace","path":"/quotes/1/price","value":2.25}]"#))
        let view = try #require(store.snapshot?.published)
        #expect(view.itemChanges.count == 1)
        #expect(view.itemChanges.first?.kind == .updated)
        #expect(view.itemChanges.first?.item.key == "GLBX")
        #expect(view.item(forKey: "GLBX")?.raw["price"] == .double(2.25))
    }

    @Test("a document that loses its items says where they were and what is there now")
    func lostShape() throws {
        let store = store()
        store.replaceDocument(try JSONValue(parsing: #"{"quotes": [{"symbol":"ACME","price":1.5}]}"#))
        try store.apply(JSONPatch(parsing: #"[{"op":"replace","path":"/quotes","value":{"error":"rate limited"}}]"#))
        let view = try #require(store.snapshot?.published)
        #expect(view.items.isEmpty)
        let problem = try #require(view.itemsProblem)
        #expect(problem.contains("/quotes") && problem.contains("\"error\""), "\(problem)")
        // Back again: the items, and no problem.
        try store.apply(
            JSONPatch(parsing: #"[{"op":"replace","path":"/quotes","value":[{"symbol":"ACME","price":1.75}]}]"#))
        #expect(store.snapshot?.published.itemsProblem == nil)
        #expect(store.snapshot?.published.items.map(\.key) == ["ACME"])
    }

    @Test("versions of a few items put in place settle the reading too: from three items, after as many changes")
    func versionsInPlaceSettle() throws {
        var overrides = ItemProfile.Overrides()
        overrides.itemsArriveAlone = true
        overrides.keyPath = .at(try JSONPointer("/product_id"))
        let store = FeedStore(configuration: .init(profile: .table, detection: overrides), epoch: "settle2")
        let products = ["BTC-USD", "ETH-USD", "SOL-USD"]
        let key = try JSONPointer("/product_id")
        func tick(_ sequence: Int) throws -> JSONValue {
            try JSONValue(
                parsing: #"{"type": "ticker", "sequence": \#(sequence), "product_id": "\#(products[sequence % 3])", "#
                    + #""price": \#(100 + sequence)}"#)
        }
        store.putItem(try tick(0), idAt: key, keep: 200)
        let first = try #require(store.snapshot?.published.reading)
        #expect(first.profile.columns.allSatisfy { !$0.saysLittle }, "one item: nothing says little yet")
        // Three products, then versions of them: never settlingItems items.
        for sequence in 1..<ItemReading.settlingItems { store.putItem(try tick(sequence), idAt: key, keep: 200) }
        #expect(store.snapshot?.published.reading?.notes.last == first.notes.last, "not yet")
        store.putItem(try tick(ItemReading.settlingItems), idAt: key, keep: 200)
        let settled = try #require(store.snapshot?.published)
        #expect(settled.items.count == 3)
        #expect(settled.reading?.notes.last == "read again from 3 items", "\(settled.reading?.notes ?? [])")
        let type = settled.reading?.profile.columns.first { $0.pointer.description == "/type" }
        #expect(type?.saysLittle == true, "every product's type is ticker")
        // Once: more versions read nothing again.
        for sequence in 9..<20 { store.putItem(try tick(sequence), idAt: key, keep: 200) }
        #expect(store.snapshot?.published.reading?.notes.last == settled.reading?.notes.last)
        #expect(store.snapshot?.published.reading?.profile == settled.reading?.profile)

        // Versions that come together (one read of a fast ticker) count one each: three
        // products, then a batch of versions, settle as the same versions one by one do.
        let batched = FeedStore(configuration: .init(profile: .table, detection: overrides), epoch: "settle3")
        for sequence in 0..<3 { batched.putItem(try tick(sequence), idAt: key, keep: 200) }
        let changes = batched.putItems(
            try (3...ItemReading.settlingItems).map(tick), idAt: key, keep: 200)
        #expect(changes.count == 1 && changes.first?.upstreamChanges == ItemReading.settlingItems - 2)
        #expect(batched.snapshot?.published.reading?.notes.last == "read again from 3 items")
    }

    @Test("a reading found from an append stream's first event is read again, once, from enough events")
    func appendStreamSettles() throws {
        var overrides = ItemProfile.Overrides()
        overrides.itemsArriveAlone = true
        let store = FeedStore(configuration: .init(profile: .table, detection: overrides), epoch: "settle1")
        let levels = ["info", "warn", "error", "info", "info", "error", "warn", "info", "error"]
        func event(_ index: Int) -> String {
            #"{"id": "evt_\#(index)", "service": "svc\#(index % 3)", "level": "\#(levels[index])", "message": "job \#(index % 2)"}"#
        }
        store.replaceDocument(try JSONValue(parsing: #"{"items": [\#(event(0))]}"#))
        let first = try #require(store.snapshot?.published.reading)
        #expect(first.profile.keyPath == (try JSONPointer("/id")))
        #expect(first.profile.fields[.section] == nil, "one event: no filter")
        #expect(first.profile.fields[.title] == (try JSONPointer("/service")), "one event: any text names it")
        for index in 1..<ItemReading.settlingItems {
            try store.apply(
                JSONPatch(parsing: #"[{"op": "add", "path": "/items/0", "value": \#(event(index))}]"#))
        }
        let settled = try #require(store.snapshot?.published)
        #expect(settled.reading?.profile.keyPath == (try JSONPointer("/id")), "the same key: the same items")
        #expect(
            settled.reading?.profile.fields[.section] == (try JSONPointer("/level")), "\(settled.reading?.notes ?? [])")
        #expect(settled.reading?.profile.fields[.title] != (try JSONPointer("/service")), "a service names no event")
        #expect(settled.reading?.notes.last == "read again from \(ItemReading.settlingItems) items")
        #expect(settled.items.count == ItemReading.settlingItems)
        let level = settled.reading?.profile.columns.first { $0.pointer.description == "/level" }
        if case .status? = level?.format {
        } else {
            Issue.record("a log's level is a status: \(String(describing: level))")
        }
        // Once: a ninth event reads nothing again.
        try store.apply(JSONPatch(parsing: #"[{"op": "add", "path": "/items/0", "value": \#(event(8))}]"#))
        #expect(store.snapshot?.published.reading?.notes.last == settled.reading?.notes.last)
        #expect(store.snapshot?.published.reading?.profile == settled.reading?.profile)
    }

    @Test("items whose key comes to repeat are not shown, and the view says how many and why, until it is unique again")
    func repeatedKeysAreSaid() throws {
        let store = store()
        store.replaceDocument(
            try JSONValue(
                parsing:
                    #"{"quotes": [{"symbol":"ACME","price":1.5},{"symbol":"GLBX","price":2},{"symbol":"INIT","price":3}]}"#
            ))
        #expect(store.snapshot?.published.itemsProblem == nil)
        // A patch gives a second quote the first one's symbol: one item fewer, said.
        try store.apply(JSONPatch(parsing: #"[{"op":"replace","path":"/quotes/2/symbol","value":"ACME"}]"#))
        var view = try #require(store.snapshot?.published)
        #expect(view.items.map(\.key) == ["ACME", "GLBX"])
        #expect(view.itemsProblem?.hasPrefix("1 item is not shown: it has the key (/symbol)") == true, "\(view)")
        try store.apply(
            JSONPatch(parsing: #"[{"op":"add","path":"/quotes/-","value":{"symbol":"GLBX","price":4}}]"#))
        view = try #require(store.snapshot?.published)
        #expect(view.itemsProblem?.hasPrefix("2 items are not shown") == true, "\(view.itemsProblem ?? "")")
        // A whole new document with the same repeats says the same.
        store.replaceDocument(
            try JSONValue(parsing: #"{"quotes": [{"symbol":"ACME","price":1},{"symbol":"ACME","price":2}]}"#))
        #expect(store.snapshot?.published.itemsProblem?.hasPrefix("1 item is not shown") == true)
        // Unique again: every item, and nothing to say.
        try store.apply(JSONPatch(parsing: #"[{"op":"replace","path":"/quotes/1/symbol","value":"ZETA"}]"#))
        #expect(store.snapshot?.published.itemsProblem == nil)
        #expect(store.snapshot?.published.items.map(\.key) == ["ACME", "ZETA"])
    }

    @Test("in an append stream an event with an item's key is its newer version: shown, the older left out unsaid")
    func appendedVersionsOfAnItem() throws {
        var overrides = ItemProfile.Overrides()
        overrides.itemsArriveAlone = true
        overrides.keyPath = .at(try JSONPointer("/id"))
        let status = try JSONPointer("/status")
        func build(_ id: Int, _ status: String) -> String { #"{"id": \#(id), "status": "\#(status)"}"# }
        for itemsAreEvents in [true, false] {
            let store = FeedStore(
                configuration: .init(profile: .table, detection: overrides, itemsAreEvents: itemsAreEvents),
                epoch: "versions1")
            store.replaceDocument(try JSONValue(parsing: #"{"items": [\#(build(1, "running"))]}"#))
            for (id, status) in [(1, "passed"), (2, "running"), (2, "failed")] {
                try store.apply(
                    JSONPatch(parsing: #"[{"op": "add", "path": "/items/0", "value": \#(build(id, status))}]"#))
            }
            let view = try #require(store.snapshot?.published)
            #expect(view.items.map(\.key) == ["2", "1"])
            #expect(view.items.map { $0.raw.value(at: status) } == [.string("failed"), .string("passed")])
            if itemsAreEvents {
                #expect(view.itemsProblem == nil, "\(view.itemsProblem ?? "")")
            } else {
                #expect(view.itemsProblem?.hasPrefix("2 items are not shown") == true, "\(view.itemsProblem ?? "")")
            }
        }
    }

    @Test("items that are an object's members follow its patches: a member added, changed, removed, renamed")
    func membersFollowThePatches() throws {
        let store = store()
        store.replaceDocument(
            try JSONValue(parsing: #"{"as_of": 1, "prices": {"bitcoin": {"usd": 67000}, "ether": {"usd": 3500}}}"#))
        let first = try #require(store.snapshot?.published)
        #expect(first.items.map(\.key) == ["bitcoin", "ether"])
        #expect(first.item(forKey: "ether")?.raw == (try JSONValue(parsing: #"{"name": "ether", "usd": 3500}"#)))

        // Each step: the changes the patch made, and the items equal to a full extraction.
        let steps: [(patch: String, changes: [ItemChange.Kind], keys: [String])] = [
            (#"[{"op":"add","path":"/prices/solana","value":{"usd":150}}]"#, [.added], ["bitcoin", "ether", "solana"]),
            (
                #"[{"op":"replace","path":"/prices/ether/usd","value":3600}]"#, [.updated],
                ["bitcoin", "ether", "solana"]
            ),
            (#"[{"op":"replace","path":"/as_of","value":2}]"#, [], ["bitcoin", "ether", "solana"]),
            (#"[{"op":"remove","path":"/prices/bitcoin"}]"#, [.removed], ["ether", "solana"]),
            (
                #"[{"op":"move","from":"/prices/solana","path":"/prices/sol"}]"#, [.added, .removed],
                ["ether", "sol"]
            ),
            (#"[{"op":"add","path":"/prices/note","value":"not an item"}]"#, [], ["ether", "sol"]),
        ]
        for step in steps {
            try store.apply(JSONPatch(parsing: step.patch))
            let snapshot = try #require(store.snapshot)
            let view = snapshot.published
            #expect(view.itemChanges.map(\.kind) == step.changes, "\(step.patch)")
            #expect(view.items.map(\.key) == step.keys, "\(step.patch)")
            let extracted = ItemExtractor(profile: store.itemReading.profile).items(in: snapshot.document)
            #expect(Array(view.items) == extracted, "\(step.patch)")
        }
        #expect(store.snapshot?.published.item(forKey: "ether")?.raw["usd"] == .int(3600))

        // The object replaced by something else: the page says so; back again, the items.
        try store.apply(JSONPatch(parsing: #"[{"op":"replace","path":"/prices","value":"rate limited"}]"#))
        let lost = try #require(store.snapshot?.published)
        #expect(lost.items.isEmpty)
        #expect(lost.itemsProblem?.contains("/prices") == true && lost.itemsProblem?.contains("a string") == true)
        try store.apply(JSONPatch(parsing: #"[{"op":"replace","path":"/prices","value":{"ether":{"usd":1}}}]"#))
        #expect(store.snapshot?.published.itemsProblem == nil)
        #expect(store.snapshot?.published.items.map(\.key) == ["ether"])
    }

    @Test("the object of items moved away with an ancestor: no items, and the page says so")
    func membersMovedAwayWithAnAncestor() throws {
        let store = store()
        store.replaceDocument(
            try JSONValue(parsing: #"{"data": {"prices": {"bitcoin": {"usd": 67000}, "ether": {"usd": 3500}}}}"#))
        #expect(store.snapshot?.published.items.map(\.key) == ["bitcoin", "ether"])
        try store.apply(JSONPatch(parsing: #"[{"op":"move","from":"/data","path":"/old"}]"#))
        let view = try #require(store.snapshot?.published)
        #expect(view.items.isEmpty)
        #expect(view.itemChanges.map(\.kind) == [.removed, .removed])
        #expect(view.itemsProblem?.contains("/data/prices") == true, "\(view.itemsProblem ?? "")")
    }

    @Test("a restored document decides how items are read too")
    func restored() throws {
        let store = store()
        store.restore(document: try JSONValue(parsing: #"[{"id":"a"},{"id":"b"}]"#), seq: 7)
        #expect(store.itemReading.origin == .found)
        #expect(store.snapshot?.published.items.map(\.key) == ["a", "b"])
    }

    @Test("a newswire is read as the newswire, version guard and all")
    func newswireRecognised() throws {
        let store = store()
        let story = #"{"uri":"nyt://article/1","title":"One","section":"World"}"#
        store.replaceDocument(try JSONValue(parsing: #"{"num_results":5,"results":[\#(story)]}"#))
        #expect(store.itemReading.profile.name == "nyt-newswire")
        #expect(store.itemReading.origin == .recognised)
        // A lower num_results is mirrored, not published.
        try store.apply(
            JSONPatch(
                parsing: #"[{"op":"replace","path":"/num_results","value":4},"#
                    + #"{"op":"replace","path":"/results/0/title","value":"Older"}]"#))
        #expect(store.snapshot?.published.items.first?.title == "One")
    }
}
