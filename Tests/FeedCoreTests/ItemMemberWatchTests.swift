import FeedCore
import Testing

/// The members a found reading's items have shown, and what a patch or a document brings
/// that they had not.
@Suite("Item member watch")
struct ItemMemberWatchTests {
    private static let items: [JSONValue] = [
        .object(["id": .int(1), "state": .string("up"), "owner": .null, "meta": .object(["zone": .string("a")])]),
        .object(["id": .int(2), "state": .string("down")]),
    ]

    private func pointers(_ members: [JSONPointer]) -> [String] { members.map(\.description) }

    private func newMembers(_ watch: ItemMemberWatch, _ patch: String, document: JSONValue = .null) throws -> [String] {
        pointers(
            watch.newMembers(
                in: try JSONPatch(parsing: patch), itemsPath: JSONPointer(tokens: ["items"]), form: .elements
            ) { document.value(at: $0) })
    }

    @Test("members with a value, one level down for plain values; a null is not one")
    func seenMembers() {
        let watch = ItemMemberWatch(items: Self.items)
        #expect(Set(pointers(Array(watch.names))) == ["/id", "/state", "/meta", "/meta/zone"])
    }

    @Test("what each kind of operation brings under the items, and nothing from elsewhere")
    func operations() throws {
        let watch = ItemMemberWatch(items: Self.items)
        #expect(try newMembers(watch, #"[{"op":"replace","path":"/items/0/state","value":"down"}]"#) == [])
        #expect(try newMembers(watch, #"[{"op":"add","path":"/items/0/owner","value":null}]"#) == [])
        #expect(try newMembers(watch, #"[{"op":"add","path":"/items/0/owner","value":"ana"}]"#) == ["/owner"])
        #expect(try newMembers(watch, #"[{"op":"add","path":"/items/1/meta/rack","value":7}]"#) == ["/meta/rack"])
        #expect(try newMembers(watch, #"[{"op":"add","path":"/items/1/meta/tags","value":[1]}]"#) == [])
        // An object one level down (a Jira issue's assignee once it has one), but not a null.
        #expect(try newMembers(watch, #"[{"op":"add","path":"/items/1/meta/lead","value":null}]"#) == [])
        #expect(
            try newMembers(watch, #"[{"op":"replace","path":"/items/1/meta/lead","value":{"name":"Ann"}}]"#)
                == ["/meta/lead"])
        #expect(
            try newMembers(
                watch, #"[{"op":"add","path":"/items/-","value":{"id":3,"load":0.5,"disk":{"free":9}}}]"#)
                == ["/load", "/disk", "/disk/free"])
        #expect(
            try newMembers(
                watch,
                #"[{"op":"add","path":"/items/1/net","value":{"rx":1,"tx":null}},{"op":"add","path":"/items/0/net","value":{"rx":2}}]"#
            ) == ["/net", "/net/rx"])
        #expect(try newMembers(watch, #"[{"op":"add","path":"/count","value":3}]"#) == [])
        #expect(try newMembers(watch, #"[{"op":"remove","path":"/items/0/state"}]"#) == [])
        // The items given anew, and a member moved in from elsewhere.
        #expect(
            try newMembers(watch, #"[{"op":"replace","path":"/items","value":[{"id":1,"eta":5}]}]"#) == ["/eta"])
        let moved = try JSONValue(parsing: #"{"items": [{"id": 1, "state": "up", "cpu": 3}]}"#)
        #expect(
            try newMembers(watch, #"[{"op":"move","from":"/spare","path":"/items/0/cpu"}]"#, document: moved)
                == ["/cpu"])
        let replacedRoot = try JSONValue(parsing: #"{"items": [{"id": 1, "ram": 3}]}"#)
        #expect(
            try newMembers(
                watch, #"[{"op":"replace","path":"","value":{"items":[{"id":1,"ram":3}]}}]"#, document: replacedRoot)
                == ["/ram"])
    }

    @Test("a whole document's items; a series', rows' and named values' members are not watched")
    func documentsAndForms() throws {
        let watch = ItemMemberWatch(items: Self.items)
        let collection = try JSONValue(parsing: #"[{"id": 1, "state": "up"}, {"id": 2, "uptime": 5}]"#)
        #expect(pointers(watch.newMembers(inItemsOf: collection, form: .elements)) == ["/uptime"])
        #expect(watch.newMembers(inItemsOf: collection, form: .series).isEmpty)
        #expect(
            watch.newMembers(
                in: try JSONPatch(parsing: #"[{"op":"add","path":"/items/x","value":5}]"#),
                itemsPath: JSONPointer(tokens: ["items"]), form: .values(nameMember: "name", valueMember: "value")
            ) { _ in nil }.isEmpty)
    }

    @Test("learnt members are not new again; past its bounds the watch finds nothing")
    func bounds() throws {
        var watch = ItemMemberWatch(items: Self.items)
        let patch = #"[{"op":"add","path":"/items/0/owner","value":"ana"}]"#
        let found = watch.newMembers(
            in: try JSONPatch(parsing: patch), itemsPath: JSONPointer(tokens: ["items"]), form: .elements
        ) { _ in nil }
        watch.learn(found)
        #expect(watch.readings == 1)
        #expect(try newMembers(watch, patch) == [])

        for reading in 1..<ItemMemberWatch.maxReadings {
            #expect(!watch.isSpent)
            watch.learn([JSONPointer(tokens: ["m\(reading)"])])
        }
        #expect(watch.isSpent)
        #expect(try newMembers(watch, #"[{"op":"add","path":"/items/0/fresh","value":1}]"#) == [])

        let many = (0..<(ItemMemberWatch.maxNames + 10)).map { JSONValue.object(["m\($0)": .int(1)]) }
        let full = ItemMemberWatch(items: many)
        #expect(full.names.count == ItemMemberWatch.maxNames)
        #expect(full.isSpent)
    }
}
