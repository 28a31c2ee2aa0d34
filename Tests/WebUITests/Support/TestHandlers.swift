import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers

@testable import WebUI

/// feedweb's request handlers and router over a store the test fills directly, with an
/// upstream status the test sets: no server and no socket. Requests are plain
/// ``HTTPRequest`` values; answers are the router's ``HTTPResponse``.
final class TestHandlers: Sendable {
    let store: FeedStore
    let handlers: WebHandlers
    let router: Router
    private let status: NIOLockedValueBox<UpstreamStatus>

    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Public").path

    /// `document` (if any) is the store's first; the upstream status starts open, connected
    /// now, under the source name `test`. With `detection`, `profile` is not used: the
    /// store reads items as it finds them in the first document with items. With `server`,
    /// the programs' streams are sharded as a server of that configuration shards them,
    /// senders included (``TestServer``); without, one shard, with no sender. `inspect` is
    /// `--inspect`, `links` `--public-origin`.
    init(
        document: JSONValue?, profile: ItemProfile = .nytNewswire,
        publicDirectory: String = TestHandlers.publicDirectory,
        frameAncestors: String = "'self'", maxQueuedBytesPerClient: Int = 1 << 20,
        detection: ItemProfile.Overrides? = nil, allowedOrigins: AllowedOrigins = .none,
        server: HTTPServer.Configuration? = nil, inspect: Bool = true, links: PageLinks = .paths
    ) {
        store = FeedStore(configuration: .init(profile: profile, detection: detection))
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
        handlers = WebHandlers(
            store: store, demo: nil, staticFiles: staticFiles, frameAncestors: frameAncestors, sourceLabel: "test",
            maxQueuedBytesPerClient: maxQueuedBytesPerClient, restoredAt: nil,
            shards: Shard.shards(of: store, for: server), inspect: inspect, allowedOrigins: allowedOrigins,
            links: links, upstreamStatus: { status.withLockedValue { $0 } })
        router = handlers.router
    }

    /// Changes the upstream status the handlers see.
    func setStatus(_ change: (inout UpstreamStatus) -> Void) {
        status.withLockedValue { change(&$0) }
    }

    /// The router's answer to `request`, which must be a prepared response.
    func respond(_ request: HTTPRequest) throws -> PreparedResponse {
        guard case .prepared(let response) = router.respond(to: request) else {
            throw UnexpectedAnswer(path: request.path, expected: "a prepared response")
        }
        return response
    }

    /// The shard the handlers' streams are opened on, as a server would hand it.
    var shard: Shard { handlers.shards[0] }

    /// The SSE events a new client of `start` is sent first.
    func firstEvents(of start: StreamStart) throws -> [SSEEvent] {
        let stream = StreamConnection(maxQueuedBytes: start.maxQueuedBytes)
        let end = start.open(stream, on: shard)
        defer { end() }
        var parser = SSEParser()
        return try parser.parse(stream.takeQueued())
    }

    /// The router's decision to start a stream for `request`.
    func streamStart(_ request: HTTPRequest) throws -> StreamStart {
        guard case .stream(let start) = router.respond(to: request) else {
            throw UnexpectedAnswer(path: request.path, expected: "a stream")
        }
        return start
    }

    struct UnexpectedAnswer: Error, CustomStringConvertible {
        let path: String
        let expected: String
        var description: String { "\(path) was not answered with \(expected)" }
    }
}

extension StreamConnection {
    /// Takes every byte queued so far, as libmicrohttpd's content reader would (the stream
    /// has no connection, so an empty queue ends the read instead of suspending).
    func takeQueued() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
                guard let base = pointer.baseAddress else { return 0 }
                return read(into: base, capacity: pointer.count)
            }
            guard count > 0 else { return bytes }
            bytes += buffer.prefix(count).map { UInt8(bitPattern: $0) }
        }
    }
}
