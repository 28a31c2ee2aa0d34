import FeedCore
import Testing

@testable import WebUI

/// `/inspect`'s tree redrawn in part (``JSONTreeChange``): the nodes a change names,
/// swapped into the old tree by their ids, give exactly the new tree as drawn whole; the
/// tree is redrawn whole when the root changes, when too many nodes do and when a
/// document is too large to draw whole.
@Suite("JSON tree changes", .onThreadsOfItsOwn)
struct JSONTreeChangeTests {
    /// A feed's document: `count` items of a few fields, one nested, and a version.
    static func feed(count: Int, title: (Int) -> String = { "Story \($0)" }) -> JSONValue {
        .object([
            "version": .int(1),
            "results": .array(
                (0..<count).map { n in
                    .object([
                        "id": .int(Int64(n)), "title": .string(title(n)),
                        "tags": .array([.string("a"), .string("b")]),
                        "meta": .object(["score": .double(Double(n) / 2), "seen": .bool(n % 2 == 0)]),
                    ])
                }),
        ])
    }

    /// `new`'s tree as `change` draws it from `old`'s: each named node's `<li>` in the
    /// old tree (found by its id, up to its matching `</li>`) replaced by its new drawing.
    static func redraw(_ old: JSONValue, to new: JSONValue, by change: JSONTreeChange) throws -> String {
        guard case .nodes(let paths) = change else { return JSONTreeHTML.render(new) }
        var html = JSONTreeHTML.render(old)
        for path in paths {
            let start = try #require(html.range(of: "<li id=\"\(JSONTreeHTML.id(of: path))\""))
            // The matching `</li>`: count nested `<li` openings after this one.
            var depth = 0
            var cursor = start.lowerBound
            var end: String.Index?
            while end == nil {
                let open = html[html.index(after: cursor)...].range(of: "<li")
                let close = try #require(html[html.index(after: cursor)...].range(of: "</li>"))
                if let open, open.lowerBound < close.lowerBound {
                    depth += 1
                    cursor = open.lowerBound
                } else if depth == 0 {
                    end = close.upperBound
                } else {
                    depth -= 1
                    cursor = close.lowerBound
                }
            }
            let value = try #require(new.value(at: path))
            html.replaceSubrange(
                start.lowerBound..<(try #require(end)), with: JSONTreeHTML.render(node: value, at: path))
        }
        return html
    }

    @Test("a title replaced and the version bumped redraw those two lines")
    func oneTitle() throws {
        let old = Self.feed(count: 30)
        let corrected = Self.feed(count: 30) { $0 == 7 ? "Story 7, corrected" : "Story \($0)" }
        guard case .object(var members) = corrected else {
            Issue.record("the fixture's shape")
            return
        }
        members["version"] = .int(2)
        let new = JSONValue.object(members)
        let change = JSONTreeChange.between(old, new)
        #expect(change == .nodes([JSONPointer(tokens: ["version"]), JSONPointer(tokens: ["results", "7", "title"])]))
        #expect(try Self.redraw(old, to: new, by: change) == JSONTreeHTML.render(new))
        let fragment = JSONTreeHTML.render(
            node: try #require(new.value(atPointer: "/results/7/title")),
            at: JSONPointer(tokens: ["results", "7", "title"]))
        #expect(fragment.count * 100 < JSONTreeHTML.render(new).count, "the fragment is a small part of the tree")
    }

    @Test("a scalar that becomes an object, a member added, an item added: that node is redrawn")
    func kindsAndLengths() throws {
        let old = Self.feed(count: 10)
        guard case .object(var members) = old, case .array(var items) = members["results"],
            case .object(var item) = items[3], case .object(var meta) = item["meta"]
        else {
            Issue.record("the fixture's shape")
            return
        }
        meta["score"] = .object(["value": .int(99)])
        item["meta"] = .object(meta)
        items[3] = .object(item)
        members["results"] = .array(items)
        let scored = JSONValue.object(members)
        #expect(
            JSONTreeChange.between(old, scored) == .nodes([JSONPointer(tokens: ["results", "3", "meta", "score"])]))

        meta["extra"] = .null
        item["meta"] = .object(meta)
        items[3] = .object(item)
        members["results"] = .array(items)
        let extra = JSONValue.object(members)
        #expect(JSONTreeChange.between(scored, extra) == .nodes([JSONPointer(tokens: ["results", "3", "meta"])]))

        members["results"] = .array(items + [items[0]])
        let longer = JSONValue.object(members)
        #expect(JSONTreeChange.between(extra, longer) == .nodes([JSONPointer(tokens: ["results"])]))
        for (before, after) in [(old, scored), (scored, extra), (extra, longer)] {
            #expect(
                try Self.redraw(before, to: after, by: JSONTreeChange.between(before, after))
                    == JSONTreeHTML.render(after))
        }
    }

    @Test("a root member renamed, 1 becoming 1.0, many changes or a large document")
    func whole() throws {
        let old = Self.feed(count: 10)
        guard case .object(var members) = old else { return }
        members["version"] = .double(1)
        #expect(
            JSONTreeChange.between(old, .object(members)) == .nodes([JSONPointer(tokens: ["version"])]),
            "1 and 1.0 are drawn apart")
        members["renamed"] = members.removeValue(forKey: "version")
        #expect(JSONTreeChange.between(old, .object(members)) == .whole)
        #expect(JSONTreeChange.between(nil, old) == .whole)
        #expect(JSONTreeChange.between(old, .null) == .whole)

        let many = Self.feed(count: 100) { "Renamed \($0)" }
        #expect(JSONTreeChange.between(Self.feed(count: 100), many) == .whole, "100 titles changed")

        let large = Self.feed(count: 800)  // 10 nodes an item: past the tree's limit
        #expect(!JSONTreeHTML.isWhole(large))
        #expect(JSONTreeChange.between(large, Self.feed(count: 800) { $0 == 0 ? "x" : "Story \($0)" }) == .whole)
        #expect(JSONTreeChange.between(old, old) == .nodes([]))
    }

    @Test("random edits: the nodes named, swapped in, give the new tree exactly", arguments: [1, 2, 3, 4] as [UInt64])
    func randomEdits(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var document = Self.feed(count: 40)
        var partial = 0
        for _ in 0..<200 {
            var edited = document
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                // Mostly inside one item, as a feed's events are; now and then the version
                // or the list itself.
                guard case .object(var members) = edited, case .array(var items) = members["results"] else { break }
                switch Int.random(in: 0..<10, using: &random) {
                case 0: members["version"] = .int(Int64(random.next() % 1000))
                case 1: items.append(items.last ?? .null)
                default:
                    Self.edit(&items[Int.random(in: 0..<items.count, using: &random)], using: &random)
                }
                members["results"] = .array(items)
                edited = .object(members)
            }
            let change = JSONTreeChange.between(document, edited)
            if case .nodes = change { partial += 1 }
            #expect(try Self.redraw(document, to: edited, by: change) == JSONTreeHTML.render(edited))
            document = edited
        }
        #expect(partial > 100, "most small edits redraw part of the tree (\(partial) of 200)")
    }

    /// One random edit somewhere in `value`: a scalar replaced, a member added or removed,
    /// an element appended.
    static func edit(_ value: inout JSONValue, using random: inout SplitMix64) {
        switch value {
        case .object(var members) where !members.isEmpty:
            let index = Int.random(in: 0..<members.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0: members["added \(random.next() % 100)"] = .int(1)
            case 1 where members.count > 1: members.remove(at: index)
            default: edit(&members.values[index], using: &random)
            }
            value = .object(members)
        case .array(var elements) where !elements.isEmpty:
            if Int.random(in: 0..<10, using: &random) == 0 {
                elements.append(.string("new"))
            } else {
                edit(&elements[Int.random(in: 0..<elements.count, using: &random)], using: &random)
            }
            value = .array(elements)
        default:
            value =
                [.string("edited \(random.next() % 1000)"), .int(Int64(random.next() % 5)), .null][
                    Int.random(in: 0..<3, using: &random)]
        }
    }
}
