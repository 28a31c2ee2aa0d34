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
/// feedweb's own events (no `dialect`, ``FeedwebDialect``), each `data` a JSON object whose
/// `view` names the view it is for:
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
/// `&dialect=htmx` or `&dialect=datastar` asks for the same frames as the events of htmx 2's
/// SSE extension or of Datastar v1 (``PageDialect``), for a user's own page.
///
/// Fragments come from the same templates as the full pages and are rendered once per
/// change per channel (one channel per view and filter), never per client nor per dialect:
/// each publish makes one ``PageFrame`` per channel, which each dialect its clients use
/// then writes once.
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

    /// What the broadcaster groups clients by: a view, and the dialect its events are
    /// written in. The clients of one view in every dialect share its frame.
    struct Key: Hashable, Sendable {
        let channel: Channel
        let dialect: PageDialect

        init(_ channel: Channel, _ dialect: PageDialect = .feedweb) {
            self.channel = channel
            self.dialect = dialect
        }

        /// The view this key's clients are shown when the feed's items are laid out as `layout`
        /// (`nil`: no document yet). A user's page asks for `list` as the docs show it; on a
        /// table's feed that is the table, as `/` is, from the moment the feed is known to be
        /// one (feedweb's own pages name the view they show, and reload when it changes).
        func shown(layout: ItemProfile.Layout?) -> Channel {
            guard dialect != .feedweb, layout == .table, case .list(let section) = channel else { return channel }
            return .table(TableQuery(section: section))
        }

        /// The view's name, and its dialect when not feedweb's own (for `/inspect`).
        var spec: String {
            switch dialect {
            case .feedweb: channel.spec
            case .htmx: channel.spec + " (htmx)"
            case .datastar: channel.spec + " (datastar)"
            }
        }
    }

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

    let broadcaster: Broadcaster<Key, State>
    /// The renderer without its templates: those in use are taken from ``templates`` at
    /// each render.
    private let baseRenderer: PageRenderer
    /// The templates fragments are rendered from (`--templates`, reloaded on SIGHUP).
    let templates: TemplateLibrary
    /// The renderer with the templates in use.
    private var renderer: PageRenderer {
        var renderer = baseRenderer
        renderer.templates = templates.current
        renderer.rowCache = templates.tableRows
        renderer.storyCache = templates.stories
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
    /// way round), and with it the two leaf boxes below. Taken by a frame of
    /// `PageStreamPublisher` (its loop's, or the one a first page stream renders), holding
    /// only its `frameLock` (not the store's). See `Broadcaster.lock` for the whole order.
    private let publishLock = NIOLock()
    /// Each channel's whole-state frame (``wholeState(of:_:inspect:)``: a new client's first
    /// event, a slow client's catch-up), for the stamp it was rendered at, and its events in
    /// each dialect written so far.
    ///
    /// Guards only the cache; taken holding no lock (a new client's first bytes) or
    /// `publishLock` (a publish's catch-ups), and a leaf: the frame is rendered and written
    /// between a miss and the store, outside it.
    private let initialCache = NIOLockedValueBox<[Channel: WholeState]>([:])

    /// A channel's whole state at one stamp: the frame, and its events per dialect.
    private struct WholeState {
        let stamp: PageCache.Stamp
        let frame: PageFrame
        var events: [PageDialect: [UInt8]]
    }
    /// The rows each table view showed at the last two views (each frame sorts once).
    private let tableRows = TableRowsMemo()
    /// The tiles each kiosk showed at the last two views, and the items in trouble they
    /// were chosen by (each frame reads the statuses of the items changed, not of all).
    private let kioskTiles = KioskTilesMemo()
    /// Guards the count of fragments rendered. A leaf, taken holding no lock or
    /// `publishLock`.
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
        let shown = PageDialect.allCases.contains { broadcaster.count(in: Key(.inspect, $0)) > 0 }
        return shown ? inspectSource.frame() : nil
    }

    /// A frame of one channel made during a publish, shared by the channel's dialects.
    private struct Made {
        /// `nil`: nothing for the channel in this publish.
        var frame: PageFrame?
        /// Entries the dialects move whose fragments were not rendered for the frame
        /// (rendered once, by ``completeForDialects(_:channel:table:now:)``, when the first
        /// dialect client of the channel needs them).
        var unrendered: [FeedItem] = []
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
            let inspectMoved = inspectChanged.map { !$0.isEmpty } ?? false
            guard viewChanged || badgeChanged || statsChanged || tickerChanged || inspectMoved else { return }
            let now = Date()
            let id = (state.view?.id ?? EventID(epoch: epoch, seq: 0)).description
            // Items read another way (a profile found in the first document with items):
            // every page's layout changes, so every page of feedweb's reloads, once; a
            // dialect's page, which feedweb cannot reload, gets each view's whole state.
            if viewChanged, let before = previous?.view, let after = state.view,
                before.reading?.profile != after.reading?.profile || before.reading?.origin != after.reading?.origin
            {
                broadcaster.publish(state) { key, state in
                    key.dialect == .feedweb ? [] : self.wholeState(of: key, state)
                } catchUp: { _, _ in
                    []
                }
                broadcaster.broadcast(SSEEncoder.event(type: "reload", data: "items")) { $0.dialect == .feedweb }
                return
            }
            let table = TableFrame(view: state.view)
            let profile = table.profile
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
            func status(for channel: Channel) -> PageFrame.Part {
                let kiosk = if case .kiosk = channel { true } else { false }
                let html = badges[kiosk] ?? statusFragment(channel: channel, state: state, now: now)
                badges[kiosk] = html
                return .status(html)
            }
            // Each channel's frame, made for the first of its keys and shared by the others.
            var made: [Channel: Made] = [:]
            func frame(of channel: Channel, _ state: State) -> Made {
                var unrendered: [FeedItem] = []
                var parts: [PageFrame.Part] = []
                if viewChanged {
                    switch channel {
                    case .list(let section):
                        let before = visibleItems(previous?.view, channel: channel)
                        let after = visibleItems(state.view, channel: channel)
                        if let part = entriesChange(
                            channel: channel, before: (before, before.count), after: (after, after.count),
                            changes: changes.compactMap { $0.filtered(to: section) }, now: now, table: table,
                            notice: state.view?.itemsProblem, unrendered: &unrendered)
                        {
                            parts.append(part)
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
                        if let part = entriesChange(
                            channel: channel, before: before, after: after, changes: visible, now: now, table: table,
                            notice: state.view?.itemsProblem, unrendered: &unrendered)
                        {
                            parts.append(part)
                        }
                    case .kiosk(let section):
                        let visible = changes.compactMap { $0.filtered(to: section) }
                        let before = visibleItems(previous?.view, channel: channel)
                        let after = visibleItems(state.view, channel: channel)
                        if !visible.isEmpty || before.map(\.key) != after.map(\.key) {
                            parts.append(
                                items(
                                    channel: channel, items: after, before: before,
                                    render: Self.fresh(after, since: before, visible), now: now, table: table,
                                    notice: state.view?.itemsProblem, changes: visible, unrendered: &unrendered))
                        }
                    case .stats, .inspect:
                        break
                    case .item(let key):
                        let old = previous?.view?.item(forKey: key)
                        let new = state.view?.item(forKey: key)
                        if let new, new != old {
                            parts.append(detail(item: new, profile: profile, now: now))
                        } else if new == nil, old != nil {
                            parts.append(.gone(PageRenderer.goneText(layout: profile.layout)))
                        }
                    }
                }
                // The notice goes with a change only when it changed: every page of the view
                // has the one it shows from the frame before (or its whole state).
                if previous?.view?.itemsProblem == state.view?.itemsProblem {
                    parts = parts.map(\.keepingNotice)
                }
                if channel == .stats, statsChanged || tickerChanged,
                    let part = stats(state: state, now: now, fragments: statsChanged, ticker: tickerChanged)
                {
                    parts.append(part)
                }
                if channel == .inspect, let frame = state.inspect, let changed = inspectChanged,
                    let part = inspect(frame, parts: changed, now: now)
                {
                    parts.append(part)
                }
                if viewChanged || badgeChanged { parts.append(status(for: channel)) }
                let frame = parts.isEmpty ? nil : PageFrame(view: channel.spec, id: id, parts: parts)
                return Made(frame: frame, unrendered: unrendered)
            }
            let layout = state.view?.profile.layout
            let previousLayout = previous?.view?.profile.layout
            broadcaster.publish(state) { key, state in
                let channel = key.shown(layout: layout)
                // A user's `list` that has just become the table: the table's whole state.
                if channel != key.shown(layout: previousLayout) { return self.wholeState(of: key, state) }
                var shared = made[channel] ?? frame(of: channel, state)
                if key.dialect != .feedweb, !shared.unrendered.isEmpty {
                    let unrendered = shared.unrendered
                    shared.frame = shared.frame.map {
                        completeForDialects($0, items: unrendered, channel: channel, table: table, now: now)
                    }
                    shared.unrendered = []
                }
                made[channel] = shared
                return shared.frame.map(key.dialect.events)
            } catchUp: { key, state in
                // A page too far behind gets the channel's whole state in place of its
                // backlog, in band, as `/events` clients get a fresh `data`: never dropped
                // for being slow while it reads (the stall rule still applies).
                self.wholeState(of: key, state)
            }
        }
    }

    /// A view a page stream asks for, and the id of the last frame of it the pages have
    /// (`nil`: none yet).
    struct Subscription: Sendable, Equatable {
        let channel: Channel
        let resumesAfter: EventID?
    }

    /// Subscribes `stream` to `views`, its events written in `dialect`: first, each view's
    /// whole current state, or only its status badge when it resumes at the current
    /// published id (the pages have the rest; `/stats` always gets its whole state, which
    /// changes with time alone).
    ///
    /// `reload`: the static files' version, when the pages asked with another one (they are
    /// of an earlier feedweb, or of files since changed): then the stream's first event is
    /// `reload`, and nothing else is sent before the pages go.
    func subscribe(
        _ stream: StreamConnection, views: [Subscription], dialect: PageDialect = .feedweb, reload: String? = nil
    ) {
        // `/inspect`'s first frame is the last one published, when there is one: the next
        // frames redraw what changed since it (``InspectParts``), so a page must start from
        // it, not from a newer one (rows put on top twice, a line changed and back never
        // redrawn). When none was (no page showed `/inspect`), the next frame is whole, and
        // the first is taken here, outside the broadcaster's lock (it reads the
        // broadcasters' clients).
        let inspect = views.contains { $0.channel == .inspect } ? inspectSource.frame() : nil
        broadcaster.subscribe(stream, to: views.map { Key($0.channel, dialect) }) { state in
            var first = [DocumentEvents.retry()]
            if let reload {
                first.append(SSEEncoder.event(type: "reload", data: reload))
                return first
            }
            guard let state else { return first }
            for view in views {
                let key = Key(view.channel, dialect)
                if let resumed = view.resumesAfter, let current = state.view?.id, resumed == current,
                    view.channel != .stats, view.channel != .inspect
                {
                    let channel = key.shown(layout: state.view?.profile.layout)
                    let badge = statusFragment(channel: channel, state: state, now: Date())
                    first.append(
                        dialect.events(
                            PageFrame(view: channel.spec, id: current.description, parts: [.status(badge)])))
                } else {
                    first.append(wholeState(of: key, state, inspect: state.inspect ?? inspect))
                }
            }
            return first
        }
    }

    /// The channel's whole `state` in one frame, as `key`'s dialect writes it: what a new
    /// client gets first, and what a client too far behind gets in place of its backlog
    /// (the page script treats it as it does on connect: a whole `items` order, the
    /// detail, every `/stats` fragment, the badge). Rendered once per channel and stamp,
    /// written once per dialect, then taken from `initialCache`.
    ///
    /// Runs outside the broadcaster's lock; `/inspect`'s frame is `inspect` or the state's,
    /// taken before (never read from the ``inspectSource`` here).
    private func wholeState(of key: Key, _ state: State, inspect: InspectFrame? = nil) -> [UInt8] {
        let channel = key.shown(layout: state.view?.profile.layout)
        let id = (state.view?.id ?? EventID(epoch: epoch, seq: 0)).description
        if channel == .inspect {
            // Never cached: it moves with every event.
            let now = Date()
            var parts: [PageFrame.Part] = []
            if let frame = inspect ?? state.inspect,
                let part = self.inspect(frame, parts: .all, now: now)
            {
                parts.append(part)
            }
            parts.append(.status(statusFragment(channel: channel, state: state, now: now)))
            return key.dialect.events(PageFrame(view: channel.spec, id: id, parts: parts))
        }
        let stamp = PageCache.Stamp(
            published: state.view?.id, badge: state.badge, assetVersion: "", templates: templates.current.version,
            statsWindow: channel == .stats ? state.stats?.endIndex ?? 0 : 0)
        let cached = initialCache.withLockedValue { $0[channel] }.flatMap { $0.stamp == stamp ? $0 : nil }
        if let bytes = cached?.events[key.dialect] { return bytes }
        let frame = cached?.frame ?? wholeFrame(of: channel, state, id: id)
        let bytes = key.dialect.events(frame)
        initialCache.withLockedValue { cache in
            if cache.count > 1024 { cache.removeAll() }
            var whole =
                cache[channel].flatMap { $0.stamp == stamp ? $0 : nil }
                ?? WholeState(stamp: stamp, frame: frame, events: [:])
            whole.events[key.dialect] = bytes
            cache[channel] = whole
        }
        return bytes
    }

    /// The frame of `channel`'s whole `state` (not `/inspect`'s): every entry, the detail,
    /// every `/stats` part, the badge.
    private func wholeFrame(of channel: Channel, _ state: State, id: String) -> PageFrame {
        let now = Date()
        var parts: [PageFrame.Part] = []
        let table = TableFrame(view: state.view)
        let profile = table.profile
        var unrendered: [FeedItem] = []
        switch channel {
        case .list, .kiosk:
            let items = visibleItems(state.view, channel: channel)
            parts.append(
                self.items(
                    channel: channel, items: items, before: nil, render: items, now: now, table: table,
                    notice: state.view?.itemsProblem, unrendered: &unrendered))
        case .table(let query):
            let rows = tableRows.rows(of: state.view, query: query)
            parts.append(
                items(
                    channel: channel, items: rows.rows, before: nil, render: rows.rows, now: now, count: rows.total,
                    table: table, notice: state.view?.itemsProblem,
                    head: renderer.tableHead(profile: profile, query: query), unrendered: &unrendered))
        case .item(let key):
            if let item = state.view?.item(forKey: key) {
                parts.append(detail(item: item, profile: profile, now: now))
            } else if state.view != nil {
                parts.append(.gone(PageRenderer.goneText(layout: profile.layout)))
            }
        case .stats:
            if let part = stats(state: state, now: now, fragments: true, ticker: true) { parts.append(part) }
        case .inspect:
            break
        }
        parts.append(.status(statusFragment(channel: channel, state: state, now: now)))
        return PageFrame(view: channel.spec, id: id, parts: parts)
    }

    func unsubscribe(_ stream: StreamConnection) {
        broadcaster.unsubscribe(stream)
    }

    /// Tells every open page of feedweb's own to reload (static files changed); a dialect's
    /// page is the user's, which feedweb does not reload.
    func reload(version: String) {
        broadcaster.broadcast(SSEEncoder.event(type: "reload", data: version)) { $0.dialect == .feedweb }
    }

    /// New templates: every open page of feedweb's own reloads, once, to the new look; a
    /// dialect's page gets each of its views' whole state, rendered from them.
    func templatesChanged(version: String) {
        publishLock.withLock {
            if let state = broadcaster.state {
                broadcaster.publish(state) { key, state in
                    key.dialect == .feedweb ? [] : self.wholeState(of: key, state)
                } catchUp: { _, _ in
                    []
                }
            }
            broadcaster.broadcast(SSEEncoder.event(type: "reload", data: version)) { $0.dialect == .feedweb }
        }
    }

    // MARK: - Frames

    /// The entries a list or a kiosk channel shows of `view` (a kiosk's tiles from
    /// ``kioskTiles``); none for the other channels.
    private func visibleItems(_ view: PublishedView?, channel: Channel) -> ChunkedArray<FeedItem> {
        switch channel {
        case .list(let section):
            return view?.items(inSection: section) ?? []
        case .kiosk(let section):
            return kioskTiles.tiles(of: view, section: section)
        case .table, .item, .stats, .inspect:
            return []
        }
    }

    /// What rendering a frame's fragments needs of the view's profile, worked out once
    /// per frame: the profile, and for a table its columns and the one linking each row;
    /// whether there is a view to count the entries of (none before the first document:
    /// no "0 stories" of a feed that may not be news).
    struct TableFrame {
        let profile: ItemProfile
        let columns: [ItemColumn]
        let linkColumn: Int
        /// ``TableColumns/tileOrder(of:)``.
        let tileOrder: [String]
        let counts: Bool

        init(view: PublishedView?) {
            profile = view?.profile ?? .nytNewswire
            columns = TableColumns.shown(of: profile)
            linkColumn = TableColumns.linkColumn(of: columns, profile: profile)
            tileOrder = TableColumns.tileOrder(of: profile)
            counts = view != nil
        }

        /// What a page says of `count` entries ("" with no view).
        func countText(_ count: Int) -> String {
            counts ? PageRenderer.countText(count, layout: profile.layout) : ""
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

    /// The page an entry of `channel` is on, for the dialects.
    private static func entriesPage(_ channel: Channel) -> PageFrame.Entries.Page {
        switch channel {
        case .table: .table
        case .kiosk: .kiosk
        default: .list
        }
    }

    /// The detail view's `#detail`.
    private func detail(item: FeedItem, profile: ItemProfile, now: Date) -> PageFrame.Part {
        countRenders(1)
        return .detail(renderer.detailFragment(item, profile: profile, now: now))
    }

    /// The fragments of `items` as entries of `channel`, in their order: stories, table
    /// rows, kiosk stories or tiles; a cache asked once for them all.
    private func entryFragments(
        _ items: some Collection<FeedItem>, channel: Channel, table: TableFrame, now: Date
    ) -> [PageFrame.Fragment] {
        let html: [String]
        switch channel {
        case .kiosk: html = items.map { renderer.kioskStoryFragment($0, profile: table.profile, now: now) }
        case .table:
            html = renderer.tableRows(
                items, columns: table.columns, linkColumn: table.linkColumn, tileOrder: table.tileOrder, now: now
            ).map(\.html)
        default: html = renderer.storyFragments(items, profile: table.profile, now: now)
        }
        return zip(items, html).map { PageFrame.Fragment(id: "item-" + $0.key, html: $1) }
    }

    /// A list frame as a ``ListOrderChange/delta(prepend:remove:)`` (keys), with a fragment
    /// for each entry in `render` (those prepended and those updated).
    private func itemsDelta(
        channel: Channel, count: Int, prepend: [String], remove: [String], render: [FeedItem], now: Date,
        table: TableFrame, notice: String?, changes: [ItemChange]
    ) -> PageFrame.Part {
        countRenders(render.count)
        let html = entryFragments(render, channel: channel, table: table, now: now)
        let prepend = prepend.map { "item-" + $0 }
        let remove = remove.map { "item-" + $0 }
        return .entries(
            PageFrame.Entries(
                page: Self.entriesPage(channel), order: .delta(prepend: prepend, remove: remove), html: html,
                count: table.countText(count), notice: notice ?? "",
                edit: .delta(prepend: prepend, remove: remove, changed: html.map(\.id)),
                marks: Self.marks(of: render, changes: changes)))
    }

    /// A whole order of entries; `count` is the entries counted (a table's whole section,
    /// not only its page), by default the order's. With `before` (the entries the page
    /// had), the dialects' edit from them, and in `unrendered` the entries it moves that
    /// `render` leaves out; without, a whole state.
    private func items(
        channel: Channel, items: ChunkedArray<FeedItem>, before: ChunkedArray<FeedItem>?,
        render: some Sequence<FeedItem>, now: Date, count: Int? = nil, table: TableFrame, notice: String?,
        head: String = "", changes: [ItemChange] = [], unrendered: inout [FeedItem]
    ) -> PageFrame.Part {
        let html = entryFragments(Array(render), channel: channel, table: table, now: now)
        countRenders(html.count)
        let order = items.map { "item-" + $0.key }
        let edit: EntryEdit
        // Only a frame of a change names its marked entries, never a whole state.
        let marks = before == nil ? [:] : Self.marks(of: render, changes: changes)
        if let before {
            edit = .between(before: before.map { "item-" + $0.key }, after: order, changed: html.map(\.id))
            let rendered = Set(html.map(\.id))
            let needed = Set(edit.needed).subtracting(rendered)
            if !needed.isEmpty { unrendered = items.filter { needed.contains("item-" + $0.key) } }
        } else {
            edit = .all(order)
        }
        return .entries(
            PageFrame.Entries(
                page: Self.entriesPage(channel), order: .whole(order), html: html,
                count: table.countText(count ?? items.count),
                notice: notice ?? "", edit: edit, marks: marks, head: head))
    }

    /// How the entries of a list or a table page went from `before` to `after` (each with
    /// the count its page shows: a table's whole section), given the item changes the view
    /// sees: new entries on top and gone ones as a delta, changed ones rendered, any other
    /// move as the whole order; `nil` when nothing the page shows changed.
    private func entriesChange(
        channel: Channel, before: (rows: ChunkedArray<FeedItem>, total: Int),
        after: (rows: ChunkedArray<FeedItem>, total: Int), changes: [ItemChange], now: Date, table: TableFrame,
        notice: String?, unrendered: inout [FeedItem]
    ) -> PageFrame.Part? {
        switch ListOrderChange(before: before.rows, after: after.rows, changes: changes) {
        case .unchanged:
            let rendered = changes.map(\.item)
            guard !rendered.isEmpty || before.total != after.total else { return nil }
            return itemsDelta(
                channel: channel, count: after.total, prepend: [], remove: [], render: rendered, now: now,
                table: table, notice: notice, changes: changes)
        case .delta(let prepend, let remove):
            return itemsDelta(
                channel: channel, count: after.total, prepend: prepend, remove: remove,
                render: changes.filter { $0.kind != .removed }.map(\.item), now: now, table: table, notice: notice,
                changes: changes)
        case .reordered:
            return items(
                channel: channel, items: after.rows, before: before.rows,
                render: Self.fresh(after.rows, since: before.rows, changes), now: now, count: after.total,
                table: table, notice: notice, changes: changes, unrendered: &unrendered)
        }
    }

    /// The entries of `items` that came to match a `--mark` by `changes`
    /// (``ItemChange/newMarks``), by dom id, with those marks' labels: what the boards' and
    /// the kiosk's attention shows (`Public/attention.js`).
    private static func marks(of items: some Sequence<FeedItem>, changes: [ItemChange]) -> [String: [String]] {
        var newMarks: [String: [String]] = [:]
        for change in changes {
            let labels = change.newMarks
            if !labels.isEmpty { newMarks[change.item.key] = labels }
        }
        guard !newMarks.isEmpty else { return [:] }
        var marks: [String: [String]] = [:]
        for item in items {
            if let labels = newMarks[item.key] { marks["item-" + item.key] = labels }
        }
        return marks
    }

    /// `frame` with the fragments of `items` (entries its edit moves that it lacks),
    /// rendered once for every dialect client of `channel`.
    private func completeForDialects(
        _ frame: PageFrame, items: [FeedItem], channel: Channel, table: TableFrame, now: Date
    ) -> PageFrame {
        countRenders(items.count)
        let moved = entryFragments(items, channel: channel, table: table, now: now)
        var frame = frame
        frame.parts = frame.parts.map { part in
            guard case .entries(var entries) = part else { return part }
            entries.moved = moved
            return .entries(entries)
        }
        return frame
    }

    /// `/stats`'s window fragments and/or the ticker, by element id (`nil`: none).
    private func stats(state: State, now: Date, fragments: Bool, ticker: Bool) -> PageFrame.Part? {
        var html: [PageFrame.Fragment] = []
        if fragments, let window = state.stats {
            let fragments = renderer.statsFragments(
                window: window, now: now, layout: state.view?.profile.layout ?? .news)
            countRenders(fragments.count)
            for (element, fragment) in fragments { html.append(PageFrame.Fragment(id: element, html: fragment)) }
        }
        if ticker {
            countRenders(1)
            let ticker = renderer.tickerFragment(state.ticker, now: now, layout: state.view?.profile.layout ?? .news)
            html.append(PageFrame.Fragment(id: "stats-ticker", html: ticker))
        }
        return html.isEmpty ? nil : .stats(html)
    }

    /// The parts of `/inspect` that changed, by element id (`nil`: none).
    private func inspect(_ frame: InspectFrame, parts: InspectParts, now: Date) -> PageFrame.Part? {
        let (fragments, rows) = renderer.inspectFragments(frame, parts: parts, now: now)
        let rendered = fragments.count + (rows.map { $0.prepend.count + $0.replace.count } ?? 0)
        guard !fragments.isEmpty || rows?.isEmpty == false else { return nil }
        countRenders(rendered)
        return .inspect(fragments, rows: rows)
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
