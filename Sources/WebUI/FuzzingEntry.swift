import FeedCore
import Foundation
import Logging

/// What `Fuzz/`'s targets drive in this module, reachable only through
/// `@_spi(Fuzzing) import WebUI`: not API, and nothing else in the package uses it.
@_spi(Fuzzing)
public enum FuzzingEntry {
    /// `component` percent-decoded by the function the server gives libmicrohttpd as its
    /// unescape callback (`feedweb_unescape`: `%00` becomes DEL), as a request's path and
    /// each query argument's name and value are decoded before the router sees them.
    public static func unescape(_ component: [UInt8]) -> [UInt8] {
        PercentDecoding.decoded(component)
    }

    /// The request the front door reads from `head` (the bytes a client sent) when it would
    /// open a stream of `streamPaths` itself (``DirectRequestHead``), or `nil` when it
    /// leaves the head to libmicrohttpd or answers it.
    public static func doorStreamRequest(_ head: [UInt8], streamPaths: [String]) -> HTTPRequest? {
        let read = head.withUnsafeBytes {
            DirectRequestHead.read(
                $0, paths: [], streamPaths: streamPaths.map { Array($0.utf8) }, maxHeadBytes: 3584)
        }
        guard case .stream(let request, _) = read else { return nil }
        return request
    }

    /// feedweb's router over a store holding `document`, with an upstream that is open:
    /// every handler the server would call, without a socket.
    public final class Routing: Sendable {
        private let store: FeedStore
        private let router: Router
        /// The one shard of the handlers' programs' streams (no sender: there is no server).
        private let shard: Shard

        /// - Parameter publicDirectory: the `Public/` folder the static files come from.
        public init(document: JSONValue, publicDirectory: String) {
            let defaults = FeedwebConfiguration()
            store = FeedStore(configuration: .init(profile: defaults.profile))
            _ = store.replaceDocument(document)
            var status = UpstreamStatus(source: "fuzz")
            status.phase = .open
            status.connectedSince = Date()
            status.lastEventAt = Date()
            let upstream = status
            var logger = Logger(label: "fuzz")
            logger.logLevel = .critical
            let security = ResponseHeaders.security(frameAncestors: defaults.frameAncestors)
            let staticFiles = StaticFiles(directory: publicDirectory, securityHeaders: security, logger: logger)
            let handlers = WebHandlers(
                store: store, demo: nil, staticFiles: staticFiles, frameAncestors: defaults.frameAncestors,
                sourceLabel: "fuzz", maxQueuedBytesPerClient: 1 << 20, restoredAt: nil, upstreamStatus: { upstream })
            router = handlers.router
            shard = handlers.shards[0]
        }

        /// The router's answer to `request`: its status and body size. A stream is opened
        /// on a connection without a socket, its first bytes taken, and closed again.
        public func respond(to request: HTTPRequest) -> (status: UInt32, bodyCount: Int) {
            switch router.respond(to: request) {
            case .prepared(let response), .preparedAdding(let response, _):
                return (response.status, response.bodyCount)
            case .stream(let start):
                let stream = StreamConnection(maxQueuedBytes: start.maxQueuedBytes)
                let end = start.open(stream, on: shard)
                defer { end() }
                var taken = 0
                var buffer = [CChar](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
                        guard let base = pointer.baseAddress else { return 0 }
                        return stream.read(into: base, capacity: pointer.count)
                    }
                    guard count > 0 else { return (200, taken) }
                    taken += count
                }
            }
        }
    }
}
