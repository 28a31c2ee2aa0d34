import FeedCore
import Foundation

/// `/board`: several views on one page (``BoardQuery``). Each cell holds the `<main>` of
/// its view's own page, rendered by the same templates as that page (so the page stream's
/// fragments fit it as they fit the page), inside a shadow root of its own.
extension PageRenderer {
    struct BoardCellView {
        /// The view as the URL named it (`data-view`).
        let name: String
        /// The page stream's name of it (`data-spec`).
        let spec: String
        /// The body class of the view's own page (its styles apply inside the cell).
        let pageClass: String
        /// The view's `<main>`, as its own page renders it.
        let main: String
    }

    struct BoardContext {
        let title: String
        let brand: String
        let badge: BadgeView
        let columns: Int
        let cellCount: Int
        let cells: [BoardCellView]
        /// Seconds per cell, `30,15,20`, or empty (every cell at once).
        let rotate: String
        let attention: Int
        /// `on` or `off`.
        let shift: String
        /// `HH:MM-HH:MM`, or empty.
        let dim: String
        let isTable: Bool
        let assetVersion: String
        /// Rendered before feedweb held any document (``Frame/waiting``).
        let waiting: Bool
    }

    /// What a cell's view is rendered from: the published view, the badge, the `/stats`
    /// window and ticker.
    struct BoardSources {
        let view: PublishedView?
        let badge: StatusBadge
        let stats: StatsWindow
        let ticker: TickerEntry?
        let source: String
        let now: Date
    }

    /// The board `query` asks for.
    func board(_ query: BoardQuery, from sources: BoardSources) -> [UInt8] {
        let profile = sources.view?.profile ?? .nytNewswire
        let cells = query.cells.map { cell in
            let channel = cell.channel(for: profile.layout)
            return BoardCellView(
                name: cell.name, spec: channel.spec, pageClass: Self.pageClass(of: channel),
                main: boardCell(channel, from: sources, profile: profile))
        }
        let context = BoardContext(
            title: query.cells.map(\.name).joined(separator: " · ") + " · " + brand + " board", brand: brand,
            badge: BadgeView(sources.badge),
            columns: query.columns, cellCount: cells.count, cells: cells,
            rotate: query.rotation.map(String.init).joined(separator: ","), attention: query.attention,
            shift: query.shift ? "on" : "off", dim: query.dim ?? "", isTable: profile.layout == .table,
            assetVersion: assetVersion, waiting: sources.view == nil)
        return Array((templates.library.render(context, withTemplate: "board") ?? "").utf8)
    }

    /// The body class of `channel`'s own page.
    static func pageClass(of channel: PageEventStream.Channel) -> String {
        switch channel {
        case .list: "page-list"
        case .table: "page-list page-table"
        case .kiosk: "page-kiosk"
        case .item: "page-detail"
        case .stats: "page-stats"
        case .inspect: "page-inspect"
        }
    }

    /// The `<main>` of `channel`'s own page.
    private func boardCell(_ channel: PageEventStream.Channel, from sources: BoardSources, profile: ItemProfile)
        -> String
    {
        let page: [UInt8]
        switch channel {
        case .list(let section):
            page = list(
                view: sources.view, section: section, badge: sources.badge, source: sources.source, now: sources.now)
        case .table(let query):
            page = table(
                view: sources.view, profile: profile, query: query, badge: sources.badge, source: sources.source,
                now: sources.now)
        case .kiosk(let section):
            page = kiosk(view: sources.view, section: section, badge: sources.badge, now: sources.now)
        case .item(let key):
            guard let item = sources.view?.item(forKey: key) else {
                // Not in the feed now: the place its article takes once it is.
                let text = HTMLEscaping.escape("\(key) is not in the feed right now.")
                return #"<main id="main"><article class="detail" id="detail"><p>\#(text)</p></article></main>"#
            }
            return #"<main id="main">"# + detailFragment(item, profile: profile, now: sources.now) + "</main>"
        case .stats:
            page = stats(
                window: sources.stats, ticker: sources.ticker, badge: sources.badge, updated: sources.view?.publishedAt,
                source: sources.source, now: sources.now, layout: profile.layout)
        case .inspect:
            return ""
        }
        return Self.mainElement(of: String(decoding: page, as: UTF8.self))
    }

    /// The `<main>` element of a rendered page (the whole page when it has none: a template
    /// of one's own may lay it out otherwise).
    static func mainElement(of page: String) -> String {
        guard let start = page.range(of: "<main"), let end = page.range(of: "</main>", options: .backwards),
            start.lowerBound < end.lowerBound
        else { return page }
        return String(page[start.lowerBound..<end.upperBound])
    }
}
