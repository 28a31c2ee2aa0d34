import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// The page stream (`/events/page`): ONE SSE connection per browser storage partition (the
/// pages of a partition elect one to hold it and share what it gets, see `Public/app.js`),
/// carrying rendered HTML fragments with stable ids that the page script swaps in, for
/// every view the partition's pages show (``Channel``, named by its ``Channel/spec``).
///
/// Asked for as `/events/page?v=SPEC&v=SPEC…` (at most ``maxViews``), a view that resumes
/// as `SPEC@EPOCH-SEQ` (the id of its last frame); `?view=list|kiosk|item|stats&section=…
/// &key=…`, one view, is the same stream for pages of earlier versions. A view that
/// resumes at the current published id gets only its status badge first (nothing was
/// missed); any other gets its whole state, once.
///
/// Events, each `data` a JSON object whose `view` names the view it is for:
/// - `items` (list and kiosk): `{"view", "order": [dom ids], "html": {dom id: fragment},
///   "count": text}`; `html` holds only the entries that are new or changed (all of them
///   in a whole state). A list frame that only puts new entries on top and drops some
///   carries `"prepend"` and `"remove"` (dom ids) in place of the whole `"order"`
///   (``ListOrderChange``). A frame of a change whose new or changed entries match a
///   `--mark` also carries `"marks": {dom id: [label…]}` (never a whole state): what a
///   board's attention shows (`Public/board.js`).
/// - `item` (detail): `{"view", "html": fragment}`; `gone` (`{"view"}`) when the item
///   left the feed.
/// - `stats` (`/stats`): `{"view", "html": {dom id: fragment}}`: the summary, charts and
///   notable events once per five-second window; the ticker when a new story is published.
/// - `status`: `{"view", "html": the status badge fragment}`.
/// - `reload` (data: the static files' version, no view): static files changed; every
///   page reloads itself. Also the first event of a stream asked for with `&asset=VERSION`
///   (the version the pages link) other than the one served now: a screen that was cut off
///   across a deploy reloads once, when feedweb answers again.
/// Ids are the published view's `EPOCH-SEQ`: a frame of a view never repeats an id the
/// view was sent before, except in a whole state (the page skips what it has).
///
/// Fragments come from the same templates as the full pages and are rendered once per
/// change per channel (one channel per view and filter), never per client.
final class PageEventStream: Sendable {
    /// One view a page shows: its events are computed once per change, for every page
    /// stream that serves it.
    enum Channel: Hashable, Sendable {
        case list(section: String?)
        /// `/` for items that are not news: one page of the table, filtered and sorted.
        case table(TableQuery)
        case kiosk(section: String?)
        case item(key: String)
        case stats
        /// `/inspect`: the document, the event log, upstream's exchanges, the screens.
        case inspect

        /// The view from its name in a page (`data-stream` and the `v` parameter):
        /// `list`, `list:SECTION`, `table…` (``TableQuery/spec``), `kiosk`, `kiosk:SECTION`,
        /// `item:KEY`, `stats`; `nil` for anything else (an empty section counts as none,
        /// an item needs a key).
        init?(spec: String) {
            if spec.hasPrefix("table") {
                guard let query = TableQuery(spec: spec) else { return nil }
                self = .table(query)
                return
            }
            let kind = spec.prefix { $0 != ":" }
            let rest = spec.dropFirst(kind.count + 1)
            let argument = rest.isEmpty ? nil : String(rest)
            switch kind {
            case "list": self = .list(section: argument)
            case "kiosk": self = .kiosk(section: argument)
            case "stats" where argument == nil && !spec.contains(":"): self = .stats
            case "inspect" where argument == nil && !spec.contains(":"): self = .inspect
            case "item":
                guard let argument else { return nil }
                self = .item(key: argument)
            default: return nil
            }
        }

        /// The view's name, as ``init(spec:)`` reads it and as every event of it says.
        var spec: String {
            switch self {
            case .list(nil): "list"
            case .list(let section?): "list:" + section
            case .table(let query): query.spec
            case .kiosk(nil): "kiosk"
            case .kiosk(let section?): "kiosk:" + section
            case .item(let key): "item:" + key
            case .stats: "stats"
            case .inspect: "inspect"
            }
        }
    }

    /// The most views one page stream may carry.
    static let maxViews = 64

    struct State: Sendable {
        let view: PublishedView?
        let badge: StatusBadge
        /// The completed windows `/stats` draws (the same value for a whole window).
        var stats: StatsWindow?
        /// The story `/stats` shows in its ticker.
        var ticker: TickerEntry?
        /// What `/inspect` shows (only while a page shows it).
        var inspect: InspectFrame? = nil
    }

    let broadcaster: Broadcaster<Channel, State>
    /// The renderer without its templates: those in use are taken from ``templates`` at
    /// each render.
    private let baseRenderer: PageRenderer
    /// The templates fragments are rendered from (`--templates`, reloaded on SIGHUP).
    let templates: TemplateLibrary
    /// The renderer with the templates in use.
    private var renderer: PageRenderer {
        var renderer = baseRenderer
        renderer.templates = templates.current
        return renderer
    }
    /// Where a new `/inspect` page's first frame comes from when no frame carried one.
    let inspectSource: InspectFrameSource
    /// The epoch of the ids sent before any view exists (a view carries its own).
    private let epoch: String
    /// How the items of two published views differ (``FeedStore/itemChanges(from:to:)``:
    /// composed from the history's steps for views a frame apart).
    private let itemChanges: @Sendable (PublishedView?, PublishedView) -> [ItemChange]
    /// Serialises publishers (page frames) so each sees its predecessor's state.
    ///
    /// Held for a whole publish: the broadcaster's lock is taken under it (never the other
    /// way round), and with it the two leaf boxes below. Taken by the frame loop of
    /// `PageStreamPublisher`, holding no other lock (not the store's). See
    /// `Broadcaster.lock` for the whole order.
    private let publishLock = NIOLock()
    /// Each channel's whole-state frame (``wholeState(of:_:)``: a new client's first event,
    /// a slow client's catch-up), for the stamp it was rendered at.
    ///
    /// Guards only the cache; taken under `Broadcaster.lock` (subscribe, and a publish's
    /// catch-up) and a leaf: the frame is rendered between a miss and the store, outside it.
    private let initialCache = NIOLockedValueBox<[Channel: (stamp: PageCache.Stamp, bytes: [UInt8])]>([:])
    /// The rows each table view showed at the last two views (each frame sorts once).
    private let tableRows = TableRowsMemo()
    /// Guards the count of fragments rendered. A leaf, taken under `publishLock` and
    /// `Broadcaster.lock`.
    private let fragmentRenders = NIOLockedValueBox<UInt64>(0)

    /// How many HTML fragments (a story, a detail article, a badge, a part of `/stats`)
    /// this stream has rendered since start: what proves a change is rendered once per
    /// channel, never once per client. `/metrics` exports it as
    /// `feedweb_page_fragments_rendered_total`.
    var fragmentRenderCount: UInt64 { fragmentRenders.withLockedValue { $0 } }

    /// Counts `count` fragments rendered.
    private func countRenders(_ count: Int) {
        fragmentRenders.withLockedValue { $0 += UInt64(count) }
    }

    /// - Parameter onPublish: see ``Broadcaster/init(initial:onPublish:)``; here the time
    ///   includes rendering the fragments.
    /// - Parameter itemChanges: how the items of two published views differ, the earlier
    ///   first (default: ``PublishedView/itemChanges(since:)``, a full diff for views more
    ///   than one change apart).
    init(
        renderer: PageRenderer, templates: TemplateLibrary = TemplateLibrary(), epoch: String, initial: State,
        itemChanges: @escaping @Sendable (PublishedView?, PublishedView) -> [ItemChange] = {
            $1.itemChanges(since: $0)
        },
        inspectSource: InspectFrameSource = InspectFrameSource(),
        onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil
    ) {
        self.baseRenderer = renderer
        self.templates = templates
        self.inspectSource = inspectSource
        self.epoch = epoch
        self.itemChanges = itemChanges
        self.broadcaster = Broadcaster(initial: initial, onPublish: onPublish)
    }

    /// Page streams open now.
    var clientCount: Int { broadcaster.count }
    /// Views the open page streams carry, summed over the streams.
    var viewCount: Int { broadcaster.channelCount }

    /// What `/inspect` shows now, while a page shows it (`nil`: none does, or it is off).
    func inspectFrameIfShown() -> InspectFrame? {
        broadcaster.count(in: .inspect) > 0 ? inspectSource.frame() : nil
    }

    /// Publishes a new state: fragments for what changed in each channel.
    func publish(_ state: State) {
        publishLock.withLock {
            let previous = broadcaster.state
            let viewChanged = previous?.view !== state.view
            let badgeChanged = previous?.badge != state.badge
            let statsChanged = previous?.stats?.endIndex != state.stats?.endIndex
            let tickerChanged = previous?.ticker != state.ticker
            let inspectChanged = state.inspect.map { $0.changes(since: previous?.inspect) }
            let inspectMoved = inspectChanged.map { $0.tree || $0.events || $0.exchanges || $0.screens } ?? false
            guard viewChanged || badgeChanged || statsChanged || tickerChanged || inspectMoved else { return }
            let now = Date()
            let id = (state.view?.id ?? EventID(epoch: epoch, seq: 0)).description
            // Items read another way (a profile found in the first document with items):
            // every page's layout changes, so every page reloads, once.
            if viewChanged, let before = previous?.view, let after = state.view,
                before.reading?.profile != after.reading?.profile || before.reading?.origin != after.reading?.origin
            {
                broadcaster.publish(state) { _, _ in
                    []
                } catchUp: { _, _ in
                    []
                }
                broadcaster.broadcastToAll(SSEEncoder.event(type: "reload", data: "items"))
                return
            }
            let profile = state.view?.profile ?? .nytNewswire
            let table = TableFrame(profile: profile)
            let changes: [ItemChange]
            if !viewChanged {
                changes = []
            } else if let view = state.view {
                changes = itemChanges(previous?.view, view)
            } else {
                changes = ItemChange.between(previous?.view?.items ?? [], [])
            }
            // The badge is rendered once per style (kiosk or not) per frame.
            var badges: [Bool: String] = [:]
            func status(for channel: Channel) -> [UInt8] {
                let kiosk = if case .kiosk = channel { true } else { false }
                let html = badges[kiosk] ?? statusFragment(channel: channel, state: state, now: now)
                badges[kiosk] = html
                return Self.event("status", channel: channel, id: id, ["html": .string(html)])
            }
            broadcaster.publish(state) { channel, state in
                var bytes: [UInt8] = []
                if viewChanged {
                    switch channel {
                    case .list(let section):
                        let visible = changes.compactMap { $0.filtered(to: section) }
                        let before = Self.visibleItems(previous?.view, channel: channel)
                        let after = Self.visibleItems(state.view, channel: channel)
                        switch ListOrderChange(before: before, after: after, changes: visible) {
                        case .unchanged:
                            let rendered = visible.map(\.item)
                            if !rendered.isEmpty {
                                bytes += itemsDeltaEvent(
                                    channel: channel, count: after.count, prepend: [], remove: [], render: rendered,
                                    now: now, id: id, table: table, notice: state.view?.itemsProblem)
                            }
                        case .delta(let prepend, let remove):
                            let rendered = visible.filter { $0.kind != .removed }.map(\.item)
                            bytes += itemsDeltaEvent(
                                channel: channel, count: after.count, prepend: prepend, remove: remove,
                                render: rendered, now: now, id: id, table: table, notice: state.view?.itemsProblem)
                        case .reordered:
                            bytes += itemsEvent(
                                channel: channel, items: after, render: Self.fresh(after, since: before, visible),
                                now: now, id: id, table: table, notice: state.view?.itemsProblem, marked: true)
                        }
                    case .table(let query):
                        let before = tableRows.rows(of: previous?.view, query: query)
                        let after = tableRows.rows(of: state.view, query: query)
                        // Only the changes to rows of this page, before or after: every
                        // change of the section while the section fits on one page.
                        var visible = changes.compactMap { $0.filtered(to: query.section) }
                        if before.total > TableQuery.pageSize || after.total > TableQuery.pageSize {
                            let changed = Set(visible.map(\.item.key))
                            var shown = Set<String>()
                            for row in before.rows where changed.contains(row.key) { shown.insert(row.key) }
                            for row in after.rows where changed.contains(row.key) { shown.insert(row.key) }
                            visible = visible.filter { shown.contains($0.item.key) }
                        }
                        let counted = before.total != after.total
                        switch ListOrderChange(before: before.rows, after: after.rows, changes: visible) {
                        case .unchanged:
                            let rendered = visible.map(\.item)
                            if !rendered.isEmpty || counted {
                                bytes += itemsDeltaEvent(
                                    channel: channel, count: after.total, prepend: [], remove: [], render: rendered,
                                    now: now, id: id, table: table, notice: state.view?.itemsProblem)
                            }
                        case .delta(let prepend, let remove):
                            let rendered = visible.filter { $0.kind != .removed }.map(\.item)
                            bytes += itemsDeltaEvent(
                                channel: channel, count: after.total, prepend: prepend, remove: remove,
                                render: rendered, now: now, id: id, table: table, notice: state.view?.itemsProblem)
                        case .reordered:
                            bytes += itemsEvent(
                                channel: channel, items: after.rows,
                                render: Self.fresh(after.rows, since: before.rows, visible), now: now, id: id,
                                count: after.total, table: table, notice: state.view?.itemsProblem, marked: true)
                        }
                    case .kiosk(let section):
                        let visible = changes.compactMap { $0.filtered(to: section) }
                        let before = Self.visibleItems(previous?.view, channel: channel)
                        let after = Self.visibleItems(state.view, channel: channel)
                        if !visible.isEmpty || before.map(\.key) != after.map(\.key) {
                            bytes += itemsEvent(
                                channel: channel, items: after, render: Self.fresh(after, since: before, visible),
                                now: now, id: id, table: table, notice: state.view?.itemsProblem, marked: true)
                        }
                    case .stats, .inspect:
                        break
                    case .item(let key):
                        let old = previous?.view?.item(forKey: key)
                        let new = state.view?.item(forKey: key)
                        if let new, new != old {
                            bytes += itemEvent(channel: channel, item: new, profile: profile, now: now, id: id)
                        } else if new == nil, old != nil {
                            bytes += Self.event("gone", channel: channel, id: id)
                        }
                    }
                }
                if channel == .stats, statsChanged || tickerChanged {
                    bytes += statsEvent(
                        state: state, now: now, id: id, fragments: statsChanged, ticker: tickerChanged)
                }
                if channel == .inspect, let frame = state.inspect, let parts = inspectChanged {
                    bytes += inspectEvent(frame, parts: parts, now: now, id: id)
                }
                if viewChanged || badgeChanged { bytes += status(for: channel) }
                return bytes
            } catchUp: { channel, state in
                // A page too far behind gets the channel's whole state in place of its
                // backlog, in band, as `/events` clients get a fresh `data`: never dropped
                // for being slow while it reads (the stall rule still applies).
                self.wholeState(of: channel, state)
            }
        }
    }

    /// A view a page stream asks for, and the id of the last frame of it the pages have
    /// (`nil`: none yet).
    struct Subscription: Sendable, Equatable {
        let channel: Channel
        let resumesAfter: EventID?
    }

    /// Subscribes `stream` to `views`: first, each view's whole current state, or only its
    /// status badge when it resumes at the current published id (the pages have the rest;
    /// `/stats` always gets its whole state, which changes with time alone).
    ///
    /// `reload`: the static files' version, when the pages asked with another one (they are
    /// of an earlier feedweb, or of files since changed): then the stream's first event is
    /// `reload`, and nothing else is sent before the pages go.
    func subscribe(_ stream: StreamConnection, views: [Subscription], reload: String? = nil) {
        // `/inspect`'s first frame is taken here, outside the broadcaster's lock (it reads
        // the broadcasters' clients).
        let inspect = views.contains { $0.channel == .inspect } ? inspectSource.frame() : nil
        broadcaster.subscribe(stream, to: views.map(\.channel)) { state in
            var first = [SSEEncoder.retry(milliseconds: DocumentEventStream.retryMilliseconds)]
            if let reload {
                first.append(SSEEncoder.event(type: "reload", data: reload))
                return first
            }
            guard let state else { return first }
            for view in views {
                if let resumed = view.resumesAfter, let current = state.view?.id, resumed == current,
                    view.channel != .stats, view.channel != .inspect
                {
                    let id = current.description
                    first.append(
                        Self.event(
                            "status", channel: view.channel, id: id,
                            ["html": .string(statusFragment(channel: view.channel, state: state, now: Date()))]))
                } else {
                    first.append(wholeState(of: view.channel, state, inspect: inspect))
                }
            }
            return first
        }
    }

    /// The channel's whole `state` in one frame: what a new client gets first, and what a
    /// client too far behind gets in place of its backlog (the page script treats it as it
    /// does on connect: a whole `items` order, the detail, every `/stats` fragment, the
    /// badge). Rendered once per channel and stamp, then taken from `initialCache`.
    ///
    /// Runs under `Broadcaster.lock`: `/inspect`'s frame is `inspect` or the state's, taken
    /// before (never read from the ``inspectSource`` here).
    private func wholeState(of channel: Channel, _ state: State, inspect: InspectFrame? = nil) -> [UInt8] {
        if channel == .inspect {
            // Never cached: it moves with every event.
            let now = Date()
            let id = (state.view?.id ?? EventID(epoch: epoch, seq: 0)).description
            var bytes: [UInt8] = []
            if let frame = inspect ?? state.inspect {
                bytes += inspectEvent(frame, parts: (true, true, true, true), now: now, id: id)
            }
            bytes += Self.event(
                "status", channel: channel, id: id,
                ["html": .string(statusFragment(channel: channel, state: state, now: now))])
            return bytes
        }
        let stamp = PageCache.Stamp(
            published: state.view?.id, badge: state.badge, assetVersion: "", templates: templates.current.version,
            statsWindow: channel == .stats ? state.stats?.endIndex ?? 0 : 0)
        if let cached = initialCache.withLockedValue({ $0[channel] }), cached.stamp == stamp {
            return cached.bytes
        }
        let now = Date()
        let id = (state.view?.id ?? EventID(epoch: epoch, seq: 0)).description
        var bytes: [UInt8] = []
        let profile = state.view?.profile ?? .nytNewswire
        let table = TableFrame(profile: profile)
        switch channel {
        case .list, .kiosk:
            let items = Self.visibleItems(state.view, channel: channel)
            bytes += itemsEvent(
                channel: channel, items: items, render: items, now: now, id: id, table: table,
                notice: state.view?.itemsProblem)
        case .table(let query):
            let rows = tableRows.rows(of: state.view, query: query)
            bytes += itemsEvent(
                channel: channel, items: rows.rows, render: rows.rows, now: now, id: id, count: rows.total,
                table: table, notice: state.view?.itemsProblem)
        case .item(let key):
            if let item = state.view?.item(forKey: key) {
                bytes += itemEvent(channel: channel, item: item, profile: profile, now: now, id: id)
            } else if state.view != nil {
                bytes += Self.event("gone", channel: channel, id: id)
            }
        case .stats:
            bytes += statsEvent(state: state, now: now, id: id, fragments: true, ticker: true)
        case .inspect:
            break
        }
        bytes += Self.event(
            "status", channel: channel, id: id,
            ["html": .string(statusFragment(channel: channel, state: state, now: now))])
        initialCache.withLockedValue { cache in
            if cache.count > 1024 { cache.removeAll() }
            cache[channel] = (stamp, bytes)
        }
        return bytes
    }

    func unsubscribe(_ stream: StreamConnection) {
        broadcaster.unsubscribe(stream)
    }

    /// Tells every open page to reload (static files changed).
    func reload(version: String) {
        broadcaster.broadcastToAll(SSEEncoder.event(type: "reload", data: version))
    }

    // MARK: - Encoding

    private static func visibleItems(_ view: PublishedView?, channel: Channel) -> ChunkedArray<FeedItem> {
        switch channel {
        case .list(let section):
            return view?.items(inSection: section) ?? []
        case .kiosk(let section):
            let limit = view?.profile.layout == .table ? PageRenderer.kioskTileLimit : PageRenderer.kioskLimit
            return ChunkedArray((view?.items(inSection: section) ?? []).prefix(limit))
        case .table, .item, .stats, .inspect:
            return []
        }
    }

    /// What rendering a frame's fragments needs of the view's profile, worked out once
    /// per frame: the profile, and for a table its columns and the one linking each row.
    struct TableFrame {
        let profile: ItemProfile
        let columns: [ItemColumn]
        let linkColumn: Int

        init(profile: ItemProfile) {
            self.profile = profile
            columns = TableColumns.columns(of: profile)
            linkColumn = TableColumns.linkColumn(of: columns, profile: profile)
        }
    }

    /// The entries of `after` a page showing `before` lacks or has out of date: those
    /// `changes` added or updated, and those newly in view (a kiosk entry moving up into
    /// the window, say). The page has the rest.
    private static func fresh(
        _ after: ChunkedArray<FeedItem>, since before: ChunkedArray<FeedItem>, _ changes: [ItemChange]
    ) -> [FeedItem] {
        let changed = Set(changes.filter { $0.kind != .removed }.map(\.item.key))
        let shown = Set(before.map(\.key))
        return after.filter { changed.contains($0.key) || !shown.contains($0.key) }
    }

    /// An event of `channel`'s view: `data` is `{"view": spec}` followed by `members`.
    private static func event(_ type: String, channel: Channel, id: String, _ members: JSONObject = [:]) -> [UInt8] {
        var data: JSONObject = ["view": .string(channel.spec)]
        for (name, value) in members { data[name] = value }
        return SSEEncoder.event(type: type, data: JSONValue.object(data).serializedString(), id: id)
    }

    /// The detail view's `item` event.
    private func itemEvent(channel: Channel, item: FeedItem, profile: ItemProfile, now: Date, id: String) -> [UInt8] {
        countRenders(1)
        return Self.event(
            "item", channel: channel, id: id,
            ["html": .string(renderer.detailFragment(item, profile: profile, now: now))])
    }

    /// The fragment of one entry of `channel`: a story, a table row, a kiosk story or tile.
    private func entryFragment(_ item: FeedItem, channel: Channel, table: TableFrame, now: Date) -> String {
        switch channel {
        case .kiosk: return renderer.kioskStoryFragment(item, profile: table.profile, now: now)
        case .table:
            return renderer.tableRowFragment(item, columns: table.columns, linkColumn: table.linkColumn, now: now)
        default: return renderer.storyFragment(item, profile: table.profile, now: now)
        }
    }

    /// A list frame as a ``ListOrderChange/delta(prepend:remove:)``: `{"view", "prepend":
    /// [dom ids, top first], "remove": [dom ids], "html": {dom id: fragment}, "count":
    /// text}`, with a fragment for each entry in `render` (those prepended and those
    /// updated).
    private func itemsDeltaEvent(
        channel: Channel, count: Int, prepend: [String], remove: [String], render: [FeedItem], now: Date, id: String,
        table: TableFrame, notice: String?
    ) -> [UInt8] {
        var html = JSONObject()
        countRenders(render.count)
        for item in render {
            html["item-" + item.key] = .string(entryFragment(item, channel: channel, table: table, now: now))
        }
        var members: JSONObject = [
            "prepend": .array(prepend.map { .string("item-" + $0) }),
            "remove": .array(remove.map { .string("item-" + $0) }),
            "html": .object(html),
            "count": .string(PageRenderer.countText(count, layout: table.profile.layout)),
            "notice": .string(notice ?? ""),
        ]
        Self.addMarks(of: render, to: &members)
        return Self.event("items", channel: channel, id: id, members)
    }

    /// `"marks": {dom id: [label…]}`: the entries of a frame's change that match a `--mark`
    /// (``FeedItem/marks``), for the boards' attention (`Public/board.js`). Only in frames
    /// of a change (added or changed in it), never in a whole state, so that a page learns
    /// of a marked item once per change; absent when none is marked.
    private static func addMarks(of items: some Sequence<FeedItem>, to members: inout JSONObject) {
        var marks = JSONObject()
        for item in items where !item.marks.isEmpty {
            marks["item-" + item.key] = .array(item.marks.map { .string($0) })
        }
        if !marks.isEmpty { members["marks"] = .object(marks) }
    }

    /// A whole `items` order; `count` is the entries counted (a table's whole section,
    /// not only its page), by default the order's.
    private func itemsEvent(
        channel: Channel, items: ChunkedArray<FeedItem>, render: some Sequence<FeedItem>, now: Date, id: String,
        count: Int? = nil, table: TableFrame, notice: String?, marked: Bool = false
    ) -> [UInt8] {
        var html = JSONObject()
        var rendered: [FeedItem] = []
        for item in render {
            countRenders(1)
            html["item-" + item.key] = .string(entryFragment(item, channel: channel, table: table, now: now))
            if marked && !item.marks.isEmpty { rendered.append(item) }
        }
        var members: JSONObject = [
            "order": .array(items.map { .string("item-" + $0.key) }),
            "html": .object(html),
            "count": .string(PageRenderer.countText(count ?? items.count, layout: table.profile.layout)),
            "notice": .string(notice ?? ""),
        ]
        Self.addMarks(of: rendered, to: &members)
        return Self.event("items", channel: channel, id: id, members)
    }

    /// The `stats` event: the window's fragments and/or the ticker, by element id.
    private func statsEvent(state: State, now: Date, id: String, fragments: Bool, ticker: Bool) -> [UInt8] {
        var html = JSONObject()
        if fragments, let window = state.stats {
            let fragments = renderer.statsFragments(window: window, now: now)
            countRenders(fragments.count)
            for (element, fragment) in fragments {
                html[element] = .string(fragment)
            }
        }
        if ticker {
            countRenders(1)
            html["stats-ticker"] = .string(renderer.tickerFragment(state.ticker, now: now))
        }
        guard !html.isEmpty else { return [] }
        return Self.event("stats", channel: .stats, id: id, ["html": .object(html)])
    }

    /// The `inspect` event: the parts of `/inspect` that changed, by element id.
    private func inspectEvent(
        _ frame: InspectFrame, parts: (tree: Bool, events: Bool, exchanges: Bool, screens: Bool), now: Date,
        id: String
    ) -> [UInt8] {
        let fragments = renderer.inspectFragments(frame, parts: parts, now: now)
        guard !fragments.isEmpty else { return [] }
        countRenders(fragments.count)
        var html = JSONObject()
        for (element, fragment) in fragments { html[element] = .string(fragment) }
        return Self.event("inspect", channel: .inspect, id: id, ["html": .object(html)])
    }

    /// The status badge as `channel`'s view shows it (the kiosk's banner, or the badge).
    private func statusFragment(channel: Channel, state: State, now: Date) -> String {
        countRenders(1)
        switch channel {
        case .kiosk: return renderer.kioskStatusFragment(state.badge)
        default: return renderer.badgeFragment(state.badge, updated: state.view?.publishedAt, now: now)
        }
    }
}
