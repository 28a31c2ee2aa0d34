import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// A table page renders through the templates only the rows that changed since it was last
/// rendered (``TableRowCache``), and is byte for byte the page rendered row by row, however
/// its rows, their order and the time change.
@Suite(.onThreadsOfItsOwn) struct TableRowCacheTests {
    static let columns = ["Name=/name", "Price=/price:number", "Status=/status:status", "Seen=/seen:relative"]

    static func row(_ id: Int, price: Double, status: String, seen: Date) -> JSONValue {
        .object([
            "id": .string("p\(id)"), "name": .string("Product <\(id)>"), "price": .double(price),
            "status": .string(status), "seen": .string(RelativeTime.machine(seen)),
        ])
    }

    static func store() throws -> FeedStore {
        var overrides = ItemProfile.Overrides()
        overrides.columns = try columns.map { try ItemColumn(parsing: $0) }
        return FeedStore(configuration: .init(profile: .generic, detection: overrides), epoch: "e")
    }

    /// Where `a` and `b` first differ, with a little of each from there; `nil` when equal.
    static func difference(_ a: String, _ b: String) -> String? {
        guard a != b else { return nil }
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        let at = zip(x, y).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(x.count, y.count)
        func from(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[at..<min(bytes.count, at + 160)], as: UTF8.self)
        }
        return "at byte \(at): kept \(from(x)) / afresh \(from(y))"
    }

    @Test("change after change, and as the clock moves, the page with kept rows is the page rendered row by row")
    func keptRowsRenderThePageAsRenderedAfresh() throws {
        var random = SplitMix64(seed: 46)
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        var now = start
        var products: [(id: Int, price: Double, status: String, seen: Date)] = (0..<40).map {
            (
                $0, Double($0) * 1.25, ["passed", "failed", "running"][$0 % 3],
                start.addingTimeInterval(-Double($0) * 90)
            )
        }
        var nextID = products.count
        let store = try Self.store()
        store.replaceDocument(
            .array(products.map { Self.row($0.id, price: $0.price, status: $0.status, seen: $0.seen) }))
        let cache = TableRowCache()
        var cached = PageRenderer(assetVersion: "v")
        cached.rowCache = cache
        let fresh = PageRenderer(assetVersion: "v")
        let profile = try #require(store.snapshot?.published.profile)
        let queries = [
            TableQuery(), TableQuery(sort: ItemSort(column: "price", descending: true)),
            TableQuery(section: "failed"),
        ]
        var relativeWords: Set<String> = []
        for step in 0..<300 {
            let place = Int.random(in: 0..<products.count, using: &random)
            let patch: JSONValue
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                products[place].price = Double(Int.random(in: 0..<10_000, using: &random)) / 100
                patch = Patch.replace("/\(place)/price", .double(products[place].price))
            case 5:
                products[place].status = ["passed", "failed", "running"][Int.random(in: 0..<3, using: &random)]
                patch = Patch.replace("/\(place)/status", .string(products[place].status))
            case 6:
                products[place].seen = now
                patch = Patch.replace("/\(place)/seen", .string(RelativeTime.machine(now)))
            case 7 where products.count < 60:
                products.insert((nextID, 1, "running", now), at: place)
                nextID += 1
                let added = products[place]
                patch = Patch.add("/\(place)", Self.row(added.id, price: added.price, status: added.status, seen: now))
            case 8 where products.count > 20:
                products.remove(at: place)
                patch = Patch.remove("/\(place)")
            default:
                patch = Patch.replace("/\(place)/name", .string("Renamed \(step) & <b>"))
            }
            try store.apply(JSONPatch(json: .array([patch])))
            // The clock: still for some changes, seconds or hours on for others.
            now.addTimeInterval([0, 0, 1, 20, 45, 600, 7_200][Int.random(in: 0..<7, using: &random)])
            let view = try #require(store.snapshot?.published)
            let query = queries[Int.random(in: 0..<queries.count, using: &random)]
            let badge = StatusBadge(kind: .live, since: nil)
            let kept = cached.table(view: view, profile: profile, query: query, badge: badge, source: "s", now: now)
            let made = fresh.table(view: view, profile: profile, query: query, badge: badge, source: "s", now: now)
            // The page's `<main>`: the frame around it says how long ago the view was
            // published by the wall clock, which may tick between the two renders.
            let page = PageRenderer.mainElement(of: String(decoding: kept, as: UTF8.self))
            #expect(page.contains("<tbody"))
            #expect(
                Self.difference(page, PageRenderer.mainElement(of: String(decoding: made, as: UTF8.self))) == nil,
                "step \(step)")
            for match in page.matches(of: /data-relative>([^<]*)</) { relativeWords.insert(String(match.output.1)) }
        }
        // The run saw relative times of every size, so kept rows were checked against them.
        #expect(relativeWords.contains("just now") && relativeWords.contains { $0.hasSuffix("min ago") })
        #expect(relativeWords.contains { $0.hasSuffix("h ago") } && relativeWords.contains { $0.hasSuffix("d ago") })
        #expect(cache.renderedRows < 300 * 40 / 4, "rows rendered through the cache: \(cache.renderedRows)")
    }

    @Test("one changed row of 1,000 is the one row rendered; the page stream's row is the page's")
    func oneChangeRendersOneRow() throws {
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let store = try Self.store()
        store.replaceDocument(
            .array((0..<1_000).map { Self.row($0, price: Double($0) + 0.25, status: "passed", seen: now) }))
        let cache = TableRowCache()
        var renderer = PageRenderer(assetVersion: "v")
        renderer.rowCache = cache
        let profile = try #require(store.snapshot?.published.profile)
        let columns = TableColumns.shown(of: profile)
        let link = TableColumns.linkColumn(of: columns, profile: profile)
        func page() throws -> String {
            let view = try #require(store.snapshot?.published)
            return String(
                decoding: renderer.table(
                    view: view, profile: profile, query: TableQuery(), badge: StatusBadge(kind: .live, since: nil),
                    source: "s", now: now), as: UTF8.self)
        }
        _ = try page()
        #expect(cache.renderedRows == 1_000)
        for step in 1...20 {
            let place = step * 37
            try store.apply(JSONPatch(json: .array([Patch.replace("/\(place)/price", .double(0.5 + Double(step)))])))
            let shown = try page()
            #expect(cache.renderedRows == 1_000 + step, "step \(step)")
            #expect(shown.contains(#"data-value="\#(0.5 + Double(step))""#))
        }
        // A row the page stream renders is kept for the next page, and is the same HTML.
        try store.apply(JSONPatch(json: .array([Patch.replace("/999/price", .double(12.75))])))
        let item = try #require(store.snapshot?.published.item(forKey: "p999"))
        let fragment = renderer.tableRowFragment(
            item, columns: columns, linkColumn: link, tileOrder: TableColumns.tileOrder(of: profile), now: now)
        let rendered = cache.renderedRows
        let shown = try page()
        #expect(cache.renderedRows == rendered)
        #expect(shown.contains(fragment) && fragment.contains(#"data-value="12.75""#))
    }

    /// Renders a feed that rolls (20 documents of 200 new items each, the old ones gone)
    /// through `cache`, each page twice; the most bytes of HTML and rows it held.
    static func roll(through cache: TableRowCache) throws -> (bytes: Int, rows: Int) {
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let store = try Self.store()
        var renderer = PageRenderer(assetVersion: "v")
        renderer.rowCache = cache
        var most = (bytes: 0, rows: 0)
        for round in 0..<20 {
            store.replaceDocument(
                .array((0..<200).map { Self.row(round * 200 + $0, price: Double($0), status: "passed", seen: now) }))
            let view = try #require(store.snapshot?.published)
            for _ in 0..<2 {
                _ = renderer.table(
                    view: view, profile: view.profile, query: TableQuery(),
                    badge: StatusBadge(kind: .live, since: nil), source: "s", now: now)
                most = (max(most.bytes, cache.heldBytes), max(most.rows, cache.heldRows))
            }
        }
        return most
    }

    @Test("the HTML it keeps stays within twice a generation's bytes, however many rows pass through")
    func heldBytesAreBounded() throws {
        let cache = TableRowCache(generationBytes: 16 << 10)
        let most = try Self.roll(through: cache)
        // A page of 200 rows does not fit in 16 KiB: its second render renders some again.
        #expect(cache.renderedRows > 4_000)
        #expect(most.bytes > 16 << 10 && most.bytes <= 2 * (16 << 10) + 2_048, "held at most \(most.bytes) bytes")
    }

    @Test("a dropped generation is let go one row per row asked for, gone when the next is dropped")
    func droppedGenerationIsReleasedGradually() throws {
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let store = try Self.store()
        store.replaceDocument(.array((0..<1_500).map { Self.row($0, price: 1, status: "passed", seen: now) }))
        let view = try #require(store.snapshot?.published)
        let columns = TableColumns.shown(of: view.profile)
        let link = TableColumns.linkColumn(of: columns, profile: view.profile)
        let cache = TableRowCache(generationRows: 300)
        var renderer = PageRenderer(assetVersion: "v")
        renderer.rowCache = cache
        // Rows rendered one call each, as a frame renders the rows that changed: 5 drops.
        var waiting: [Int] = []
        for item in view.items {
            _ = renderer.tableRowFragment(
                item, columns: columns, linkColumn: link, tileOrder: TableColumns.tileOrder(of: view.profile), now: now)
            waiting.append(cache.retiredRows)
        }
        #expect(cache.renderedRows == 1_500)
        // The first drop (call 300) retires the then empty older generation; each later one
        // (calls 600, 900, …) a generation of 300 rows, of which each call after lets one go.
        #expect(waiting[0..<599].allSatisfy { $0 == 0 })
        let afterSecondDrop = Array(waiting[599..<1_499])
        #expect(afterSecondDrop == (0..<900).map { 300 - $0 % 300 })
        #expect(cache.heldRows <= 600)
    }

    @Test("the rows it keeps stay within two generations, the items they were rendered from with them")
    func heldRowsAreBounded() throws {
        let cache = TableRowCache(generationRows: 300)
        let most = try Self.roll(through: cache)
        // Each page fits in a generation: its second render renders nothing.
        #expect(cache.renderedRows == 4_000)
        #expect(most.rows > 300 && most.rows <= 600, "held at most \(most.rows) rows")
    }
}
