import Foundation
import Mustache
import Testing

@testable import FeedCore
@testable import WebUI

/// The templates read view models through `MustacheParent` (TemplateValues.swift): each
/// `child(named:)` must answer every stored property, with the value `Mirror` sees, and
/// nothing else. Checked here against `Mirror` on values built from a real item.
@Suite struct TemplateValuesTests {
    /// Every field `Mirror` sees answers the same value by name; an unknown name answers `nil`.
    static func check(_ value: some MustacheParent, sourceLocation: SourceLocation = #_sourceLocation) {
        let fields = Mirror(reflecting: value).children
        #expect(!fields.isEmpty, sourceLocation: sourceLocation)
        for field in fields {
            guard let label = field.label else { continue }
            let expected = unwrap(field.value).map { String(describing: $0) }
            let actual = value.child(named: label).map { String(describing: $0) }
            #expect(actual == expected, "\(type(of: value)).\(label)", sourceLocation: sourceLocation)
        }
        #expect(value.child(named: "noSuchField") == nil, sourceLocation: sourceLocation)
    }

    static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }

    /// An item with every field set, so no optional is empty by accident.
    static func fullItem(_ n: Int) -> FeedItem {
        var item = FeedItem(key: "key-\(n)")
        item.title = "Title \(n) <b>"
        item.section = "World"
        item.subsection = "Europe"
        item.abstract = "Abstract \(n)"
        item.byline = "By Someone \(n)"
        item.url = "https://example.com/\(n)"
        item.thumbnail = "https://example.com/\(n).jpg"
        item.published = "2026-11-24T05:00:00Z"
        item.updated = "2026-11-24T05:0\(n % 10):00Z"
        item.multimedia = [
            .init(
                url: "https://example.com/\(n)-big.jpg", caption: "Caption \(n)", credit: "Credit", width: 600,
                height: 400)
        ]
        item.related = [.init(text: "Related \(n)", url: "https://example.com/related/\(n)")]
        return item
    }

    @Test func storyDetailAndKioskValuesAnswerEveryField() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let story = StoryView(Self.fullItem(1), now: now, links: .paths)
        Self.check(story)
        let detail = DetailView(Self.fullItem(2), now: now, links: .paths)
        Self.check(detail)
        #expect(!detail.images.isEmpty && !detail.links.isEmpty)
        for image in detail.images { Self.check(image) }
        for link in detail.links { Self.check(link) }
        let blocks = DetailView.Paragraph.grouping([
            TextBlock(.heading, "h"), TextBlock(.paragraph, "p"), TextBlock(.numberedItem, "1"),
        ])
        for block in blocks { Self.check(block) }
        for item in blocks.flatMap(\.items) { Self.check(item) }
        #expect(blocks.count == 3 && blocks[2].isNumbered && blocks[2].items.count == 1)
        Self.check(PageRenderer.KioskStoryView(story: story, featured: true))
        let badge = PageRenderer.BadgeView(kind: "live", label: "Live")
        Self.check(badge)
        Self.check(
            PageRenderer.BadgeView(kind: "failing", label: "Upstream failing", problem: "upstream answered HTTP 404"))
        Self.check(
            PageRenderer.KioskContext(
                title: "kiosk", stream: "kiosk", past: Self.banner, section: "World", sectionText: "World",
                badge: badge, stories: [],
                emptyText: "empty", nowMachine: "m",
                nowText: "t", assetVersion: "v1", brand: "Board", isTable: false, tiles: [], tileCount: 0,
                attention: 0, waiting: true))
        Self.check(PageRenderer.BadgeContext(badge: badge, updatedMachine: "m", updatedText: "t"))
        let cell = PageRenderer.BoardCellView(
            name: "kiosk:World", spec: "kiosk:World", pageClass: "page-kiosk", main: "m")
        Self.check(cell)
        Self.check(
            PageRenderer.BoardContext(
                title: "board", brand: "Board", badge: badge, columns: 2, cellCount: 1, cells: [cell], rotate: "30",
                attention: 8, shift: "on", dim: "22:00-07:00", isTable: false, assetVersion: "v1",
                waiting: true))
    }

    static let banner = PageRenderer.PastBanner(
        id: EventID(epoch: "e", seq: 3), time: WallTime(microseconds: 1_795_000_000_000_000), liveHref: "/")

    @Test func pageFrameListAndErrorValuesAnswerEveryField() {
        Self.check(Self.banner)
        let link = PageRenderer.SectionLink(name: "World", href: "/?section=World", current: true)
        Self.check(link)
        Self.check(
            PageRenderer.ListContext(
                heading: "Latest", countText: "1 story", section: "World", sections: [link], stories: [],
                hasSections: true, emptyText: "empty"))
        Self.check(PageRenderer.ErrorContext(code: 404, heading: "Not found", message: "gone", home: "Back"))
        Self.check(
            PageRenderer.Frame(
                title: "t", brand: "Board", listLabel: "Latest", isTable: false, bodyClass: "page-list", stream: "list",
                past: Self.banner, navLatest: true,
                navStats: false,
                badge: PageRenderer.BadgeView(kind: "live", label: "Live"), updatedMachine: "m", updatedText: "t",
                main: "<main>", footer: "feedweb", assetVersion: "v1", waiting: true))
    }

    @Test func tableValuesAnswerEveryField() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let document = try JSONValue(
            parsing: #"""
                [{"id": "a", "name": "Alpha <b>", "price": 1.5, "status": "failed", "url": "https://x.example/a",
                  "seen": "2026-11-24T05:00:00Z", "logo": "https://x.example/a.png", "tags": ["x"]},
                 {"id": "b", "name": "Beta", "price": 2, "status": "passed", "url": "https://x.example/b",
                  "seen": "2026-11-24T06:00:00Z", "logo": "https://x.example/b.png", "tags": []},
                 {"id": "c", "name": "Gamma", "price": 3, "status": "passed", "url": "https://x.example/c",
                  "seen": "2026-11-24T07:00:00Z", "logo": "https://x.example/c.png", "tags": []},
                 {"id": "d", "name": "Delta", "price": 4, "status": "running", "url": "https://x.example/d",
                  "seen": "2026-11-24T08:00:00Z", "logo": "https://x.example/d.png", "tags": []}]
                """#)
        let reading = ItemShapeDetector.reading(of: document, overrides: .init())
        let store = FeedStore(configuration: .init(profile: reading.profile), epoch: "e")
        store.replaceDocument(document)
        let view = try #require(store.snapshot?.published)
        let table = TableView(
            view: view, profile: reading.profile, query: TableQuery(sort: ItemSort(column: "price", descending: true)),
            unfilteredHeading: "All", waitingText: nil, links: .paths
        ) { items, columns, linkColumn in
            PageRenderer(assetVersion: "v").tableRows(
                items, columns: columns, linkColumn: linkColumn, tileOrder: TableColumns.tileOrder(of: reading.profile),
                now: now)
        }
        Self.check(table)
        #expect(!table.columns.isEmpty && !table.rows.isEmpty && table.hasSections)
        for head in table.columns { Self.check(head) }
        Self.check(PageRenderer.TableHeadContext(columns: table.columns))
        for entry in table.rows {
            // A page's row answers `html` and, through its values, every name of a row.
            #expect(entry.child(named: "html") as? String == entry.html)
            #expect(entry.html.contains("id=\"\(entry.row.domID)\""))
            for field in Mirror(reflecting: entry.row).children {
                guard let label = field.label else { continue }
                #expect(
                    entry.child(named: label).map { String(describing: $0) }
                        == entry.row.child(named: label).map { String(describing: $0) }, "Row.\(label)")
            }
            Self.check(entry.row)
            for cell in entry.row.cells { Self.check(cell) }
        }
        let kinds = Set(
            table.rows.flatMap(\.row.cells).map { [$0.isPlain, $0.isLink, $0.isImage, $0.isTime, $0.isStatus] })
        #expect(kinds.count == 5, "every kind of cell checked: \(kinds)")
        let item = try #require(view.items.first)
        Self.check(TableDetailView(item, profile: reading.profile, now: now, links: .paths))
        Self.check(PageRenderer.KioskTileView(row: table.rows[0].row, featured: true))
    }

    @Test func statsValuesAnswerEveryField() {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        var statistics = FeedStatistics(startedAt: start)
        statistics.record(.received(bytes: 1234), at: start.addingTimeInterval(1))
        statistics.record(.reconnect(reason: "refused"), at: start.addingTimeInterval(2))
        let now = start.addingTimeInterval(30)
        let ticker = TickerEntry(title: "Headline", key: "k", isNew: true, time: start)
        let view = StatsView(window: statistics.window(at: now), ticker: ticker, now: now, links: .paths)
        Self.check(view)
        #expect(!view.tiles.isEmpty && !view.events.isEmpty && !view.rate.legend.isEmpty)
        for tile in view.tiles { Self.check(tile) }
        for event in view.events { Self.check(event) }
        Self.check(view.rate)
        for entry in view.rate.legend { Self.check(entry) }
        if let ticker = view.ticker { Self.check(ticker) }
        Self.check(PageRenderer.TickerContext(ticker: view.ticker))
    }

    @Test func inspectValuesAnswerEveryField() throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "e")
        let change = try #require(store.replaceDocument(.object(["a": .int(1)])))
        let event = InspectedEvent(
            id: change.snapshot.id, kind: .data, operations: 0, bytes: 7, arrivedAt: WallTime(microseconds: 1),
            stages: Stages(received: 1, parsed: 2, committed: 3, firstWrite: 5, lastWrite: 6, queued: 4),
            eventBytes: [1])
        let screens = ScreenList(
            pageStreams: [
                .init(
                    views: ["list"], screens: ["lobby"], since: WallTime(microseconds: 5), pendingBytes: 3,
                    stalledFor: 1.5)
            ],
            morePageStreams: 2,
            groups: [
                .init(name: "/events", clients: 3, oldest: WallTime(microseconds: 9), pendingBytes: 0, stalled: 1)
            ],
            showings: [
                .init(
                    name: "lobby",
                    showings: [.init(at: WallTime(microseconds: 7), kind: .attention, value: "item-1", label: "Hot")])
            ])
        let frame = InspectFrame(
            snapshot: change.snapshot, eventsVersion: 1, events: [event], exchangesVersion: 1,
            exchanges: [UpstreamExchange(kind: .connect, startedAt: Date(), status: 200, bytes: 10, error: "x")],
            screens: screens)
        let view = InspectView(frame, parts: .all, now: Date())
        Self.check(view)
        for row in view.events { Self.check(row) }
        for row in view.exchanges { Self.check(row) }
        for row in view.pages { Self.check(row) }
        for row in view.groups { Self.check(row) }
        for row in view.showings {
            Self.check(row)
            for entry in row.entries { Self.check(entry) }
        }
        #expect(
            !view.events.isEmpty && !view.exchanges.isEmpty && !view.pages.isEmpty && !view.groups.isEmpty
                && !view.showings.isEmpty)
    }
}
