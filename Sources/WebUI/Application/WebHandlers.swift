import FeedCore
import Foundation
import Logging

/// feedweb's request handlers, and what feeds the page streams, each built once here from
/// the store and the configuration and each holding only what it needs. The ``router``
/// dispatches requests to them; ``FeedwebApplication`` runs their timers.
///
/// The lock order of everything built here is written at `Broadcaster`'s lock, which it
/// extends ``FeedStore``'s with.
struct WebHandlers: Sendable {
    let pages: PageHandlers
    let streams: StreamHandlers
    let api: APIHandlers
    let health: HealthHandlers
    let assets: StaticAssets
    let errors: ErrorResponses
    /// Feeds the page streams, frame by frame.
    let pageStreams: PageStreamPublisher
    /// The counts behind `/stats`, `/api/stats` and `/metrics`; the upstream status is
    /// reported to it.
    let stats: StatsRecorder
    /// Where `/metrics` reads the HTTP server's connections (connected once it exists).
    let connections = ConnectionCountsSource()
    /// The store's one observer: hands each change to the consumers above, in order.
    let fanout: FanoutStage
    /// The `--webhook`s' notifier; `nil` without any.
    let webhooks: WebhookNotifier?
    /// `/inspect`'s sources (`nil`: `--inspect off`).
    let inspector: Inspector?
    /// The templates pages are rendered from (`--templates`).
    let templates: TemplateLibrary
    /// The board's name (`--title`).
    let title: String
    /// Where the links to feedweb's own pages point (`--public-origin`).
    let links: PageLinks
    /// CORS for the streams and the API (`--allow-origin`).
    let crossOrigin: CrossOrigin
    /// The shards of the programs' streams, for the server to hand each new stream one.
    let shards: [Shard]

    /// - Parameters:
    ///   - demo: the demo's `/demo/upstream` stream, when the source is the demo.
    ///   - staticFiles: `Public/` as loaded at start.
    ///   - frameAncestors: who may frame the pages (the CSP's `frame-ancestors`).
    ///   - sourceLabel: the configured source's name, shown on pages.
    ///   - maxQueuedBytesPerClient: the bound on each stream client's unsent bytes.
    ///   - restoredAt: when the restored state was saved (`nil`: nothing restored).
    ///   - statsPollInterval: seconds between the polls `/stats` compares the stream with
    ///     (`--interval` when polling, else ``UpstreamConfiguration/defaultPollInterval``).
    ///   - statsComparison: what `/stats` compares with polling (`.screens` when polling).
    ///   - upstreamStatus: the upstream status now, under the configured source's name.
    ///   - stateFile: the state file's writer, told of every change (last of the consumers).
    ///   - shards: the shards the programs' streams are spread over, as the server that
    ///     serves these handlers makes them (``Shard/shards(of:for:)``); `nil`: handlers
    ///     without a server, one shard without a sender.
    ///   - inspect: whether `/inspect` is on (`--inspect`), and with it whether the pages'
    ///     badge says upstream's error in its words.
    ///   - title: the board's name (`--title`).
    ///   - templates: the templates pages are rendered from (`--templates`).
    ///   - allowedOrigins: the origins whose pages may read the streams and the API
    ///     (`--allow-origin`).
    init(
        store: FeedStore, demo: DocumentEventStream?, staticFiles: StaticFiles, frameAncestors: String,
        sourceLabel: String, maxQueuedBytesPerClient: Int, restoredAt: Date?,
        statsPollInterval: TimeInterval = UpstreamConfiguration.defaultPollInterval.timeInterval,
        statsComparison: StatsComparison = .upstream,
        stateFile: StateFileWriter? = nil, shards: [Shard]? = nil, inspect: Bool = true, title: String = "feedweb",
        allowedOrigins: AllowedOrigins = .none, logger: Logger = Logger(label: "feedweb"),
        templates: TemplateLibrary = TemplateLibrary(), screens: ScreenSettings = ScreenSettings(),
        links: PageLinks = .paths, webhooks: [WebhookNotifier.Target] = [],
        upstreamStatus: @escaping @Sendable () -> UpstreamStatus,
        clusterStatus: @escaping @Sendable () -> ClusterStatus? = { nil }
    ) {
        self.templates = templates
        self.title = title
        let stats = StatsRecorder(store: store, pollInterval: statsPollInterval, comparison: statsComparison)
        self.stats = stats
        self.crossOrigin = CrossOrigin(allowed: allowedOrigins)
        let metrics = FeedwebMetrics()
        let security = ResponseHeaders.security(frameAncestors: frameAncestors)
        let htmlHeaders = ResponseHeaders.html(security: security)
        let jsonHeaders = ResponseHeaders.json(security: security)
        var renderer = PageRenderer(assetVersion: staticFiles.version, brand: title, templates: templates.current)
        renderer.links = links
        self.links = links
        let errors = ErrorResponses(
            renderer: renderer, htmlHeaders: htmlHeaders, jsonHeaders: jsonHeaders,
            layout: { [store] in store.layout })
        self.errors = errors
        let badges = StatusBadgeSource(
            store: store, restoredAt: restoredAt, showsProblem: inspect, upstreamStatus: upstreamStatus)
        let assets = StaticAssets(files: staticFiles, securityHeaders: security, errors: errors)
        self.assets = assets

        let inspectSource = InspectFrameSource()
        let pageEvents = PageEventStream(
            renderer: renderer, templates: templates, epoch: store.epoch,
            initial: PageEventStream.State(
                view: store.snapshot?.published, badge: badges.badge(), stats: stats.window(), ticker: stats.ticker),
            itemChanges: { [store] old, new in store.itemChanges(from: old, to: new) },
            inspectSource: inspectSource, onPublish: metrics.fanoutObserver(stream: "page"))
        self.pageStreams = PageStreamPublisher(stream: pageEvents, store: store, badges: badges, stats: stats)
        let shards = shards ?? Shard.shards(of: store, for: nil)
        self.shards = shards
        let events = DocumentEventStream(
            store: store, shards: shards, onPublish: metrics.fanoutObserver(stream: "events"))
        let items = ItemEventStream(store: store, shards: shards, onPublish: metrics.fanoutObserver(stream: "items"))
        let streams = StreamHandlers(
            events: events, items: items, pages: pageStreams, demo: demo,
            maxQueuedBytesPerClient: maxQueuedBytesPerClient, errors: errors, inspects: inspect,
            assetVersion: { [assets] in assets.version })
        self.streams = streams
        let inspector =
            inspect
            ? Inspector(
                store: store, streams: streams, events: EventLog(observe: metrics.stageObserver()),
                templates: templates) : nil
        self.inspector = inspector
        if let inspector { inspectSource.connect { [weak inspector] in inspector?.frame() } }
        self.pages = PageHandlers(
            store: store, stats: stats, cache: PageCache(onRender: metrics.renderObserver), badges: badges,
            assets: assets, sourceLabel: sourceLabel, htmlHeaders: htmlHeaders, errors: errors,
            inspector: inspector, brand: title, templates: templates, screens: screens, links: links)
        self.api = APIHandlers(store: store, stats: stats, jsonHeaders: jsonHeaders, notFound: errors.notFoundJSON)
        let notifier =
            webhooks.isEmpty
            ? nil
            : WebhookNotifier(
                targets: webhooks, feed: title, links: links, counters: metrics.webhookCounters(),
                logger: logger, isSender: { clusterStatus().map { $0.role == .leader } ?? true })
        self.webhooks = notifier
        self.fanout = FanoutStage(
            store: store,
            consumers: FanoutStage.ordered(
                .init(
                    stats: stats, readingLog: ItemReadingLog(logger: logger), inspectLog: inspector?.events,
                    pageStreams: pageStreams, events: events, items: items, stateFile: stateFile,
                    webhooks: notifier)))
        self.health = HealthHandlers(
            store: store, upstreamStatus: upstreamStatus, clusterStatus: clusterStatus, stats: stats, metrics: metrics,
            streams: streams, connections: connections, securityHeaders: security, unavailable: errors.notFoundJSON)
    }

    /// Folds an upstream event into `/stats` and `/metrics` and, only when the status it
    /// led to changes what the badge shows, asks the pages for a frame. The upstream
    /// source's observer: called on the upstream task, after the status lock.
    func upstreamEventOccurred(_ event: UpstreamEvent, status: UpstreamStatus) {
        stats.record(event)
        health.metrics.record(event)
        inspector?.exchanges.record(event)
        pageStreams.upstreamStatusChanged(status)
    }

    /// Reads the `--templates` folder again (SIGHUP): with the new set, the error pages are
    /// rendered again and every open page reloads once; a folder that does not load keeps
    /// the templates in use (``TemplateLibrary/lastFailure``, shown on `/inspect`). `nil`
    /// without a folder.
    func reloadTemplates() -> Result<TemplateSet, TemplateLoadError>? {
        guard let result = templates.reload() else { return nil }
        switch result {
        case .success(let set):
            var renderer = PageRenderer(assetVersion: assets.version, brand: title, templates: set)
            renderer.links = links
            errors.render(with: renderer)
            pageStreams.stream.templatesChanged(version: "templates-" + set.version)
        case .failure:
            pageStreams.requestFrame()
        }
        return result
    }

    /// The router over these handlers.
    var router: Router {
        Router(
            pages: pages, streams: streams, api: api, health: health, assets: assets, errors: errors,
            crossOrigin: crossOrigin)
    }
}
