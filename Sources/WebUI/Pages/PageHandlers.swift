import FeedCore
import Foundation

/// The HTML pages: `/`, `/kiosk`, `/board`, `/stats`, `/items/{key}` and `/inspect`.
///
/// Each page is rendered once per ``PageCache/Stamp`` (what it shows: the published
/// sequence, the badge, the asset version, and for `/stats` the window) and the same
/// prepared response answers every request until the stamp moves.
///
/// `/`, `/kiosk` and `/items/{key}` take `?at=ID|TIME` (``PastMoment``): the page as the
/// published view was after that change, with a banner saying when and no stream; rendered
/// per request (the past is asked for rarely), 410 outside what is kept, 400 for an `at`
/// that is not a moment.
struct PageHandlers: Sendable {
    let store: FeedStore
    /// The `/stats` figures and ticker.
    let stats: StatsRecorder
    let cache: PageCache
    let badges: StatusBadgeSource
    /// For the asset version pages link their scripts and styles with.
    let assets: StaticAssets
    /// The configured source's name, shown in the footer.
    let sourceLabel: String
    let htmlHeaders: [(String, String)]
    /// The 404 page (for an item not in the published view, or a render that failed to
    /// allocate) and the 400 page (for an `at` that is not a moment).
    let errors: ErrorResponses
    private var notFound: PreparedResponse { errors.notFound }
    private var badRequest: PreparedResponse { errors.badRequest }
    /// `/inspect`'s sources (`nil`: `--inspect off`, and `/inspect` is 404).
    let inspector: Inspector?
    /// The board's name (`--title`).
    let brand: String
    /// The templates in use (`--templates`).
    let templates: TemplateLibrary
    /// The boards named once, attention and the dim schedule (`--playlist`, `--attention`,
    /// `--dim`).
    var screens = ScreenSettings()
    /// Where the links to feedweb's own pages point (`--public-origin`).
    var links = PageLinks.paths

    /// A renderer of pages linking the static files of `assetVersion`, from the templates
    /// in use.
    private func renderer(_ assetVersion: String, templates set: TemplateSet? = nil) -> PageRenderer {
        var renderer = PageRenderer(assetVersion: assetVersion, brand: brand, templates: set ?? templates.current)
        renderer.links = links
        renderer.rowCache = templates.tableRows
        renderer.storyCache = templates.stories
        return renderer
    }

    /// `POST /screens/shown?screen=NAME&view=VIEWS` (or `attention=ID&label=LABEL`, or
    /// `dim=on|off`): what a named screen showed, kept for `/inspect` (``ScreenShowings``);
    /// 204, 400 naming the parameter that is wrong, 404 when `--inspect off`.
    func screenShown(_ request: HTTPRequest) -> PreparedResponse {
        guard let inspector else { return notFound }
        func rejected(_ parameter: String, _ message: String) -> PreparedResponse {
            let page = renderer(assets.version).error(
                code: 400, heading: "Bad parameter: \(parameter)", message: message, layout: layout)
            return PreparedResponse(status: 400, body: page, headers: htmlHeaders) ?? badRequest
        }
        guard let screen = request.query("screen"), ScreenName.isValid(screen) else {
            return rejected("screen", "screen is the page's name, 1 to 64 of A-Z a-z 0-9 . _ : -")
        }
        do {
            inspector.showings.record(try ScreenShowings.Showing(request: request, at: .now()), screen: screen)
        } catch {
            return rejected(error.parameter, error.message)
        }
        return PreparedResponse(status: 204, body: [], headers: []) ?? notFound
    }

    /// `/inspect`: rendered per request (it moves with every event), never cached.
    func inspect() -> PreparedResponse {
        guard let inspector else { return notFound }
        let page = renderer(assets.version).inspect(
            frame: inspector.frame(), badge: badges.badge(), source: sourceLabel, now: Date())
        return PreparedResponse(status: 200, body: page, headers: htmlHeaders) ?? notFound
    }

    /// `/?section=`: the published stories, optionally of one section; for items that are
    /// not news, the table (``table(_:view:profile:)``).
    func list(_ request: HTTPRequest) -> PreparedResponse {
        let view = store.snapshot?.published
        let profile = view?.profile ?? store.itemReading.profile
        if profile.layout == .table { return table(request, view: view, profile: profile) }
        let section = request.sectionFilter
        if let moment = request.pastMoment {
            return past(moment, live: "/" + Self.sectionQuery(section)) { renderer, view, banner in
                renderer.list(
                    view: view, section: section, badge: badges.badge(), source: sourceLabel, now: Date(),
                    past: banner)
            }
        }
        let stamp = self.stamp(published: view?.id)
        let route = section.map { "list?section=" + $0 } ?? "list"
        return render(route, stamp: stamp) { renderer in
            renderer.list(view: view, section: section, badge: stamp.badge, source: sourceLabel, now: Date())
        }
    }

    /// `/?section=&sort=&order=&page=`: one page of the table of items that are not news;
    /// 400 naming the parameter that is wrong.
    private func table(_ request: HTTPRequest, view: PublishedView?, profile: ItemProfile) -> PreparedResponse {
        let query: TableQuery
        do {
            query = try TableQuery(
                request: request, columns: TableColumns.columns(of: profile), defaultSort: profile.sort)
        } catch {
            let page = renderer(assets.version).error(
                code: 400, heading: "Bad parameter: \(error.parameter)", message: error.message, layout: layout)
            return PreparedResponse(status: 400, body: page, headers: htmlHeaders) ?? badRequest
        }
        if let moment = request.pastMoment {
            return past(moment, live: query.href()) { renderer, view, banner in
                renderer.table(
                    view: view, profile: view.profile, query: query, badge: badges.badge(), source: sourceLabel,
                    now: Date(), past: banner)
            }
        }
        let stamp = self.stamp(published: view?.id)
        return render(query.spec, stamp: stamp) { renderer in
            renderer.table(
                view: view, profile: profile, query: query, badge: stamp.badge, source: sourceLabel, now: Date())
        }
    }

    /// `/kiosk?section=`: the newest stories for a wall screen.
    func kiosk(_ request: HTTPRequest) -> PreparedResponse {
        let section = request.sectionFilter
        if let moment = request.pastMoment {
            return past(moment, live: "/kiosk" + Self.sectionQuery(section)) { renderer, view, banner in
                renderer.kiosk(view: view, section: section, badge: badges.badge(), now: Date(), past: banner)
            }
        }
        let view = store.snapshot?.published
        let stamp = self.stamp(published: view?.id)
        let route = section.map { "kiosk?section=" + $0 } ?? "kiosk"
        return render(route, stamp: stamp) { renderer in
            renderer.kiosk(
                view: view, section: section, badge: stamp.badge, now: Date(), attention: screens.attention)
        }
    }

    /// `/stats`: the stream compared with polling, per five-second window.
    func stats(_ request: HTTPRequest) -> PreparedResponse {
        let view = store.snapshot?.published
        let window = stats.window()
        var stamp = self.stamp(published: view?.id)
        stamp.statsWindow = window.endIndex
        return render("stats", stamp: stamp) { renderer in
            renderer.stats(
                window: window, ticker: stats.ticker, badge: stamp.badge, updated: view?.publishedAt,
                source: sourceLabel, now: Date(), layout: view?.profile.layout ?? store.itemReading.profile.layout)
        }
    }

    /// The feed's layout now, for a page's words (an error page's way back).
    private var layout: ItemProfile.Layout { store.layout }

    /// `/board?v=VIEW&v=VIEW…`: several views on one page (``BoardQuery``); 400 naming the
    /// parameter that is wrong. Rendered per request: a screen asks for it once.
    func board(_ request: HTTPRequest) -> PreparedResponse {
        let renderer = renderer(assets.version)
        guard let request = BoardPlaylist.resolve(request, in: screens.playlists) else {
            let names = screens.playlists.keys.sorted().joined(separator: ", ")
            let page = renderer.error(
                code: 400, heading: "Bad parameter: playlist",
                message: "There is no playlist '\(request.query("playlist") ?? "")'. "
                    + (names.isEmpty ? "None is named (--playlist)." : "Playlists: \(names)."), layout: layout)
            return PreparedResponse(status: 400, body: page, headers: htmlHeaders) ?? badRequest
        }
        let query: BoardQuery
        do {
            query = try BoardQuery(request: request, defaults: screens)
        } catch {
            let page = renderer.error(
                code: 400, heading: "Bad parameter: \(error.parameter)", message: error.message, layout: layout)
            return PreparedResponse(status: 400, body: page, headers: htmlHeaders) ?? badRequest
        }
        let view = store.snapshot?.published
        let sources = PageRenderer.BoardSources(
            view: view, badge: badges.badge(), stats: stats.window(), ticker: stats.ticker, source: sourceLabel,
            now: Date())
        return PreparedResponse(status: 200, body: renderer.board(query, from: sources), headers: htmlHeaders)
            ?? notFound
    }

    /// `/items/{key}`: one story, or 404 when it is not in the published view.
    func detail(key: String, request: HTTPRequest) -> PreparedResponse {
        if let moment = request.pastMoment {
            // Item keys are URL-safe (ItemKey): the link needs no escaping.
            return past(moment, live: "/items/" + key) { renderer, view, banner in
                view.item(forKey: key).map {
                    renderer.detail(
                        item: $0, profile: view.profile, badge: badges.badge(), updated: view.publishedAt,
                        source: sourceLabel, now: Date(), past: banner)
                }
            }
        }
        guard let view = store.snapshot?.published, let item = view.item(forKey: key) else { return notFound }
        let stamp = self.stamp(published: view.id)
        return render("item/" + key, stamp: stamp) { renderer in
            renderer.detail(
                item: item, profile: view.profile, badge: stamp.badge, updated: view.publishedAt, source: sourceLabel,
                now: Date())
        }
    }

    /// The page of the past `moment`: `body` rendered from the published view as it was then
    /// (`nil`: not found there, 404), with its banner; 400 for no moment, 410 outside what
    /// is kept.
    private func past(
        _ moment: PastMoment?, live: String,
        body: (PageRenderer, PublishedView, PageRenderer.PastBanner) -> [UInt8]?
    ) -> PreparedResponse {
        guard let moment else { return badRequest }
        let lookup: FeedPast.Lookup
        switch moment {
        case .change(let id): lookup = store.past(at: id)
        case .time(let time): lookup = store.past(atOrBefore: time)
        }
        let pastRenderer = renderer(assets.version)
        switch lookup {
        case .found(let entry):
            let banner = PageRenderer.PastBanner(id: entry.id, time: entry.time, liveHref: live)
            guard let page = body(pastRenderer, entry.snapshot.published, banner) else { return notFound }
            return PreparedResponse(status: 200, body: page, headers: htmlHeaders) ?? notFound
        case .outside(let earliest):
            let kept =
                earliest.map {
                    "The earliest kept is change \($0.id), of \(APIHandlers.timeText($0.time))."
                } ?? "Nothing is kept yet."
            let page = pastRenderer.error(
                code: 410, heading: "Not kept", message: "This moment is older than what feedweb keeps. \(kept)",
                layout: layout)
            return PreparedResponse(status: 410, body: page, headers: htmlHeaders) ?? notFound
        }
    }

    /// `?section=NAME` for a live link, or nothing.
    private static func sectionQuery(_ section: String?) -> String {
        section.map { "?section=" + StoryView.queryEscape($0) } ?? ""
    }

    /// The cache stamp of a page showing the view `published`, now.
    private func stamp(published: EventID?) -> PageCache.Stamp {
        PageCache.Stamp(
            published: published, badge: badges.badge(), assetVersion: assets.version,
            templates: templates.current.version)
    }

    /// The cached page for `route` at `stamp`, else `body` rendered (linking the assets of
    /// the stamp's version) and cached.
    private func render(_ route: String, stamp: PageCache.Stamp, body: (PageRenderer) -> [UInt8])
        -> PreparedResponse
    {
        cache.response(for: route, stamp: stamp) {
            PreparedResponse(
                status: 200, body: body(renderer(stamp.assetVersion)), headers: htmlHeaders)
        } ?? notFound
    }
}
