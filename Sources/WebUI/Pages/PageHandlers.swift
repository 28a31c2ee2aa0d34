import FeedCore
import Foundation

/// The HTML pages: `/`, `/kiosk`, `/stats` and `/items/{key}`.
///
/// Each page is rendered once per ``PageCache/Stamp`` (what it shows: the published
/// sequence, the badge, the asset version, and for `/stats` the window) and the same
/// prepared response answers every request until the stamp moves.
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
    /// The 404 page, for an item not in the published view (or a render that failed to
    /// allocate).
    let notFound: PreparedResponse

    /// `/?section=`: the published stories, optionally of one section.
    func list(_ request: HTTPRequest) -> PreparedResponse {
        let section = request.sectionFilter
        let view = store.snapshot?.published
        let stamp = self.stamp(published: view?.id)
        let route = section.map { "list?section=" + $0 } ?? "list"
        return render(route, stamp: stamp) { renderer in
            renderer.list(view: view, section: section, badge: stamp.badge, source: sourceLabel, now: Date())
        }
    }

    /// `/kiosk?section=`: the newest stories for a wall screen.
    func kiosk(_ request: HTTPRequest) -> PreparedResponse {
        let section = request.sectionFilter
        let view = store.snapshot?.published
        let stamp = self.stamp(published: view?.id)
        let route = section.map { "kiosk?section=" + $0 } ?? "kiosk"
        return render(route, stamp: stamp) { renderer in
            renderer.kiosk(view: view, section: section, badge: stamp.badge, now: Date())
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
                source: sourceLabel, now: Date())
        }
    }

    /// `/items/{key}`: one story, or 404 when it is not in the published view.
    func detail(key: String) -> PreparedResponse {
        guard let view = store.snapshot?.published, let item = view.item(forKey: key) else { return notFound }
        let stamp = self.stamp(published: view.id)
        return render("item/" + key, stamp: stamp) { renderer in
            renderer.detail(item: item, badge: stamp.badge, updated: view.publishedAt, source: sourceLabel, now: Date())
        }
    }

    /// The cache stamp of a page showing the view `published`, now.
    private func stamp(published: EventID?) -> PageCache.Stamp {
        PageCache.Stamp(published: published, badge: badges.badge(), assetVersion: assets.version)
    }

    /// The cached page for `route` at `stamp`, else `body` rendered (linking the assets of
    /// the stamp's version) and cached.
    private func render(_ route: String, stamp: PageCache.Stamp, body: (PageRenderer) -> [UInt8])
        -> PreparedResponse
    {
        cache.response(for: route, stamp: stamp) {
            PreparedResponse(
                status: 200, body: body(PageRenderer(assetVersion: stamp.assetVersion)), headers: htmlHeaders)
        } ?? notFound
    }
}
