import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Everything the router answers from: the store, the streams, the caches and the
/// prepared responses. Built once by ``FeedwebApplication``.
final class AppContext: Sendable {
    /// Responses that never change.
    struct ErrorResponses: Sendable {
        let notFound: PreparedResponse
        let badRequest: PreparedResponse
        let notFoundJSON: PreparedResponse
        let methodNotAllowed: PreparedResponse
        let tooManyStreams: PreparedResponse
    }

    let store: FeedStore
    /// The counts behind `/stats` and `/api/stats`; its ``StatsRecorder/totals(now:)`` are
    /// what `/metrics` reports.
    let stats: StatsRecorder
    let events: DocumentEventStream
    let itemEvents: ItemEventStream
    let pageEvents: PageEventStream
    /// Coalesces page-stream renders into frames (at most 20 a second, newest state).
    let pageFrames = PageFramePacer(interval: .milliseconds(50))
    let demo: DocumentEventStream?
    private let staticBox: NIOLockedValueBox<StaticFiles>
    private let staticDirectory: String
    private let securityHeaders: [(String, String)]
    let metrics: FeedwebMetrics
    let pages: PageCache
    private let refusedStreams = NIOLockedValueBox<UInt64>(0)
    let errors: ErrorResponses
    let healthy: PreparedResponse
    let eventStreamHead: PreparedResponse
    let htmlHeaders: [(String, String)]
    let jsonHeaders: [(String, String)]
    let eventStreamHeaders: [(String, String)]
    let sourceLabel: String
    let maxQueuedBytesPerClient: Int
    let restoredAt: Date?
    private let upstreamStatus: @Sendable () -> UpstreamStatus
    /// Lets an upstream event ask for a page frame only when it changes the badge.
    private let badgeChanges: BadgeChangeFilter
    private let apiCache = NIOLockedValueBox<[String: (seq: UInt64, response: PreparedResponse)]>([:])

    /// `statsPollInterval`: seconds between the polls `/stats` compares the stream with
    /// (`--interval` when polling, else 5).
    init(
        store: FeedStore, demo: DocumentEventStream?, staticFiles: StaticFiles, frameAncestors: String,
        sourceLabel: String, maxQueuedBytesPerClient: Int, restoredAt: Date?, statsPollInterval: TimeInterval = 5,
        upstreamStatus: @escaping @Sendable () -> UpstreamStatus
    ) {
        self.store = store
        // First among the store's observers, so every other one sees the change counted.
        let stats = StatsRecorder(store: store, pollInterval: statsPollInterval)
        self.stats = stats
        let metrics = FeedwebMetrics()
        self.metrics = metrics
        self.pages = PageCache(onRender: metrics.renderObserver)
        self.events = DocumentEventStream(store: store, onPublish: metrics.fanoutObserver(stream: "events"))
        self.itemEvents = ItemEventStream(store: store, onPublish: metrics.fanoutObserver(stream: "items"))
        self.demo = demo
        self.staticBox = NIOLockedValueBox(staticFiles)
        self.staticDirectory = staticFiles.directory
        self.securityHeaders = ResponseHeaders.security(frameAncestors: frameAncestors)
        let renderer = PageRenderer(assetVersion: staticFiles.version)
        let badge = StatusBadge(
            status: upstreamStatus(), hasDocument: store.snapshot != nil, restoredAt: restoredAt, now: Date())
        self.badgeChanges = BadgeChangeFilter(initial: badge)
        self.pageEvents = PageEventStream(
            renderer: renderer, epoch: store.epoch,
            initial: PageEventStream.State(
                view: store.snapshot?.published, badge: badge, stats: stats.window(), ticker: stats.ticker),
            onPublish: metrics.fanoutObserver(stream: "page"))
        let security = ResponseHeaders.security(frameAncestors: frameAncestors)
        self.htmlHeaders = ResponseHeaders.html(security: security)
        self.jsonHeaders = ResponseHeaders.json(security: security)
        self.eventStreamHeaders = ResponseHeaders.eventStream
        self.sourceLabel = sourceLabel
        self.maxQueuedBytesPerClient = maxQueuedBytesPerClient
        self.restoredAt = restoredAt
        self.upstreamStatus = upstreamStatus
        let html = self.htmlHeaders
        func page(_ status: UInt32, _ heading: String, _ message: String, extra: [(String, String)] = [])
            -> PreparedResponse
        {
            let body = renderer.error(code: Int(status), heading: heading, message: message)
            // Allocation of a response only fails when memory is exhausted at start.
            guard let response = PreparedResponse(status: status, body: body, headers: html + extra) else {
                fatalError("cannot allocate the \(status) page")
            }
            return response
        }
        func json(_ status: UInt32, _ value: JSONValue, headers: [(String, String)]) -> PreparedResponse {
            guard let response = PreparedResponse(status: status, body: value.serializedBytes(), headers: headers)
            else {
                fatalError("cannot allocate a \(status) response")
            }
            return response
        }
        self.errors = ErrorResponses(
            notFound: page(404, "Not found", "There is nothing at this address. The story may have left the feed."),
            badRequest: page(400, "Bad request", "The request was malformed."),
            notFoundJSON: json(404, .object(["error": .string("not found")]), headers: self.jsonHeaders),
            methodNotAllowed: page(
                405, "Method not allowed", "feedweb only answers GET and HEAD.", extra: [("Allow", "GET, HEAD")]),
            tooManyStreams: json(
                503, .object(["error": .string("too many streams; retry later")]),
                headers: self.jsonHeaders + [("Retry-After", "5")])
        )
        self.healthy = json(200, .object(["status": .string("ok")]), headers: self.jsonHeaders)
        guard let head = PreparedResponse(status: 200, body: [], headers: self.eventStreamHeaders) else {
            fatalError("cannot allocate a response")
        }
        self.eventStreamHead = head
    }

    /// The upstream status now.
    var status: UpstreamStatus { upstreamStatus() }

    /// The static files being served.
    var staticFiles: StaticFiles { staticBox.withLockedValue { $0 } }

    /// The page renderer for the current static files (pages link assets by version).
    var renderer: PageRenderer { PageRenderer(assetVersion: staticFiles.version) }

    /// Rescans `Public/`; when anything changed, serves the new files and tells every open
    /// page to reload (kiosks pick up a new version by themselves). Returns whether it did.
    @discardableResult
    func reloadStaticFilesIfChanged(logger: Logger) -> Bool {
        let fresh = StaticFiles(directory: staticDirectory, securityHeaders: securityHeaders, logger: logger)
        let changed = staticBox.withLockedValue { current -> Bool in
            guard fresh.version != current.version, !fresh.files.isEmpty else { return false }
            current = fresh
            return true
        }
        if changed {
            logger.info("static files changed (version \(fresh.version)); telling open pages to reload")
            pageEvents.reload(version: fresh.version)
        }
        return changed
    }

    /// The status badge now.
    func currentBadge(now: Date = Date()) -> StatusBadge {
        StatusBadge(status: status, hasDocument: store.snapshot != nil, restoredAt: restoredAt, now: now)
    }

    /// Pushes the current view and badge to the page streams now (a frame of the
    /// ``PageFramePacer``; tests call it directly).
    func refreshPageStreams() {
        pageEvents.publish(
            PageEventStream.State(
                view: store.snapshot?.published, badge: currentBadge(), stats: stats.window(), ticker: stats.ticker))
    }

    /// Asks for a page-stream frame with the newest state: rendered by the running
    /// application's ``PageFramePacer`` loop, coalesced with every other request in the
    /// same frame.
    func requestPageFrame() {
        pageFrames.request()
    }

    /// Folds an upstream event into `/stats` and `/metrics` and, only when the status it
    /// led to changes what the badge shows, asks the pages for a frame.
    func upstreamEventOccurred(_ event: UpstreamEvent, status: UpstreamStatus) {
        stats.record(event)
        metrics.record(event)
        let badge = StatusBadge(
            status: status, hasDocument: store.snapshot != nil, restoredAt: restoredAt, now: Date())
        if badgeChanges.letsThrough(badge) { requestPageFrame() }
    }

    /// Every SSE broadcaster, for heartbeats and stalled-client sweeps.
    var broadcasters: [any StreamSweeping] {
        [events.broadcaster, itemEvents.broadcaster, pageEvents.broadcaster] + (demo.map { [$0.broadcaster] } ?? [])
    }

    /// Counts a new stream answered 503 because `--max-clients` was reached.
    func streamRefused() {
        refusedStreams.withLockedValue { $0 += 1 }
    }

    /// `/metrics`: the Prometheus text exposition, pulled figures brought up to date now.
    func metricsResponse() -> PreparedResponse {
        let snapshot = store.snapshot
        var streams = [
            FeedwebMetrics.StreamSample(
                name: "events", clients: events.clientCount, traffic: events.broadcaster.traffic),
            FeedwebMetrics.StreamSample(
                name: "items", clients: itemEvents.clientCount, traffic: itemEvents.broadcaster.traffic),
            FeedwebMetrics.StreamSample(
                name: "page", clients: pageEvents.clientCount, traffic: pageEvents.broadcaster.traffic),
        ]
        if let demo {
            streams.append(.init(name: "demo", clients: demo.clientCount, traffic: demo.broadcaster.traffic))
        }
        let sample = FeedwebMetrics.Sample(
            documentLoaded: snapshot != nil, sequence: snapshot?.id.seq ?? 0,
            items: snapshot?.published.items.count ?? 0, streams: streams,
            refusedStreams: refusedStreams.withLockedValue { $0 }, stats: stats.totals(), process: .current())
        let headers = [("Content-Type", FeedwebMetrics.contentType), ("Cache-Control", "no-store")] + securityHeaders
        return PreparedResponse(status: 200, body: metrics.exposition(of: sample), headers: headers)
            ?? errors.notFoundJSON
    }

    /// The cache stamp of a page showing the view published at `publishedSeq`.
    func stamp(publishedSeq: UInt64) -> PageCache.Stamp {
        PageCache.Stamp(publishedSeq: publishedSeq, badge: currentBadge(), assetVersion: staticFiles.version)
    }

    /// `/readyz`: 200 with a document and a connected upstream, else 503; always the status.
    func readiness() -> PreparedResponse {
        let status = self.status
        let snapshot = store.snapshot
        let ready = snapshot != nil && status.isConnected
        let body = JSONValue.object([
            "ready": .bool(ready),
            "document": .bool(snapshot != nil),
            "sequence": snapshot.map { .int(Int64($0.id.seq)) } ?? .null,
            "upstream": StatusJSON.encode(status),
        ])
        return PreparedResponse(status: ready ? 200 : 503, body: body.serializedBytes(), headers: jsonHeaders)
            ?? errors.notFoundJSON
    }

    /// `/api/state`: the mirror, with an ETag from its sequence number.
    func apiState(ifNoneMatch: String?) -> PreparedResponse {
        guard let snapshot = store.snapshot else {
            return cachedJSON(key: "state-empty", seq: 0, status: 503) { Array("{\"error\":\"no document yet\"}".utf8) }
        }
        let etag = "\"\(snapshot.id)\""
        if ifNoneMatch?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
            == true
        {
            return cachedJSON(key: "state-304", seq: snapshot.id.seq, status: 304, extra: [("ETag", etag)]) { [] }
        }
        return cachedJSON(key: "state", seq: snapshot.id.seq, extra: [("ETag", etag)]) { snapshot.encodedDocument }
    }

    /// `/api/stats`: the figures of `/stats` as JSON: the windows as the page draws them
    /// (made once per window), the totals and the ticker as they are now.
    func apiStats() -> PreparedResponse {
        let now = Date()
        let body = StatsJSON.encode(
            window: stats.window(now: now), totals: stats.totals(now: now), ticker: stats.ticker,
            startedAt: stats.startedAt)
        return PreparedResponse(status: 200, body: body.serializedBytes(), headers: jsonHeaders)
            ?? errors.notFoundJSON
    }

    /// `/api/items`: the published items, normalised.
    func apiItems() -> PreparedResponse {
        let view = store.snapshot?.published
        return cachedJSON(key: "items", seq: view?.seq ?? 0) {
            JSONValue.array((view?.items ?? []).map(\.json)).serializedBytes()
        }
    }

    /// `/api/items/{key}`, or `nil` for an unknown key.
    func apiItem(key: String) -> PreparedResponse? {
        guard let view = store.snapshot?.published, let item = view.item(forKey: key) else { return nil }
        return PreparedResponse(status: 200, body: item.json.serializedBytes(), headers: jsonHeaders)
    }

    private func cachedJSON(
        key: String, seq: UInt64, status: UInt32 = 200, extra: [(String, String)] = [], body: () -> [UInt8]
    ) -> PreparedResponse {
        if let cached = apiCache.withLockedValue({ $0[key] }), cached.seq == seq { return cached.response }
        guard let response = PreparedResponse(status: status, body: body(), headers: jsonHeaders + extra) else {
            return errors.notFoundJSON
        }
        apiCache.withLockedValue { $0[key] = (seq, response) }
        return response
    }
}

/// The upstream status as JSON, for `/readyz`.
enum StatusJSON {
    static func encode(_ status: UpstreamStatus) -> JSONValue {
        func date(_ value: Date?) -> JSONValue {
            value.map { .string(RelativeTime.machine($0)) } ?? .null
        }
        let phase: String
        var nextAttempt: Date?
        switch status.phase {
        case .idle: phase = "idle"
        case .connecting: phase = "connecting"
        case .open: phase = "open"
        case .backingOff(let until):
            phase = "backing-off"
            nextAttempt = until
        case .stoppedByUpstream(let until):
            phase = "stopped-by-upstream"
            nextAttempt = until
        case .stopped: phase = "stopped"
        }
        return .object([
            "source": .string(status.source),
            "state": .string(phase),
            "next_attempt": date(nextAttempt),
            "connected_since": date(status.connectedSince),
            "last_event_at": date(status.lastEventAt),
            "last_error": status.lastError.map(JSONValue.string) ?? .null,
            "last_error_at": date(status.lastErrorAt),
            "last_upstream_error": status.lastUpstreamError.map(JSONValue.string) ?? .null,
            "events_received": .int(Int64(clamping: status.eventsReceived)),
            "bytes_received": .int(Int64(clamping: status.bytesReceived)),
            "reconnects": .int(Int64(clamping: status.reconnects)),
            "rejected_patches": .int(Int64(clamping: status.rejectedPatches)),
            "upstream_errors": .int(Int64(clamping: status.upstreamErrors)),
            "ignored_events": .int(Int64(clamping: status.ignoredEvents)),
        ])
    }
}
