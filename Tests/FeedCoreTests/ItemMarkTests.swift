import FeedCore
import Foundation
import Testing

/// Chart marks (`--mark 'LABEL:/pointer=value'`, or a comparison): how they are written,
/// which items they match, when an item is notable for one (when it comes to match it), and
/// that the statistics count them as notable events with their label.
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

    @Test("comparisons: != and, against a number, <, <=, >, >= (numbers sent as text too); a limit must be a number")
    func comparisons() throws {
        let mark = try ItemMark(parsing: "Hot:/temperature>=30")
        #expect(mark.comparison == .greaterOrEqual && mark.value == "30")
        #expect(mark.pointer == (try JSONPointer("/temperature")))
        #expect(try ItemMark(parsing: "Cold:/t<0").comparison == .less)
        #expect(try ItemMark(parsing: "Down:/state!=up").comparison == .notEqual)
        #expect(try ItemMark(parsing: "Up:/state=!=x").value == "!=x", "after '=', the value is the rest")
        #expect(throws: ItemMark.ParseError.notANumber("high")) { try ItemMark(parsing: "L:/price>high") }

        let item = try JSONValue(
            parsing: #"{"temperature": 31.5, "priceUsd": "43210.12", "sales": "12,400", "state": "down", "ok": true}"#)
        func matches(_ text: String) throws -> Bool { try ItemMark(parsing: text).matches(item) }
        #expect(try matches("L:/temperature>30") && matches("L:/temperature>=31.5") && !matches("L:/temperature<31.5"))
        #expect(try matches("L:/priceUsd>40000") && !matches("L:/priceUsd<=43210"))
        #expect(try matches("L:/sales>=12400"), "a number written for people")
        #expect(try !matches("L:/state>1") && !matches("L:/ok>0"), "a word or a flag is no number")
        #expect(try matches("L:/state!=up") && !matches("L:/state!=down"))
        #expect(try !matches("L:/missing!=up") && !matches("L:/missing<1"), "a missing value matches nothing")
    }

    @Test("a mark is notable when an item comes to match it: added matching, or changed from not matching")
    func crossing() throws {
        var profile = ItemProfile.table
        profile.itemsPath = try JSONPointer("/quotes")
        profile.keyPath = try JSONPointer("/symbol")
        profile.marks = [try ItemMark(parsing: "Above 100:/price>100")]
        let store = FeedStore(configuration: .init(profile: profile), epoch: "t")
        func quotes(_ acme: Double, _ glbx: Double) -> JSONValue {
            .object([
                "quotes": .array([
                    .object(["symbol": .string("ACME"), "price": .double(acme)]),
                    .object(["symbol": .string("GLBX"), "price": .double(glbx)]),
                ])
            ])
        }
        var notable: [[String]] = []
        for (acme, glbx) in [(90.0, 120.0), (110, 130), (120, 90), (95, 95), (105, 101)] {
            let change = try #require(store.replaceDocument(quotes(acme, glbx)))
            notable.append(AcceptedChange(change, versionPath: nil).marks.map(\.item))
        }
        // GLBX is added above 100; ACME crosses at 110 and again at 105, GLBX at 101.
        #expect(notable == [["GLBX"], ["ACME"], [], [], ["ACME", "GLBX"]], "\(notable)")
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
