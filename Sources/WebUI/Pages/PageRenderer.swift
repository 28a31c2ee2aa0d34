import FeedCore
import Foundation

/// Renders pages and fragments from the templates. The only code that turns feed data
/// into HTML; it is called once per change per page (see ``PageCache``), never per request.
struct PageRenderer: Sendable {
    /// Appended to static URLs so browsers fetch new assets after they change.
    let assetVersion: String
    /// The board's name (`--title`): the masthead's, the kiosk's, the end of every title.
    var brand = "feedweb"
    /// The templates pages and fragments are rendered from (`--templates`).
    var templates = TemplateSet.builtin
    /// Where the links to feedweb's own pages point (`--public-origin`).
    var links = PageLinks.paths
    /// Where a missing or broken thumbnail points.
    var placeholder: String { links.placeholder }
    /// The table rows rendered lately (``TemplateLibrary/tableRows``); `nil`: every row is
    /// rendered.
    var rowCache: TableRowCache?
    /// The list entries rendered lately (``TemplateLibrary/stories``); `nil`: every entry is
    /// rendered.
    var storyCache: StoryFragmentCache?

    /// What a page of the past (`?at=`) says above its content, in place of the live badge.
    struct PastBanner {
        /// The change shown, `EPOCH-SEQ`.
        let id: String
        /// When it was committed, RFC 3339 (the script shows it in the viewer's zone).
        let timeMachine: String
        /// The same, `HH:MM:SS UTC`, for a page without script.
        let timeText: String
        /// The live page.
        let liveHref: String

        init(id: EventID, time: WallTime, liveHref: String) {
            self.id = id.description
            self.timeMachine = time.description
            // `2026-11-24T14:03:12.345Z` → `14:03:12 UTC`
            self.timeText = String(time.description.dropFirst(11).prefix(8)) + " UTC"
            self.liveHref = liveHref
        }
    }

    struct Frame {
        let title: String
        let brand: String
        /// The masthead's name for `/`: "Latest" for news, "Items" for a table.
        let listLabel: String
        /// Whether the page shows items that are not news (and marks their changed values:
        /// `Public/cells.js`).
        let isTable: Bool
        let bodyClass: String
        let stream: String
        let past: PastBanner?
        let navLatest: Bool
        let navStats: Bool
        let badge: BadgeView
        let updatedMachine: String?
        let updatedText: String?
        let main: String
        let footer: String
        let assetVersion: String
        /// Whether the page was rendered before feedweb held any document: the page script
        /// reloads it when the first items come, which may be read in another layout.
        let waiting: Bool
    }

    /// The badge as the templates read it: its kind (a class), its words, and what went
    /// wrong upstream (``StatusBadge/problem``).
    struct BadgeView {
        let kind: String
        let label: String
        let problem: String?

        init(kind: String, label: String, problem: String? = nil) {
            self.kind = kind
            self.label = label
            self.problem = problem
        }

        init(_ badge: StatusBadge) {
            self.init(kind: badge.kind.rawValue, label: badge.label, problem: badge.problem)
        }
    }

    struct SectionLink {
        let name: String
        let href: String
        let current: Bool
    }

    struct ListContext {
        let heading: String
        let countText: String
        let section: String?
        let sections: [SectionLink]
        let stories: [StoryView]
        /// Stored, not computed: templates read stored values (TemplateValues.swift).
        let hasSections: Bool
        let emptyText: String
    }

    struct ErrorContext {
        let code: Int
        let heading: String
        let message: String
        /// The way back to `/`, in the feed's words: "Back to the latest stories", "Back to
        /// all items".
        let home: String
    }

    /// The list page, optionally filtered to one section; of the past (no stream) with `past`.
    func list(
        view: PublishedView?, section: String?, badge: StatusBadge, source: String, now: Date, past: PastBanner? = nil
    ) -> [UInt8] {
        let items = view?.items(inSection: section) ?? []
        let sectionNames = (view?.sections ?? []).sorted()
        let showsPlaceholder = view?.profile.showsPlaceholder ?? true
        let context = ListContext(
            heading: section ?? "Latest",
            countText: view == nil ? "" : Self.countText(items.count, layout: .news),
            section: section,
            sections: sectionNames.map {
                SectionLink(name: $0, href: links.section($0), current: $0 == section)
            },
            stories: items.map {
                StoryView($0, now: now, links: links, showsPlaceholder: showsPlaceholder)
            },
            hasSections: !sectionNames.isEmpty,
            emptyText: view == nil
                ? badge.waitingText
                : (section == nil ? "The feed has no stories right now." : "No stories in this section right now.")
        )
        let main = templates.library.render(context, withTemplate: "list") ?? ""
        return page(
            title: (section ?? "Latest") + " · " + brand, bodyClass: "page-list",
            stream: "list", navLatest: section == nil, badge: badge, updated: view?.publishedAt, main: main,
            source: source, past: past, waiting: view == nil)
    }

    /// `/` for items that are not news (``ItemProfile/Layout/table``): one page of the table
    /// `query` asks for; of the past (no stream) with `past`. `profile` is the view's, or
    /// the store's while there is no view.
    func table(
        view: PublishedView?, profile: ItemProfile, query: TableQuery, badge: StatusBadge, source: String, now: Date,
        past: PastBanner? = nil
    ) -> [UInt8] {
        // Headed by what the items are (`departures`: "Departures"), else by the board's name.
        let unfiltered =
            brand == "feedweb" ? ItemShapeDetector.collectionLabel(of: profile.itemsPath) ?? Self.allItems : brand
        let context = TableView(
            view: view, profile: profile, query: query, unfilteredHeading: unfiltered,
            waitingText: view == nil ? badge.waitingText : nil, links: links
        ) { items, columns, linkColumn in
            tableRows(
                items, columns: columns, linkColumn: linkColumn, tileOrder: TableColumns.tileOrder(of: profile),
                now: now)
        }
        let main = templates.library.render(context, withTemplate: "table") ?? ""
        // The tab says what the page shows ("Departures · feedweb", "Failed · LHR board"),
        // not "All items" or the board's name twice.
        let shown = context.heading == brand || context.heading == Self.allItems ? "" : context.heading + " · "
        return page(
            title: shown + brand, bodyClass: "page-list page-table",
            stream: query.spec, navLatest: query.section == nil, badge: badge, updated: view?.publishedAt,
            main: main, source: source, past: past, layout: .table, waiting: view == nil)
    }

    /// The `tableHead` template's context: a table's header.
    struct TableHeadContext {
        let columns: [TableView.Head]
    }

    /// The header row of the table `query` asks for, as the `table` page has it in its
    /// `<thead id="columns">` (``TableView/heads(of:profile:query:links:)``): what a page of
    /// the dialects gets in a whole state, so that it need not know the columns.
    func tableHead(profile: ItemProfile, query: TableQuery) -> String {
        let heads = TableView.heads(
            of: TableColumns.shown(of: profile), profile: profile, query: query, links: links)
        return templates.library.render(TableHeadContext(columns: heads), withTemplate: "tableHead") ?? ""
    }

    /// The heading of a whole table whose items' member says nothing of them.
    static let allItems = "All items"

    struct KioskStoryView {
        let story: StoryView
        let featured: Bool
    }

    struct KioskContext {
        let title: String
        let stream: String
        let past: PastBanner?
        /// The section or filter value the kiosk shows, as the URL has it (for the script).
        let section: String?
        /// ``section`` as people read it: a table's status `major_outage` as "major outage".
        let sectionText: String?
        let badge: BadgeView
        let stories: [KioskStoryView]
        let emptyText: String
        let nowMachine: String
        let nowText: String
        let assetVersion: String
        let brand: String
        /// Whether the board shows tiles (items that are not news) rather than stories.
        let isTable: Bool
        let tiles: [KioskTileView]
        let tileCount: Int
        /// Seconds a marked item is shown full screen unless the URL says (`--attention`).
        let attention: Int
        /// Rendered before feedweb held any document (``Frame/waiting``).
        let waiting: Bool
    }

    struct KioskTileView {
        let row: RowView
        let featured: Bool
    }

    /// The most stories the kiosk shows: one featured and six beside it (a TV has no
    /// scrollbar); the page script cycles the highlight through them.
    static let kioskLimit = 7
    /// The most tiles the kiosk of a table shows (four by three on a TV).
    static let kioskTileLimit = 12

    /// What the kiosk of `view` shows, filtered to `section`: its first stories, or the
    /// tiles of a table (those in trouble kept in: ``KioskTiles/shown(_:profile:limit:)``;
    /// the page stream's ``KioskTilesMemo`` chooses alike, from the view before).
    static func kioskItems(_ view: PublishedView?, section: String?) -> ChunkedArray<FeedItem> {
        guard let view else { return [] }
        let items = view.items(inSection: section)
        guard view.profile.layout == .table else { return ChunkedArray(items.prefix(kioskLimit)) }
        return KioskTiles.ordered(
            KioskTiles.shown(items, profile: view.profile, limit: kioskTileLimit), profile: view.profile)
    }

    /// The kiosk board, optionally filtered to one section; of the past (no stream) with
    /// `past`.
    func kiosk(
        view: PublishedView?, section: String?, badge: StatusBadge, now: Date, past: PastBanner? = nil,
        attention: Int = 0
    ) -> [UInt8] {
        let profile = view?.profile
        let isTable = profile?.layout == .table
        let items = Self.kioskItems(view, section: section)
        let tiles: [KioskTileView]
        if isTable, let profile {
            let columns = TableColumns.columns(of: profile)
            let link = TableColumns.linkColumn(of: columns, profile: profile)
            tiles = items.enumerated().map { index, item in
                KioskTileView(
                    row: RowView(
                        item, columns: columns, linkColumn: link, now: now, links: links, scores: profile.scores),
                    featured: index == 0)
            }
        } else {
            tiles = []
        }
        let showsPlaceholder = profile?.showsPlaceholder ?? true
        let sectionText = section.map { value in
            guard isTable, let profile else { return value }
            return TableColumns.filterText(value, profile: profile)
        }
        let context = KioskContext(
            title: (sectionText.map { $0 + " · " } ?? "") + brand + " kiosk",
            stream: past == nil ? "kiosk" : "", past: past,
            section: section, sectionText: sectionText,
            badge: BadgeView(badge),
            stories: isTable
                ? []
                : items.enumerated().map { index, item in
                    KioskStoryView(
                        story: StoryView(item, now: now, links: links, showsPlaceholder: showsPlaceholder),
                        featured: index == 0)
                },
            emptyText: view == nil
                ? "Waiting for the feed…"
                : (view?.itemsProblem ?? (isTable ? "No items right now." : "No stories right now.")),
            nowMachine: RelativeTime.machine(now),
            nowText: now.formatted(Date.ISO8601FormatStyle().time(includingFractionalSeconds: false)).prefix(5)
                .description,
            assetVersion: assetVersion, brand: brand, isTable: isTable, tiles: tiles, tileCount: tiles.count,
            attention: attention, waiting: view == nil && past == nil)
        return Array((templates.library.render(context, withTemplate: "kiosk") ?? "").utf8)
    }

    /// The detail page of one item; of the past (no stream) with `past`.
    func detail(
        item: FeedItem, profile: ItemProfile, badge: StatusBadge, updated: Date?, source: String, now: Date,
        past: PastBanner? = nil
    ) -> [UInt8] {
        let main = detailFragment(item, profile: profile, now: now)
        let isTable = profile.layout == .table
        return page(
            title: "\(item.title ?? (isTable ? item.key : "Story")) · " + brand, bodyClass: "page-detail",
            stream: "item:" + item.key, navLatest: false, badge: badge, updated: updated, main: main, source: source,
            past: past, layout: profile.layout)
    }

    /// A 4xx page, in the words of a feed of `layout` (its navigation, its way back).
    func error(code: Int, heading: String, message: String, layout: ItemProfile.Layout) -> [UInt8] {
        let home = layout == .table ? "Back to all items" : "Back to the latest stories"
        let main =
            templates.library.render(
                ErrorContext(code: code, heading: heading, message: message, home: home), withTemplate: "error") ?? ""
        return page(
            title: "\(heading) · " + brand, bodyClass: "page-error", stream: "", navLatest: false,
            badge: StatusBadge(kind: .live, since: nil), updated: nil, main: main, source: "", showBadge: false,
            layout: layout)
    }

    /// `/stats`: the charts of `window`, the ticker and the notable events.
    func stats(
        window: StatsWindow, ticker: TickerEntry?, badge: StatusBadge, updated: Date?, source: String, now: Date,
        layout: ItemProfile.Layout = .news
    ) -> [UInt8] {
        let main = templates.library.render(
            StatsView(window: window, ticker: ticker, now: now, links: links, layout: layout), withTemplate: "stats")
        return page(
            title: "Stats · " + brand, bodyClass: "page-stats", stream: "stats", navLatest: false, navStats: true,
            badge: badge, updated: updated, main: main ?? "", source: source, layout: layout)
    }

    // MARK: - Fragments for the page stream (the same templates as the pages)

    /// The parts of `/stats` that change with the window, by element id: the summary, the
    /// two charts and the notable events.
    func statsFragments(window: StatsWindow, now: Date, layout: ItemProfile.Layout = .news) -> [(
        id: String, html: String
    )] {
        let view = StatsView(window: window, ticker: nil, now: now, links: links, layout: layout)
        return [
            ("stats-summary", templates.library.render(view, withTemplate: "statsSummary") ?? ""),
            ("stats-rate", templates.library.render(view.rate, withTemplate: "statsChart") ?? ""),
            ("stats-bytes", templates.library.render(view.bytes, withTemplate: "statsChart") ?? ""),
            ("stats-events", templates.library.render(view, withTemplate: "statsEvents") ?? ""),
        ]
    }

    struct TickerContext {
        let ticker: StatsView.Ticker?
    }

    /// The ticker of `/stats`.
    func tickerFragment(_ ticker: TickerEntry?, now: Date, layout: ItemProfile.Layout = .news) -> String {
        templates.library.render(
            TickerContext(ticker: ticker.map { StatsView.ticker($0, now: now, links: links, layout: layout) }),
            withTemplate: "statsTicker") ?? ""
    }

    /// One list entry.
    func storyFragment(_ item: FeedItem, profile: ItemProfile, now: Date) -> String {
        storyFragments(CollectionOfOne(item), profile: profile, now: now).first ?? ""
    }

    /// The list entries of `items`, in their order: those ``storyCache`` keeps, the others
    /// rendered (and kept), the cache asked once for them all.
    func storyFragments(_ items: some Collection<FeedItem>, profile: ItemProfile, now: Date) -> [String] {
        let templates = self.templates
        let links = self.links
        func render(_ item: FeedItem) -> (html: String, moment: Date?) {
            let moment = StoryView.moment(of: item)
            let story = StoryView(
                item, now: now, links: links, showsPlaceholder: profile.showsPlaceholder, moment: moment)
            return (templates.library.render(story, withTemplate: "story") ?? "", moment)
        }
        guard let storyCache else { return items.map { render($0).html } }
        let shape = StoryShape(
            templates: templates.version, links: links, showsPlaceholder: profile.showsPlaceholder)
        return storyCache.stories(items, shape: shape, now: now, render: render)
    }

    /// One table row; `columns` and `linkColumn` as ``TableColumns`` gives them for the
    /// view's profile (worked out once per frame, not per row). Kept for the pages
    /// (``rowCache``).
    func tableRowFragment(
        _ item: FeedItem, columns: [ItemColumn], linkColumn: Int, tileOrder: [String], now: Date
    ) -> String {
        tableRows(CollectionOfOne(item), columns: columns, linkColumn: linkColumn, tileOrder: tileOrder, now: now)
            .first?.html ?? ""
    }

    /// The rows of `items` as the `tableRow` template renders them: those ``rowCache``
    /// keeps, the others rendered (and kept). `tileOrder`: ``TableColumns/tileOrder(of:)``.
    func tableRows(
        _ items: some Collection<FeedItem>, columns: [ItemColumn], linkColumn: Int, tileOrder: [String], now: Date
    ) -> [TableView.Row] {
        let templates = self.templates
        let links = self.links
        func row(_ item: FeedItem) -> RowView {
            RowView(item, columns: columns, linkColumn: linkColumn, now: now, links: links, tileOrder: tileOrder)
        }
        func render(_ item: FeedItem) -> (html: String, row: RowView) {
            let row = row(item)
            return (templates.render(row, "tableRow"), row)
        }
        guard let rowCache else {
            return items.map { item in
                let (html, made) = render(item)
                return TableView.Row(html: html, row: made) { row(item) }
            }
        }
        let shape = TableRowShape(
            templates: templates.version, columns: columns, linkColumn: linkColumn, tileOrder: tileOrder, links: links,
            year: DetailView.UTCParts(now).year)
        return zip(items, rowCache.rows(items, shape: shape, now: now, render: render)).map { item, rendered in
            TableView.Row(html: rendered.html, row: rendered.row) { row(item) }
        }
    }

    /// One kiosk entry (the page script decides which one is highlighted): a story, or for
    /// a table a tile.
    func kioskStoryFragment(_ item: FeedItem, profile: ItemProfile, now: Date) -> String {
        if profile.layout == .table {
            let columns = TableColumns.columns(of: profile)
            let row = RowView(
                item, columns: columns, linkColumn: TableColumns.linkColumn(of: columns, profile: profile), now: now,
                links: links, scores: profile.scores)
            return templates.library.render(KioskTileView(row: row, featured: false), withTemplate: "kioskTile") ?? ""
        }
        return templates.library.render(
            KioskStoryView(
                story: StoryView(item, now: now, links: links, showsPlaceholder: profile.showsPlaceholder),
                featured: false),
            withTemplate: "kioskStory") ?? ""
    }

    /// Whether `item` has a title of its own at the profile's title field, not one taken
    /// from its text (``ItemText``).
    private static func hasOwnTitle(_ item: FeedItem, _ profile: ItemProfile) -> Bool {
        guard let pointer = profile.fields[.title], let title = item.raw.value(at: pointer)?.stringValue else {
            return false
        }
        return !title.allSatisfy(\.isWhitespace)
    }

    /// The detail article of one item: a story, or an item's values and fields.
    func detailFragment(_ item: FeedItem, profile: ItemProfile, now: Date) -> String {
        if profile.layout == .table {
            return templates.library.render(
                TableDetailView(item, profile: profile, now: now, links: links), withTemplate: "detailTable") ?? ""
        }
        return templates.library.render(
            DetailView(
                item, now: now, links: links, showsPlaceholder: profile.showsPlaceholder,
                bodyPaths: profile.bodyPaths,
                titledByText: !profile.bodyPaths.isEmpty && !Self.hasOwnTitle(item, profile)
            ),
            withTemplate: "detail") ?? ""
    }

    struct BadgeContext {
        let badge: BadgeView
        let updatedMachine: String?
        let updatedText: String?
    }

    /// The status badge of the list and detail pages.
    func badgeFragment(_ badge: StatusBadge, updated: Date?, now: Date) -> String {
        templates.library.render(
            BadgeContext(
                badge: BadgeView(badge),
                updatedMachine: updated.map(RelativeTime.machine),
                updatedText: updated.map { RelativeTime.describeSeconds($0, now: now) }),
            withTemplate: "badge") ?? ""
    }

    /// The kiosk's connection banner.
    func kioskStatusFragment(_ badge: StatusBadge) -> String {
        templates.library.render(
            BadgeContext(
                badge: BadgeView(badge), updatedMachine: nil, updatedText: nil),
            withTemplate: "kioskStatus") ?? ""
    }

    /// "1 story" / "N stories" for news; "1 item" / "1,234 items" for a table.
    static func countText(_ count: Int, layout: ItemProfile.Layout) -> String {
        switch layout {
        case .news: return count == 1 ? "1 story" : "\(count) stories"
        case .table: return count == 1 ? "1 item" : TableView.number(count) + " items"
        }
    }

    /// What the item page's `#gone` notice says (as the detail templates have it), for the
    /// page-stream dialects, which show it by replacing the element.
    static func goneText(layout: ItemProfile.Layout) -> String {
        switch layout {
        case .news: return "This story has left the feed. What you see is its last version."
        case .table: return "This item has left the feed. What you see is its last version."
        }
    }

    /// The page frame around `main`. A page of the past (`past`) has no stream and no live
    /// badge: its banner says which moment it shows. `waiting`: `main` shows that feedweb
    /// holds no document yet (``Frame/waiting``).
    func page(
        title: String, bodyClass: String, stream: String, navLatest: Bool, navStats: Bool = false, badge: StatusBadge,
        updated: Date?, main: String, source: String, showBadge: Bool = true, past: PastBanner? = nil,
        layout: ItemProfile.Layout = .news, waiting: Bool = false
    ) -> [UInt8] {
        let frame = Frame(
            title: title, brand: brand, listLabel: layout == .table ? "Items" : "Latest", isTable: layout == .table,
            bodyClass: bodyClass, stream: past == nil ? stream : "", past: past, navLatest: navLatest,
            navStats: navStats,
            badge: showBadge && past == nil ? BadgeView(badge) : BadgeView(kind: "hidden", label: badge.label),
            updatedMachine: updated.map(RelativeTime.machine),
            updatedText: updated.map { RelativeTime.describeSeconds($0, now: Date()) },
            main: main,
            footer: source.isEmpty ? "feedweb" : "feedweb · source: \(source)",
            assetVersion: assetVersion, waiting: waiting && past == nil)
        return Array((templates.library.render(frame, withTemplate: "layout") ?? "").utf8)
    }
}
