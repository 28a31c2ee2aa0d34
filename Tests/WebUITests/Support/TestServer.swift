import FeedCore
import Foundation
import Logging

@testable import WebUI

/// feedweb's HTTP layer in-process on a free loopback port, serving a store the test
/// fills directly, with the real router, renderer and libmicrohttpd server: the
/// ``TestHandlers`` behind a socket.
final class TestServer: @unchecked Sendable {
    let server: HTTPServer
    let port: UInt16
    private let app: TestHandlers

    static let publicDirectory = TestHandlers.publicDirectory

    var store: FeedStore { app.store }
    var handlers: WebHandlers { app.handlers }

    init(
        document: JSONValue?, profile: ItemProfile = .nytNewswire, publicDirectory: String = TestServer.publicDirectory,
        frameAncestors: String = "'self'", maxStreams: Int = 100, writesThroughIOUring: Bool = true,
        headTimeout: Duration = .seconds(10), connectionLimit: Int? = nil, connectionTimeout: UInt32 = 60,
        frontDoorHoldLimit: Duration = FrontDoor.defaultHoldLimit, detection: ItemProfile.Overrides? = nil,
        allowedOrigins: AllowedOrigins = .none, inspect: Bool = true, links: PageLinks = .paths
    ) throws {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        var configuration = HTTPServer.Configuration(
            address: try ListenAddress(parsing: "127.0.0.1:0"), maxStreams: maxStreams)
        configuration.writesThroughIOUring = writesThroughIOUring
        configuration.headTimeout = headTimeout
        configuration.connectionTimeout = connectionTimeout
        configuration.frontDoorHoldLimit = frontDoorHoldLimit
        configuration.connectionLimit = connectionLimit
        app = TestHandlers(
            document: document, profile: profile, publicDirectory: publicDirectory, frameAncestors: frameAncestors,
            detection: detection, allowedOrigins: allowedOrigins, server: configuration, inspect: inspect,
            links: links)
        server = HTTPServer(
            configuration: configuration, responder: app.router, shards: app.handlers.shards, logger: logger)
        port = try server.start()
    }

    /// Changes the upstream status the pages show.
    func setStatus(_ change: (inout UpstreamStatus) -> Void) {
        app.setStatus(change)
    }

    deinit {
        server.stop(timeout: .milliseconds(500))
    }
}

extension HTTPServer {
    /// A server on a free loopback port for one stream at most, answering with `responder`
    /// alone (no feedweb routes), its shards on an empty store; not started yet.
    static func answering(with responder: some HTTPResponder) throws -> HTTPServer {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let configuration = HTTPServer.Configuration(
            address: try ListenAddress(parsing: "127.0.0.1:0"), maxStreams: 1)
        return HTTPServer(
            configuration: configuration, responder: responder,
            shards: Shard.shards(of: FeedStore(configuration: .init(profile: .nytNewswire)), for: configuration),
            logger: logger)
    }
}
