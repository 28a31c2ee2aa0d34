import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// feedweb, assembled: the store (restored from the state file, if any), the upstream
/// connection (SSE in the document, append or Firebase dialect, polling, a WebSocket, or
/// the demo) — or, with `--cluster`, a ``ClusterNode`` that follows the cluster's log and
/// runs that connection only while it leads —, the HTTP server, the state-file writer and
/// the timers.
///
/// Use: ``start()`` (binds, returns the port), then run ``services`` in a `ServiceGroup`
/// (or ``run()`` until cancelled), which ends with ``stop()``.
public final class FeedwebApplication: Sendable {
    public let configuration: FeedwebConfiguration
    /// When the state shown before upstream answers was saved (`nil`: nothing restored).
    public let restoredAt: Date?
    private let logger: Logger
    private let store: FeedStore
    private let demo: DemoUpstream?
    private let server: HTTPServer
    private let handlers: WebHandlers
    private let stateWriter: StateFileWriter?
    private let upstreamBox = UpstreamBox()
    /// The templates pages are rendered from.
    private let templates: TemplateLibrary
    private let clusterBox = ClusterBox()

    public init(configuration: FeedwebConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        store = FeedStore(
            configuration: .init(
                profile: configuration.profile, historyCount: configuration.history,
                detection: configuration.profileDetection, itemsAreEvents: configuration.sources.source.itemsAreEvents))
        let label = configuration.sources.source.label
        if case .demo = configuration.sources.source {
            demo = DemoUpstream(interval: configuration.sources.demoInterval, logger: logger)
        } else {
            demo = nil
        }
        var restoredAt: Date?
        var stateWriter: StateFileWriter?
        if let path = configuration.stateFile {
            let file = StateFile(path: path)
            let restored = Self.restore(
                from: file, into: store, source: label, keepsEpoch: configuration.cluster == nil, logger: logger)
            restoredAt = restored?.savedAt
            stateWriter = StateFileWriter(
                file: file, store: store, source: label, savedSeq: restored?.seq, logger: logger)
        }
        self.stateWriter = stateWriter
        self.restoredAt = restoredAt
        templates = TemplateLibrary(Self.loadTemplates(configuration.templates, logger: logger))
        let security = ResponseHeaders.security(frameAncestors: configuration.frameAncestors)
        let staticFiles = StaticFiles(
            directory: configuration.publicDirectory, securityHeaders: security, logger: logger)
        let upstreamBox = self.upstreamBox
        let clusterBox = self.clusterBox
        handlers = WebHandlers(
            store: store, demo: demo?.stream, staticFiles: staticFiles, frameAncestors: configuration.frameAncestors,
            sourceLabel: label, maxQueuedBytesPerClient: configuration.streams.maxQueuedBytesPerClient,
            restoredAt: restoredAt, statsPollInterval: configuration.sources.comparedPollInterval.timeInterval,
            statsComparison: configuration.sources.statsComparison,
            stateFile: stateWriter, shards: Shard.shards(of: store, for: configuration.server),
            inspect: configuration.inspect,
            title: configuration.title,
            allowedOrigins: configuration.allowedOrigins, logger: logger, templates: templates,
            screens: configuration.screens, links: configuration.links,
            webhooks: configuration.webhooks.map {
                WebhookNotifier.Target(url: $0, headers: configuration.webhookHeaders)
            },
            upstreamStatus: {
                // Shown under the configured source's name, never the raw URL (it may
                // carry an API key) nor the demo's loopback address.
                var status = upstreamBox.source?.status ?? UpstreamStatus(source: label)
                status.source = label
                return status
            },
            clusterStatus: { clusterBox.node?.clusterStatus })
        let server = HTTPServer(
            configuration: configuration.server, responder: handlers.router, shards: handlers.shards, logger: logger)
        self.server = server
        handlers.connections.connect { [weak server] in server?.connectionCounts ?? ConnectionCounts() }
        handlers.inspector?.events.writeMarks.connect(server.writeMarks)
    }

    /// The templates of `directory` over the built-ins (their warnings logged), or the
    /// built-ins alone. The options were checked at start (a folder that does not load
    /// exits 2); should it fail now all the same, the built-ins serve and the log says why.
    private static func loadTemplates(_ directory: String?, logger: Logger) -> TemplateSet {
        guard let directory else { return .builtin }
        do throws(TemplateLoadError) {
            let set = try TemplateSet.load(directory: directory)
            logger.info(
                "templates from \(directory): replacing \(set.replaced.isEmpty ? "none" : set.replaced.joined(separator: ", "))"
            )
            for warning in set.warnings { logger.warning("templates: \(warning)") }
            return set
        } catch {
            logger.error("templates: \(error); serving the built-in templates")
            return .builtin
        }
    }

    /// Reads `--templates` again (SIGHUP): all of it or none. Logs what happened.
    public func reloadTemplates() {
        switch handlers.reloadTemplates() {
        case nil:
            logger.notice("SIGHUP: no --templates folder to read again")
        case .success(let set)?:
            logger.notice(
                "templates reloaded from \(set.directory ?? "?"): replacing \(set.replaced.isEmpty ? "none" : set.replaced.joined(separator: ", ")); open pages reload"
            )
            for warning in set.warnings { logger.warning("templates: \(warning)") }
        case .failure(let error)?:
            logger.error("templates not reloaded, the ones in use are kept: \(error)")
        }
    }

    /// Restores the store from the state file; logs and ignores a missing, unreadable,
    /// corrupt or foreign file. Returns the restored sequence and its save time. The ids go
    /// on from the file's when a clean shutdown wrote it (``resumableID(of:in:source:keepsEpoch:logger:)``),
    /// else a new epoch begins.
    private static func restore(
        from file: StateFile, into store: FeedStore, source: String, keepsEpoch: Bool, logger: Logger
    ) -> (seq: UInt64, savedAt: Date)? {
        let contents: StateFile.Contents
        do {
            guard let loaded = try file.load() else {
                logger.info("state file \(file.path) does not exist yet; starting without a saved state")
                return nil
            }
            contents = loaded
        } catch {
            logger.error("state file \(file.path) is unusable and is ignored: \(error)")
            return nil
        }
        if let saved = contents.source, saved != source {
            logger.warning("state file \(file.path) holds the state of \(saved), not of \(source); ignoring it")
            return nil
        }
        let now = Date()
        // Stale since the save; a clock that went backwards must not put it in the future.
        let savedAt = min(contents.savedAt ?? now, now)
        let resumed = resumableID(of: contents, in: file, source: source, keepsEpoch: keepsEpoch, logger: logger)
        store.restore(document: contents.document, seq: contents.seq, epoch: resumed?.epoch)
        let ids =
            resumed.map { "; ids go on from \($0)" }
            ?? (contents.clean ? "" : " (not written at a clean shutdown: new ids)")
        logger.notice(
            "restored change \(contents.seq) saved at \(savedAt.formatted(Date.ISO8601FormatStyle())) from \(file.path)\(ids); shown as stale until upstream answers"
        )
        return (contents.seq, savedAt)
    }

    /// The id the restored state goes on from: the file's, when a clean shutdown wrote it
    /// and `keepsEpoch` (not in a cluster, whose epoch lives in its database). The file is
    /// first marked not clean again, on disk, since from now on changes after its sequence
    /// may be sent: a crash before the next write must not hand the same ids out twice.
    /// `nil` (a new epoch) when that write fails.
    private static func resumableID(
        of contents: StateFile.Contents, in file: StateFile, source: String, keepsEpoch: Bool, logger: Logger
    ) -> EventID? {
        guard keepsEpoch, let id = contents.resumableID else { return nil }
        do {
            try file.save(
                seq: contents.seq, epoch: id.epoch, clean: false, savedAt: contents.savedAt ?? Date(), source: source,
                encodedDocument: contents.document.serializedBytes())
        } catch {
            logger.error("state file \(file.path): cannot mark it in use (\(error)); starting new ids")
            return nil
        }
        return id
    }

    /// Binds the listening socket and prepares the upstream source; returns the port.
    public func start() throws -> UInt16 {
        let port = try server.start()
        let host = configuration.server.address.isIPv6 ? "[::1]" : "127.0.0.1"
        // The items' pages a webhook links to, without --public-origin: where feedweb listens.
        let address = configuration.server.address
        let listening =
            ["0.0.0.0", "::"].contains(address.host) ? host : address.isIPv6 ? "[\(address.host)]" : address.host
        handlers.webhooks?.serve(at: "http://\(listening):\(port)")
        let (url, kind) = configuration.sources.source.connection(
            demoURL: "http://\(host):\(port)/demo/upstream", chosenEvents: Set(configuration.sources.chosenEvents),
            sends: configuration.sources.sendOnOpen)
        var upstream = configuration.sources.upstream(url: url)
        let source: any UpstreamSource
        if let cluster = configuration.cluster {
            let logger = self.logger
            let upstream = upstream
            // Checked now, so that a wrong URL, header or CA file fails at start, not when
            // this node first leads.
            _ = try UpstreamConnection(
                configuration: upstream, kind: kind, store: FeedStore(configuration: store.configuration),
                logger: logger)
            let node = configuration.clusterNode ?? "\(Self.hostName):\(port)"
            let clusterNode = ClusterNode(
                configuration: ClusterNode.Configuration(node: node, history: configuration.history), store: store,
                log: try cluster.makeLog(logger: logger), source: configuration.sources.source.label,
                logger: logger
            ) { upstreamStore in
                try UpstreamConnection(configuration: upstream, kind: kind, store: upstreamStore, logger: logger)
            }
            logger.info("cluster: node \(node) on \(cluster.shown)")
            clusterBox.node = clusterNode
            source = clusterNode
        } else {
            // A relay (another feedweb's /events upstream) passes its ids through.
            if case .sse = configuration.sources.source { upstream.passesIDsThrough = true }
            source = try UpstreamConnection(configuration: upstream, kind: kind, store: store, logger: logger)
        }
        let handlers = self.handlers
        source.observe { event, status in handlers.upstreamEventOccurred(event, status: status) }
        upstreamBox.source = source
        return port
    }

    /// The long-running parts, in the order they start; a `ServiceGroup` shuts them down
    /// in reverse: the upstream source (or cluster role) stops first, so the state is
    /// final, then the demo, the timers and the page streams, then the state file is
    /// written, and last the HTTP server ends every stream and stops (``stop()``).
    public var services: [any Service] {
        var services: [any Service] = [ApplicationService.waiting("http server") { self.stop() }]
        if let stateWriter {
            services.append(
                ApplicationService("state file", work: { await stateWriter.run() }, finish: { self.saveState() }))
        }
        let broadcasters = handlers.streams.broadcasters
        let pageStreams = handlers.pageStreams
        let eventLog = handlers.inspector?.events
        let assets = handlers.assets
        let heartbeat = configuration.streams.heartbeatInterval
        let stallTimeout = configuration.streams.stallTimeout.saturatingNanoseconds
        let logger = self.logger
        services.append(ApplicationService("page streams") { await pageStreams.run() })
        services.append(
            ApplicationService("heartbeats") {
                let comment = SSEEncoder.comment("heartbeat")
                while !Task.isCancelled {
                    do { try await Task.sleep(for: heartbeat) } catch { return }
                    for broadcaster in broadcasters { broadcaster.broadcastToAll(comment) }
                }
            })
        services.append(
            ApplicationService("stream sweeps") {
                // Once a second: drop clients that have taken nothing for the stall timeout
                // while events wait, count the settled events' stage times, and push status
                // changes that time alone brings to the pages.
                while !Task.isCancelled {
                    do { try await Task.sleep(for: .seconds(1)) } catch { return }
                    for broadcaster in broadcasters { broadcaster.dropStalled(olderThan: stallTimeout) }
                    eventLog?.settle()
                    pageStreams.requestFrame()
                }
            })
        services.append(
            ApplicationService("static files") {
                // Every 2 s: when Public/ changed, serve the new files and reload open pages.
                while !Task.isCancelled {
                    do { try await Task.sleep(for: .seconds(2)) } catch { return }
                    guard let version = assets.reloadIfChanged(logger: logger) else { continue }
                    logger.info("static files changed (version \(version)); telling open pages to reload")
                    pageStreams.stream.reload(version: version)
                }
            })
        if let demo {
            services.append(ApplicationService("demo newswire") { await demo.run() })
        }
        if let webhooks = handlers.webhooks {
            services.append(ApplicationService("webhooks") { await webhooks.run() })
        }
        if let source = upstreamBox.source {
            let name = configuration.cluster == nil ? "upstream" : "cluster node"
            services.append(ApplicationService(name) { await source.run() })
        }
        return services
    }

    /// Runs every part (``services``) in a `ServiceGroup` until the task is cancelled,
    /// then stops them all, the HTTP server last. For running feedweb inside another
    /// program (the tests); the `feedweb` command runs ``services`` itself, with its
    /// signal handling.
    public func run() async {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        do {
            try await group.run()
        } catch {
            if !Task.isCancelled { logger.error("feedweb stopped: \(error)") }
        }
    }

    /// Writes the state file, marked clean (the state is final: every other part has
    /// stopped, so nothing publishes any more), then stops serving: no new connections,
    /// every stream ended cleanly, the daemon stopped (see ``HTTPServer/stop(timeout:)``).
    /// Idempotent.
    ///
    /// The state is written first so that a slow client drain can never cost it.
    public func stop() {
        saveState()
        server.stop()
    }

    /// This machine's host name (`gethostname`, no name lookup), for a cluster node's
    /// default name.
    private static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "feedweb" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "feedweb" : name
    }

    /// Writes the state file now if it is not on disk so already (no-op without
    /// `--state-file`); `final`: every part that changes the state has stopped, so the file
    /// is marked clean and the next start goes on with its ids. Thread-safe: the shutdown
    /// watchdog calls it too, not `final` (it runs while parts may still be changing it).
    public func saveState(final: Bool = true) {
        if let stateWriter, stateWriter.flush(clean: final), let seq = store.snapshot?.id.seq {
            logger.info("state file \(stateWriter.file.path) holds change \(seq)")
        }
    }
}

/// Holds the upstream source, which exists only once the port is known.
private final class UpstreamBox: Sendable {
    /// Guards the reference only. A leaf: the source's status is read after it is released.
    private let box = NIOLockedValueBox<(any UpstreamSource)?>(nil)

    var source: (any UpstreamSource)? {
        get { box.withLockedValue { $0 } }
        set { box.withLockedValue { $0 = newValue } }
    }
}

/// Holds the cluster node, which exists only once the port is known (its default name
/// carries it).
private final class ClusterBox: Sendable {
    /// Guards the reference only. A leaf: the node's status is read after it is released.
    private let box = NIOLockedValueBox<ClusterNode?>(nil)

    var node: ClusterNode? {
        get { box.withLockedValue { $0 } }
        set { box.withLockedValue { $0 = newValue } }
    }
}
