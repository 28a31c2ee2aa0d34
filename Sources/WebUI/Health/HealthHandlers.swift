import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// What operators and orchestrators ask: `/healthz` (the process answers), `/readyz` (a
/// document and a connected upstream — for a cluster node, the log read and a live
/// leader) and `/metrics` (the Prometheus text exposition).
struct HealthHandlers: Sendable {
    let store: FeedStore
    /// The upstream status now, under the configured source's name.
    let upstreamStatus: @Sendable () -> UpstreamStatus
    /// The node's view of its cluster now (`nil`: not in one).
    let clusterStatus: @Sendable () -> ClusterStatus?
    /// The counts `/metrics` reports with the pulled figures.
    let stats: StatsRecorder
    let metrics: FeedwebMetrics
    /// For the clients and traffic of each stream endpoint, and the streams refused.
    let streams: StreamHandlers
    /// The HTTP server's connection counts, once it exists.
    let connections: ConnectionCountsSource
    /// `{"status":"ok"}`, built once.
    let healthy: PreparedResponse
    let jsonHeaders: [(String, String)]
    /// The headers of `/metrics`: its content type, `no-store`, then the security headers.
    let metricsHeaders: [(String, String)]
    /// Sent if a response cannot be allocated (memory exhausted).
    let unavailable: PreparedResponse

    init(
        store: FeedStore, upstreamStatus: @escaping @Sendable () -> UpstreamStatus,
        clusterStatus: @escaping @Sendable () -> ClusterStatus? = { nil }, stats: StatsRecorder,
        metrics: FeedwebMetrics, streams: StreamHandlers, connections: ConnectionCountsSource,
        securityHeaders: [(String, String)], unavailable: PreparedResponse
    ) {
        self.store = store
        self.upstreamStatus = upstreamStatus
        self.clusterStatus = clusterStatus
        self.stats = stats
        self.metrics = metrics
        self.streams = streams
        self.connections = connections
        self.jsonHeaders = ResponseHeaders.json(security: securityHeaders)
        self.metricsHeaders =
            [("Content-Type", FeedwebMetrics.contentType), ("Cache-Control", "no-store")] + securityHeaders
        self.healthy = .fixed(
            status: 200, body: JSONValue.object(["status": .string("ok")]).serializedBytes(), headers: jsonHeaders)
        self.unavailable = unavailable
    }

    /// `/healthz`: 200 whenever the process answers.
    func health() -> PreparedResponse { healthy }

    /// `/readyz`: 200 with a document and a connected upstream, else 503; always the status.
    func readiness() -> PreparedResponse {
        let status = upstreamStatus()
        let snapshot = store.snapshot
        let ready = snapshot != nil && status.isConnected
        var members: JSONObject = [
            "ready": .bool(ready),
            "document": .bool(snapshot != nil),
            "sequence": snapshot.map { .int(Int64($0.id.seq)) } ?? .null,
            "upstream": StatusJSON.encode(status),
        ]
        if let cluster = clusterStatus() { members["cluster"] = StatusJSON.encode(cluster) }
        let body = JSONValue.object(members)
        return PreparedResponse(status: ready ? 200 : 503, body: body.serializedBytes(), headers: jsonHeaders)
            ?? unavailable
    }

    /// `/metrics`: the Prometheus text exposition, the pulled figures brought up to date now.
    func exposition() -> PreparedResponse {
        let snapshot = store.snapshot
        let sample = FeedwebMetrics.Sample(
            documentLoaded: snapshot != nil, sequence: snapshot?.id.seq ?? 0,
            items: snapshot?.published.items.count ?? 0, streams: streams.samples,
            pageStreams: (streams.pages.stream.clientCount, streams.pages.stream.viewCount),
            pageFragmentsRendered: streams.pages.stream.fragmentRenderCount, refusedStreams: streams.refusedCount,
            stats: stats.totals(), process: .current(),
            connections: connections.counts, cluster: clusterStatus())
        return PreparedResponse(status: 200, body: metrics.exposition(of: sample), headers: metricsHeaders)
            ?? unavailable
    }
}

/// Where `/metrics` reads the HTTP server's connection counts. The server is made after the
/// handlers (it needs their router), so it is connected here once it exists. A leaf lock.
final class ConnectionCountsSource: Sendable {
    private let read = NIOLockedValueBox<(@Sendable () -> ConnectionCounts)?>(nil)

    /// From now on the counts come from `read`.
    func connect(_ read: @escaping @Sendable () -> ConnectionCounts) {
        self.read.withLockedValue { $0 = read }
    }

    /// The counts now (all zero before a server is connected).
    var counts: ConnectionCounts {
        read.withLockedValue { $0 }?() ?? ConnectionCounts()
    }
}
