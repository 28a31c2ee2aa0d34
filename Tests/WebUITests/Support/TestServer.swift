import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers

@testable import WebUI

/// feedweb's HTTP layer in-process on a free loopback port, serving a store the test
/// fills directly, with the real router, renderer and libmicrohttpd server.
final class TestServer: @unchecked Sendable {
    let store: FeedStore
    let server: HTTPServer
    let context: AppContext
    let port: UInt16
    private let status: NIOLockedValueBox<UpstreamStatus>

    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Public").path

    init(
        document: JSONValue?, profile: ItemProfile = .nytNewswire, publicDirectory: String = TestServer.publicDirectory,
        frameAncestors: String = "'self'", maxStreams: Int = 100
    ) throws {
        store = FeedStore(configuration: .init(profile: profile))
        if let document { store.replaceDocument(document) }
        var live = UpstreamStatus(source: "test")
        live.phase = .open
        live.connectedSince = Date()
        live.lastEventAt = Date()
        let status = NIOLockedValueBox(live)
        self.status = status
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let staticFiles = StaticFiles(
            directory: publicDirectory, securityHeaders: ResponseHeaders.security(frameAncestors: frameAncestors),
            logger: logger)
        context = AppContext(
            store: store, demo: nil, staticFiles: staticFiles, frameAncestors: frameAncestors, sourceLabel: "test",
            maxQueuedBytesPerClient: 1 << 20, restoredAt: nil, upstreamStatus: { status.withLockedValue { $0 } })
        server = HTTPServer(
            configuration: .init(address: try ListenAddress(parsing: "127.0.0.1:0"), maxStreams: maxStreams),
            responder: Router(context: context), logger: logger)
        port = try server.start()
    }

    /// Changes the upstream status the pages show.
    func setStatus(_ change: (inout UpstreamStatus) -> Void) {
        status.withLockedValue { change(&$0) }
    }

    deinit {
        server.stop(timeout: .milliseconds(500))
    }
}
