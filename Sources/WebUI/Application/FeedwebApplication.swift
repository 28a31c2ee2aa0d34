import FeedCore
import Foundation
import Logging

/// feedweb, assembled: the store, the upstream subscription (or the demo), the HTTP
/// server and the timers.
///
/// Use: ``start()`` (binds, returns the port), then ``run()`` until cancelled, then
/// ``stop()``.
public final class FeedwebApplication: Sendable {
    public let configuration: FeedwebConfiguration
    private let logger: Logger
    private let store: FeedStore
    private let demo: DemoUpstream?
    private let server: HTTPServer
    private let context: AppContext
    private let upstreamBox = UpstreamBox()

    public init(configuration: FeedwebConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        store = FeedStore(configuration: .init(profile: configuration.profile, historyCount: configuration.history))
        let sourceLabel: String
        switch configuration.source {
        case .demo:
            demo = DemoUpstream(interval: configuration.demoInterval, logger: logger)
            sourceLabel = "demo newswire"
        case .sse(let url):
            demo = nil
            sourceLabel = url
        }
        let security = ResponseHeaders.security(frameAncestors: configuration.frameAncestors)
        let staticFiles = StaticFiles(directory: configuration.publicDirectory, securityHeaders: security, logger: logger)
        let upstreamBox = self.upstreamBox
        let label = sourceLabel
        context = AppContext(
            store: store, demo: demo?.stream, staticFiles: staticFiles, frameAncestors: configuration.frameAncestors,
            sourceLabel: sourceLabel, maxQueuedBytesPerClient: configuration.maxQueuedBytesPerClient, restoredAt: nil,
            upstreamStatus: { upstreamBox.connection?.status ?? UpstreamStatus(source: label) })
        let context = self.context
        store.observe { change in
            if change.publishedChanged { context.refreshPageStreams() }
        }
        var serverConfiguration = HTTPServer.Configuration(address: configuration.listen, maxStreams: configuration.maxClients)
        serverConfiguration.connectionTimeout = 60
        server = HTTPServer(configuration: serverConfiguration, responder: Router(context: context), logger: logger)
    }

    /// Binds the listening socket and prepares the upstream connection; returns the port.
    public func start() throws -> UInt16 {
        let port = try server.start()
        let url: String
        switch configuration.source {
        case .demo:
            let host = configuration.listen.isIPv6 ? "[::1]" : "127.0.0.1"
            url = "http://\(host):\(port)/demo/upstream"
        case .sse(let upstream):
            url = upstream
        }
        let upstream = UpstreamConfiguration(
            url: url, headers: configuration.headers, maxEventBytes: configuration.maxEventBytes,
            maxBackoff: configuration.maxBackoff, readTimeout: configuration.readTimeout, caFile: configuration.caFile)
        let connection = try UpstreamConnection(configuration: upstream, store: store, logger: logger)
        let context = self.context
        connection.observeStatus { _ in context.refreshPageStreams() }
        upstreamBox.connection = connection
        return port
    }

    /// Runs the upstream subscription, the demo and the timers until the task is cancelled.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            if let connection = upstreamBox.connection {
                group.addTask { await connection.run() }
            }
            if let demo {
                group.addTask { await demo.run() }
            }
            let context = self.context
            let heartbeat = configuration.heartbeatInterval
            group.addTask {
                let comment = SSEEncoder.comment("heartbeat")
                while !Task.isCancelled {
                    do { try await Task.sleep(for: heartbeat) } catch { return }
                    for broadcaster in context.broadcasters { broadcaster.broadcastToAll(comment) }
                }
            }
            group.addTask {
                // Once a second: drop clients that have taken nothing for 5 s while events
                // wait, and push status changes that time alone brings to the pages.
                while !Task.isCancelled {
                    do { try await Task.sleep(for: .seconds(1)) } catch { return }
                    for broadcaster in context.broadcasters { broadcaster.dropStalled(olderThan: 5_000_000_000) }
                    context.refreshPageStreams()
                }
            }
            await group.waitForAll()
        }
    }

    /// Stops serving: ends every stream cleanly and stops the daemon (call after `run()`
    /// has returned, so nothing publishes any more).
    public func stop() {
        server.stop()
    }
}

import NIOConcurrencyHelpers

/// Holds the upstream connection, which exists only once the port is known.
private final class UpstreamBox: Sendable {
    private let box = NIOLockedValueBox<UpstreamConnection?>(nil)

    var connection: UpstreamConnection? {
        get { box.withLockedValue { $0 } }
        set { box.withLockedValue { $0 = newValue } }
    }
}
