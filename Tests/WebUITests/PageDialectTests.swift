import FeedCore
import Foundation
import Testing

@testable import WebUI

/// The page stream's dialects as pure functions of a frame, without sockets: how htmx's
/// and Datastar's events are written, and how a reordering becomes the fewest moves.
@Suite struct PageDialectTests {
    static let story = "<li class=\"story\" id=\"item-b\" data-key=\"b\">\n<h2>B</h2>\n</li>\n"
    static let newStory = "<li class=\"story\" id=\"item-n\" data-key=\"n\">\n<h2>New</h2>\n</li>\n"
    static let badge = "<p class=\"badge badge-live\" id=\"status\" role=\"status\">Live</p>"

    /// A list frame: `n` new on top, `a` gone, `b` changed, then the badge.
    static var deltaFrame: PageFrame {
        PageFrame(
            view: "list", id: "ep-7",
            parts: [
                .entries(
                    PageFrame.Entries(
                        page: .list, order: .delta(prepend: ["item-n"], remove: ["item-a"]),
                        html: [.init(id: "item-n", html: newStory), .init(id: "item-b", html: story)],
                        count: "3 stories", notice: "",
                        edit: .delta(prepend: ["item-n"], remove: ["item-a"], changed: ["item-n", "item-b"]))),
                .status(badge),
            ])
    }

    /// The events in `bytes`.
    static func parsed(_ bytes: [UInt8]) throws -> [SSEEvent] {
        var parser = SSEParser()
        return try parser.parse(bytes)
    }

    /// Applies `edit` to `entries` as a page would (ids only).
    static func applied(_ edit: EntryEdit, to entries: [String]) -> [String] {
        switch edit {
        case .all(let ids): return ids
        case .change(let remove, let insert, _):
            var page = entries.filter { !remove.contains($0) }
            for run in insert {
                let at = run.after.map { anchor in (page.firstIndex(of: anchor) ?? -1) + 1 } ?? 0
                page.insert(contentsOf: run.ids, at: at)
            }
            return page
        }
    }

    @Test("a sorted table whose changed row moves: that row alone is taken out and put back")
    func oneMovedRow() {
        let edit = EntryEdit.between(
            before: ["a", "b", "c", "d"], after: ["a", "c", "d", "b"], changed: ["b"])
        #expect(edit == .change(remove: ["b"], insert: [.init(after: "d", ids: ["b"])], update: []))
        let top = EntryEdit.between(before: ["a", "b", "c"], after: ["c", "a", "b"], changed: ["a"])
        #expect(top == .change(remove: ["c"], insert: [.init(after: nil, ids: ["c"])], update: ["a"]))
    }

    @Test("any reordering, with entries new and gone, is applied exactly by its edit")
    func everyReorderingApplies() {
        var generator = SeededGenerator(seed: 41)
        for _ in 0..<500 {
            let before = (0..<Int.random(in: 0...12, using: &generator)).map { "item-\($0)" }
            var after = before.filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }
            after += (0..<Int.random(in: 0...3, using: &generator)).map { "item-new\($0)" }
            after.shuffle(using: &generator)
            let edit = EntryEdit.between(before: before, after: after, changed: [])
            #expect(Self.applied(edit, to: before) == after, "\(before) → \(after): \(edit)")
            guard case .change(let remove, _, _) = edit else { continue }
            // The fewest moves: what stays in place is a longest run of the old order.
            let positions = after.compactMap { before.firstIndex(of: $0) }
            var longest = [Int](repeating: 1, count: positions.count)
            for i in positions.indices {
                for j in 0..<i where positions[j] < positions[i] { longest[i] = max(longest[i], longest[j] + 1) }
            }
            let moved = Set(remove).intersection(after)
            #expect(moved.count == positions.count - (longest.max() ?? 0))
        }
    }

    @Test("Datastar: field order event, id, data; selector, mode, one elements line per line; id on the last event")
    func datastarWireFormat() {
        let text = String(decoding: DatastarDialect.events(Self.deltaFrame), as: UTF8.self)
        #expect(
            text == """
                event: datastar-patch-elements
                data: mode remove
                data: selector #item-a

                event: datastar-patch-elements
                data: selector #stories
                data: mode prepend
                data: elements <li class="story" id="item-n" data-key="n">
                data: elements <h2>New</h2>
                data: elements </li>

                event: datastar-patch-elements
                data: selector #count
                data: mode inner
                data: elements 3 stories

                event: datastar-patch-elements
                id: ep-7
                data: elements <li class="story" id="item-b" data-key="b">
                data: elements <h2>B</h2>
                data: elements </li>
                data: elements <p class="badge badge-live" id="status" role="status">Live</p>


                """)
        #expect(!text.contains("namespace"))
        #expect(!text.contains("retry:"))
    }

    @Test("Datastar: a whole state replaces #stories' content; a moved entry goes after the one above it")
    func datastarWholeAndMoves() {
        let whole = PageFrame.Entries(
            page: .table, order: .whole(["item-a", "item-b"]),
            html: [
                .init(id: "item-a", html: "<tr id=\"item-a\"></tr>"),
                .init(id: "item-b", html: "<tr id=\"item-b\"></tr>"),
            ],
            count: "2 items", notice: "", edit: .all(["item-a", "item-b"]))
        let patches = DatastarDialect.patches(PageFrame(view: "table", id: "e-1", parts: [.entries(whole)]))
        #expect(
            patches[0]
                == .init(
                    selector: "#stories", mode: "inner", elements: "<tr id=\"item-a\"></tr><tr id=\"item-b\"></tr>"))
        #expect(patches[1] == .init(selector: "#count", mode: "inner", elements: "2 items"))
        #expect(
            patches[2]
                == .init(
                    selector: nil, mode: nil, elements: "<p class=\"notice\" id=\"problem\" role=\"note\" hidden></p>"))

        let moved = PageFrame.Entries(
            page: .table, order: .whole(["item-b", "item-c", "item-a.1"]), html: [], count: "3 items", notice: "",
            edit: .between(
                before: ["item-a.1", "item-b", "item-c"], after: ["item-b", "item-c", "item-a.1"], changed: []),
            moved: [.init(id: "item-a.1", html: "<tr id=\"item-a.1\"></tr>")])
        let movePatches = DatastarDialect.patches(PageFrame(view: "table", id: "e-2", parts: [.entries(moved)]))
        #expect(movePatches[0] == .init(selector: "#item-a\\.1", mode: "remove", elements: ""))
        #expect(movePatches[1] == .init(selector: "#item-c", mode: "after", elements: "<tr id=\"item-a.1\"></tr>"))
    }

    @Test("htmx: one named event; every element an out-of-band swap onto feedweb's ids")
    func htmxWireFormat() throws {
        let events = try Self.parsed(HTMXDialect.events(Self.deltaFrame))
        #expect(events.count == 1)
        let event = try #require(events.first)
        #expect(event.type == "feedweb")
        #expect(event.id == "ep-7")
        #expect(
            event.data == """
                <div id="item-a" hx-swap-oob="delete"></div>
                <div hx-swap-oob="afterbegin:#stories"><li class="story" id="item-n" data-key="n">
                <h2>New</h2>
                </li>
                </div>
                <li hx-swap-oob="true" class="story" id="item-b" data-key="b">
                <h2>B</h2>
                </li>
                <span id="count" hx-swap-oob="innerHTML">3 stories</span>
                <p hx-swap-oob="true" class="badge badge-live" id="status" role="status">Live</p>
                """)
    }

    @Test("htmx: table rows travel in <template>s, with <tbody> and <tr> wrappers")
    func htmxTableRows() throws {
        let entries = PageFrame.Entries(
            page: .table, order: .whole(["item-b", "item-c", "item-a"]),
            html: [.init(id: "item-a", html: "<tr class=\"row\" id=\"item-a\"><td>1</td></tr>")], count: "2 items",
            notice: "No items",
            edit: .between(
                before: ["item-a", "item-b", "item-c", "item-d"], after: ["item-b", "item-c", "item-a"],
                changed: ["item-a"]))
        let data = try #require(
            try Self.parsed(HTMXDialect.events(PageFrame(view: "table", id: "e", parts: [.entries(entries)]))).first?
                .data)
        #expect(
            data == """
                <template><tr id="item-a" hx-swap-oob="delete"></tr></template>
                <template><tr id="item-d" hx-swap-oob="delete"></tr></template>
                <template><tbody hx-swap-oob="afterend:#item-c"><tr class="row" id="item-a"><td>1</td></tr></tbody></template>
                <span id="count" hx-swap-oob="innerHTML">2 items</span>
                <p hx-swap-oob="true" class="notice" id="problem" role="note">No items</p>
                """)
        let whole = PageFrame.Entries(
            page: .list, order: .whole(["item-a"]), html: [.init(id: "item-a", html: "<li id=\"item-a\"></li>")],
            count: "1 story", notice: "", edit: .all(["item-a"]))
        let wholeData = try #require(
            try Self.parsed(HTMXDialect.events(PageFrame(view: "list", id: "e", parts: [.entries(whole)]))).first?.data)
        #expect(wholeData.hasPrefix("<div hx-swap-oob=\"innerHTML:#stories\"><li id=\"item-a\"></li></div>\n"))
    }

    @Test("the attribute goes into the fragment's root start tag, past white space and comments")
    func attributeOnTheRoot() {
        #expect(
            DialectHTML.adding("a=\"1\"", toRootOf: "\n<!-- x --><li id=\"k\">t</li>")
                == "\n<!-- x --><li a=\"1\" id=\"k\">t</li>")
        #expect(DialectHTML.adding("a=\"1\"", toRootOf: "<br>") == "<br a=\"1\">")
        #expect(DialectHTML.adding("a=\"1\"", toRootOf: "text only") == "text only")
        #expect(DialectHTML.selector(id: "item-Ab_9-x.y") == "#item-Ab_9-x\\.y")
    }

    @Test("dialect= names htmx or datastar; absent is feedweb's own; anything else is refused")
    func dialectParameter() {
        #expect(PageDialect(parameter: nil) == .feedweb)
        #expect(PageDialect(parameter: "htmx") == .htmx)
        #expect(PageDialect(parameter: "datastar") == .datastar)
        for bad in ["", "HTMX", "json", "feedweb", "datastar "] { #expect(PageDialect(parameter: bad) == nil) }
    }
}

/// A small deterministic random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
