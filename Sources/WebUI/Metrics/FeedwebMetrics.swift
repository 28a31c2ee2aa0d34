import FeedCore
import Metrics
import NIOConcurrencyHelpers

import class Prometheus.PrometheusCollectorRegistry
import struct Prometheus.PrometheusMetricsFactory

/// `/metrics`: feedweb's figures in the Prometheus text format.
///
/// The metric objects are swift-metrics' (`Counter`, `Gauge`, `Timer`), made by a
/// ``PrometheusMetricsFactory`` over this instance's own registry — never the global
/// `MetricsSystem`, so two applications in one process (the tests) keep apart.
///
/// Three kinds of figures:
/// - pushed where they happen: page render time and fan-out time (histograms in seconds);
/// - folded over the upstream source's ``UpstreamEvent``s as they are published
///   (``record(_:)``): the `upstream_*` figures, the same events `/readyz` and `/stats`
///   fold over;
/// - pulled at scrape time from the running totals the parts already keep (each
///   broadcaster's ``StreamTraffic``, the `/stats` totals): a ``Sample``, taken by
///   ``HealthHandlers``.
///
/// Names (all prefixed `feedweb_`; `stream` is `events`, `items`, `page` or `demo`):
/// `upstream_connected`, `upstream_events_total`, `upstream_bytes_total`,
/// `upstream_reconnects_total`, `upstream_rejected_patches_total`, `upstream_errors_total`,
/// `document_loaded`, `document_sequence`, `items`, `stream_clients{stream}`,
/// `stream_events_total{stream}`, `stream_bytes_total{stream}`,
/// `stream_dropped_clients_total{stream}`, `stream_catchups_total{stream}` (a client too far
/// behind given the newest state in place of its backlog), `stream_refused_total`,
/// `page_streams` and `page_stream_views` (the page streams open, one per browser partition,
/// and the views they carry in all), `page_fragments_rendered_total` (HTML fragments the page
/// streams rendered: once per change and view, never per page), `changes_total`,
/// `item_changes_total{kind}` (`added`, `updated`, `removed`), `polling_equivalent_bytes_total`,
/// `new_sections_total`, `guard_regressions_total`, `marks_total` (items that matched a
/// `--mark`), `page_render_seconds`, `fanout_seconds{stream}`, `event_stage_seconds{stage}`
/// (how long after the read that carried it each event was `parsed`, `committed`, and in its
/// `first_write` and `last_write` to a socket), `process_resident_memory_bytes`,
/// `process_open_fds`, `http_connections`, `http_connections_waiting` (for a request),
/// `http_connections_closed_total{reason}` (`head_timeout`, `room`: slow clients closed;
/// `stalled_answer`: a client that took no byte of an answer; `limit`: refused at the
/// connection limit);
/// in cluster mode also `cluster_leader` (1 on the node that leads),
/// `cluster_term`, `cluster_head_sequence`, `cluster_applied_sequence`, `cluster_lag`
/// (rows of the log not applied here yet), `cluster_database_connected`,
/// `cluster_takeovers_total` (times this node took the lead) and `leader_changes_total`;
/// with `--webhook`, `webhook_notifications_total{result}` (``WebhookNotifier``).
final class FeedwebMetrics: Sendable {
    /// One stream endpoint at scrape time.
    struct StreamSample: Sendable {
        let name: String
        let clients: Int
        let traffic: StreamTraffic
    }

    /// Everything pulled at scrape time.
    struct Sample: Sendable {
        var documentLoaded: Bool
        var sequence: UInt64
        var items: Int
        var streams: [StreamSample]
        /// Page streams open (one per browser partition whose pages elected a leader, or
        /// one per page where the browser lacks what sharing needs), and the views they
        /// carry in all.
        var pageStreams: (streams: Int, views: Int)
        /// HTML fragments the page streams rendered since start (a story, an item, a badge,
        /// a part of `/stats`): once per change and channel, however many pages show it.
        var pageFragmentsRendered: UInt64 = 0
        /// New streams answered 503 because `--max-clients` was reached.
        var refusedStreams: UInt64
        /// The `/stats` counts since start.
        var stats: StatsTotals
        var process: ProcessFigures
        /// The HTTP server's connections.
        var connections = ConnectionCounts()
        /// The node's view of its cluster (`nil`: not in one).
        var cluster: ClusterStatus? = nil
    }

    /// The content type of the text format, version 0.0.4.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Guards the pulled gauges and counters while a scrape brings them up to its sample
    /// (the text is emitted after). Only swift-metrics' and the registry's own locks are
    /// taken inside; no feedweb lock.
    private let pulled: NIOLockedValueBox<PulledMetrics>
    private let upstream: UpstreamMetrics
    /// Time to render a full page (`/`, `/kiosk`, an item page) on a cache miss.
    let pageRender: Timer

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Renders and fan-outs take microseconds to milliseconds, not the default's seconds.
        let fine: [Duration] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        // An event's way from upstream to the last socket: microseconds to seconds.
        let stages =
            fine + [.milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5)].filter { !fine.contains($0) }
        factory.durationHistogramBuckets = [
            "feedweb_page_render_seconds": fine, "feedweb_fanout_seconds": fine, "feedweb_event_stage_seconds": stages,
        ]
        self.factory = factory
        pageRender = Timer(label: "feedweb_page_render_seconds", factory: factory)
        pulled = NIOLockedValueBox(PulledMetrics(factory: factory))
        upstream = UpstreamMetrics(factory: factory)
    }

    /// Folds one upstream event into the `upstream_*` figures (on the source's task).
    func record(_ event: UpstreamEvent) {
        upstream.record(event)
    }

    /// The counters of `feedweb_webhook_notifications_total`, by result.
    func webhookCounters() -> WebhookNotifier.Counters {
        func counter(_ result: String) -> Counter {
            Counter(label: "feedweb_webhook_notifications_total", dimensions: [("result", result)], factory: factory)
        }
        return WebhookNotifier.Counters(
            delivered: counter("delivered"), failed: counter("failed"), dropped: counter("dropped"))
    }

    /// A recorder of the fan-out time of the stream endpoint `stream`, in nanoseconds.
    func fanoutObserver(stream: String) -> @Sendable (UInt64) -> Void {
        let timer = Timer(label: "feedweb_fanout_seconds", dimensions: [("stream", stream)], factory: factory)
        return { nanoseconds in timer.recordNanoseconds(Int64(clamping: nanoseconds)) }
    }

    /// A recorder of `feedweb_event_stage_seconds{stage}`: how long after the read that
    /// carried it an event passed each stage (``Stages/names``), in nanoseconds.
    func stageObserver() -> @Sendable (_ stage: String, _ nanoseconds: UInt64) -> Void {
        let timers = Dictionary(
            uniqueKeysWithValues: Stages.names.map {
                ($0, Timer(label: "feedweb_event_stage_seconds", dimensions: [("stage", $0)], factory: factory))
            })
        return { stage, nanoseconds in timers[stage]?.recordNanoseconds(Int64(clamping: nanoseconds)) }
    }

    /// A recorder for ``pageRender``, in nanoseconds.
    var renderObserver: @Sendable (UInt64) -> Void {
        let timer = pageRender
        return { nanoseconds in timer.recordNanoseconds(Int64(clamping: nanoseconds)) }
    }

    /// Brings the pulled figures up to `sample` and returns the whole text exposition.
    func exposition(of sample: Sample) -> [UInt8] {
        pulled.withLockedValue { $0.update(to: sample, factory: factory) }
        return registry.emitToBuffer()
    }
}

/// The `upstream_*` figures: a fold over the upstream source's events. The metric objects
/// are thread-safe, so no lock of its own.
private struct UpstreamMetrics: Sendable {
    let connected: Gauge
    let events: Counter
    let bytes: Counter
    let reconnects: Counter
    let rejectedPatches: Counter
    let errors: Counter

    init(factory: PrometheusMetricsFactory) {
        connected = Gauge(label: "feedweb_upstream_connected", factory: factory)
        events = Counter(label: "feedweb_upstream_events_total", factory: factory)
        bytes = Counter(label: "feedweb_upstream_bytes_total", factory: factory)
        reconnects = Counter(label: "feedweb_upstream_reconnects_total", factory: factory)
        rejectedPatches = Counter(label: "feedweb_upstream_rejected_patches_total", factory: factory)
        errors = Counter(label: "feedweb_upstream_errors_total", factory: factory)
        connected.record(0)
    }

    /// `connected` is 1 from ``UpstreamEvent/opened(at:)`` until the phase leaves open;
    /// each counter grows by one per event of its kind (`bytes` by the bytes received).
    func record(_ event: UpstreamEvent) {
        switch event {
        case .opened: connected.record(1)
        case .connecting, .backingOff, .stoppedByUpstream, .stopped: connected.record(0)
        case .reconnecting:
            connected.record(0)
            reconnects.increment()
        case .received(let count): bytes.increment(by: Int64(clamping: count))
        case .eventHandled(let count, _): events.increment(by: Int64(count))
        case .rejected: rejectedPatches.increment()
        case .upstreamError: errors.increment()
        case .ignored, .leaderChanged, .answered, .polled: break
        }
    }
}

/// The metrics that follow totals kept elsewhere; one per name and label set, made on the
/// first scrape that sees them.
private struct PulledMetrics {
    let documentLoaded: Gauge
    let documentSequence: Gauge
    let items: Gauge
    var refusedStreams: MirroredCounter
    var changes: MirroredCounter
    var itemsAdded: MirroredCounter
    var itemsUpdated: MirroredCounter
    var itemsRemoved: MirroredCounter
    var pollingBytes: MirroredCounter
    var newSections: MirroredCounter
    var guardRegressions: MirroredCounter
    var marks: MirroredCounter
    let residentBytes: Gauge
    let openDescriptors: Gauge
    let pageStreams: Gauge
    let pageStreamViews: Gauge
    var pageFragmentsRendered: MirroredCounter
    let connections: Gauge
    let waitingConnections: Gauge
    var closedAtDeadline: MirroredCounter
    var closedForRoom: MirroredCounter
    var closedStalled: MirroredCounter
    var refusedAtLimit: MirroredCounter
    var answeredAtDoor: MirroredCounter
    var streamsAtDoor: MirroredCounter
    var streams: [String: StreamMetrics] = [:]
    /// Made on the first scrape of a cluster node.
    var cluster: ClusterMetrics?

    struct ClusterMetrics {
        let leader: Gauge
        let term: Gauge
        let head: Gauge
        let applied: Gauge
        let lag: Gauge
        let databaseConnected: Gauge
        var takeovers: MirroredCounter
        var leaderChanges: MirroredCounter

        init(factory: PrometheusMetricsFactory) {
            leader = Gauge(label: "feedweb_cluster_leader", factory: factory)
            term = Gauge(label: "feedweb_cluster_term", factory: factory)
            head = Gauge(label: "feedweb_cluster_head_sequence", factory: factory)
            applied = Gauge(label: "feedweb_cluster_applied_sequence", factory: factory)
            lag = Gauge(label: "feedweb_cluster_lag", factory: factory)
            databaseConnected = Gauge(label: "feedweb_cluster_database_connected", factory: factory)
            takeovers = MirroredCounter(label: "feedweb_cluster_takeovers_total", factory: factory)
            leaderChanges = MirroredCounter(label: "feedweb_leader_changes_total", factory: factory)
        }

        mutating func update(to status: ClusterStatus, leaderChanges changes: UInt64) {
            leader.record(status.role == .leader ? 1 : 0)
            term.record(Int64(clamping: status.term))
            head.record(Int64(clamping: status.head))
            applied.record(Int64(clamping: status.applied))
            lag.record(Int64(clamping: status.lag))
            databaseConnected.record(status.databaseConnected ? 1 : 0)
            takeovers.follow(status.takeovers)
            leaderChanges.follow(changes)
        }
    }

    struct StreamMetrics {
        let clients: Gauge
        var events: MirroredCounter
        var bytes: MirroredCounter
        var dropped: MirroredCounter
        var catchUps: MirroredCounter

        init(name: String, factory: PrometheusMetricsFactory) {
            let label = [("stream", name)]
            clients = Gauge(label: "feedweb_stream_clients", dimensions: label, factory: factory)
            events = MirroredCounter(label: "feedweb_stream_events_total", dimensions: label, factory: factory)
            bytes = MirroredCounter(label: "feedweb_stream_bytes_total", dimensions: label, factory: factory)
            dropped = MirroredCounter(
                label: "feedweb_stream_dropped_clients_total", dimensions: label, factory: factory)
            catchUps = MirroredCounter(label: "feedweb_stream_catchups_total", dimensions: label, factory: factory)
        }
    }

    init(factory: PrometheusMetricsFactory) {
        documentLoaded = Gauge(label: "feedweb_document_loaded", factory: factory)
        documentSequence = Gauge(label: "feedweb_document_sequence", factory: factory)
        items = Gauge(label: "feedweb_items", factory: factory)
        refusedStreams = MirroredCounter(label: "feedweb_stream_refused_total", factory: factory)
        changes = MirroredCounter(label: "feedweb_changes_total", factory: factory)
        func itemChanges(_ kind: String) -> MirroredCounter {
            MirroredCounter(label: "feedweb_item_changes_total", dimensions: [("kind", kind)], factory: factory)
        }
        itemsAdded = itemChanges("added")
        itemsUpdated = itemChanges("updated")
        itemsRemoved = itemChanges("removed")
        pollingBytes = MirroredCounter(label: "feedweb_polling_equivalent_bytes_total", factory: factory)
        newSections = MirroredCounter(label: "feedweb_new_sections_total", factory: factory)
        guardRegressions = MirroredCounter(label: "feedweb_guard_regressions_total", factory: factory)
        marks = MirroredCounter(label: "feedweb_marks_total", factory: factory)
        residentBytes = Gauge(label: "feedweb_process_resident_memory_bytes", factory: factory)
        openDescriptors = Gauge(label: "feedweb_process_open_fds", factory: factory)
        pageStreams = Gauge(label: "feedweb_page_streams", factory: factory)
        pageStreamViews = Gauge(label: "feedweb_page_stream_views", factory: factory)
        pageFragmentsRendered = MirroredCounter(label: "feedweb_page_fragments_rendered_total", factory: factory)
        connections = Gauge(label: "feedweb_http_connections", factory: factory)
        waitingConnections = Gauge(label: "feedweb_http_connections_waiting", factory: factory)
        closedAtDeadline = MirroredCounter(
            label: "feedweb_http_connections_closed_total", dimensions: [("reason", "head_timeout")], factory: factory)
        closedForRoom = MirroredCounter(
            label: "feedweb_http_connections_closed_total", dimensions: [("reason", "room")], factory: factory)
        closedStalled = MirroredCounter(
            label: "feedweb_http_connections_closed_total", dimensions: [("reason", "stalled_answer")],
            factory: factory)
        refusedAtLimit = MirroredCounter(
            label: "feedweb_http_connections_closed_total", dimensions: [("reason", "limit")], factory: factory)
        answeredAtDoor = MirroredCounter(label: "feedweb_http_front_door_answers_total", factory: factory)
        streamsAtDoor = MirroredCounter(label: "feedweb_http_front_door_streams_total", factory: factory)
    }

    mutating func update(to sample: FeedwebMetrics.Sample, factory: PrometheusMetricsFactory) {
        documentLoaded.record(sample.documentLoaded ? 1 : 0)
        documentSequence.record(Int64(clamping: sample.sequence))
        items.record(sample.items)
        refusedStreams.follow(sample.refusedStreams)
        changes.follow(sample.stats.changes)
        itemsAdded.follow(sample.stats.itemsAdded)
        itemsUpdated.follow(sample.stats.itemsUpdated)
        itemsRemoved.follow(sample.stats.itemsRemoved)
        pollingBytes.follow(sample.stats.pollingBytes)
        newSections.follow(sample.stats.newSections)
        guardRegressions.follow(sample.stats.guardRegressions)
        marks.follow(sample.stats.marks)
        residentBytes.record(Int64(clamping: sample.process.residentBytes))
        openDescriptors.record(sample.process.openDescriptors)
        pageStreams.record(sample.pageStreams.streams)
        pageStreamViews.record(sample.pageStreams.views)
        pageFragmentsRendered.follow(sample.pageFragmentsRendered)
        connections.record(sample.connections.held)
        waitingConnections.record(sample.connections.waiting)
        closedAtDeadline.follow(UInt64(sample.connections.droppedAtDeadline))
        closedForRoom.follow(UInt64(sample.connections.droppedForRoom))
        closedStalled.follow(UInt64(sample.connections.closedStalled))
        refusedAtLimit.follow(UInt64(sample.connections.refusedAtLimit))
        answeredAtDoor.follow(UInt64(sample.connections.answeredAtDoor))
        streamsAtDoor.follow(UInt64(sample.connections.streamsAtDoor))
        if let status = sample.cluster {
            var metrics = cluster ?? ClusterMetrics(factory: factory)
            metrics.update(to: status, leaderChanges: sample.stats.leaderChanges)
            cluster = metrics
        }
        for stream in sample.streams {
            var metrics = streams[stream.name] ?? StreamMetrics(name: stream.name, factory: factory)
            metrics.clients.record(stream.clients)
            metrics.events.follow(stream.traffic.eventsQueued)
            metrics.bytes.follow(stream.traffic.bytesQueued)
            metrics.dropped.follow(stream.traffic.droppedClients)
            metrics.catchUps.follow(stream.traffic.catchUps)
            streams[stream.name] = metrics
        }
    }
}
