import FeedCore
import Foundation
import Testing

/// Chart marks (`--mark 'LABEL:/pointer=value'`): how they are written, which items they
/// match, and that the statistics count them as notable events with their label.
@Suite("Item marks")
struct ItemMarkTests {
    @Test("LABEL:/pointer=value: the label runs to ':/', the value may hold '=' or be empty")
    func parsing() throws {
        let mark = try ItemMark(parsing: "New user:/type=newuser")
        #expect(mark == ItemMark(label: "New user", pointer: try JSONPointer("/type"), value: "newuser"))
        let odd = try ItemMark(parsing: "Ratio: high:/meta/ratio=a=b")
        #expect(odd.label == "Ratio: high")
        #expect(odd.pointer == (try JSONPointer("/meta/ratio")))
        #expect(odd.value == "a=b")
        #expect((try ItemMark(parsing: "Empty:/x=")).value == "")
        #expect(throws: ItemMark.ParseError.noPointer) { try ItemMark(parsing: "New user") }
        #expect(throws: ItemMark.ParseError.noValue) { try ItemMark(parsing: "New user:/type") }
        #expect(throws: ItemMark.ParseError.emptyLabel) { try ItemMark(parsing: " :/type=x") }
    }

    @Test("a string matches by text; numbers, booleans and null by how JSON writes them")
    func matching() throws {
        let item = try JSONValue(
            parsing: #"{"type":"newuser","n":42,"x":1.5,"ok":true,"none":null,"deep":{"k":"v"}}"#)
        func mark(_ pointer: String, _ value: String) throws -> ItemMark {
            ItemMark(label: "L", pointer: try JSONPointer(pointer), value: value)
        }
        #expect(try mark("/type", "newuser").matches(item))
        #expect(try !mark("/type", "newuse").matches(item))
        #expect(try mark("/n", "42").matches(item))
        #expect(try mark("/x", "1.5").matches(item))
        #expect(try mark("/ok", "true").matches(item))
        #expect(try mark("/none", "null").matches(item))
        #expect(try mark("/deep/k", "v").matches(item))
        #expect(try !mark("/deep", "v").matches(item), "an object never matches")
        #expect(try !mark("/missing", "null").matches(item), "a missing value is not null")
    }

    @Test("an added or changed item that matches is a notable event with the mark's label; others are not")
    func statistics() throws {
        var profile = ItemProfile.generic
        profile.marks = [ItemMark(label: "New user", pointer: try JSONPointer("/type"), value: "newuser")]
        let store = FeedStore(configuration: .init(profile: profile), epoch: "t")
        let start = Date(timeIntervalSince1970: 1_000_000)
        var statistics = FeedStatistics(startedAt: start)
        func record(_ change: FeedChange, at offset: TimeInterval) {
            statistics.record(.accepted(AcceptedChange(change, versionPath: nil)), at: start + offset)
        }
        let edit = { (id: String, type: String) in
            JSONValue.object(["id": .string(id), "title": .string("T \(id)"), "type": .string(type)])
        }
        record(store.prependItem(edit("1", "edit"), keep: 10), at: 1)
        record(store.prependItem(edit("2", "newuser"), keep: 10), at: 2)
        record(store.prependItem(edit("3", "edit"), keep: 10), at: 3)
        let window = statistics.window(at: start + 20)
        let marks = window.notable.filter { $0.kind == .mark }
        #expect(marks.map(\.label) == ["New user"])
        #expect(marks.map(\.detail) == ["T 2"])
        #expect(window.totals.marks == 1)
    }
}
