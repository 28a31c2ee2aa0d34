import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// A live upstream in the document protocol, for end-to-end stream tests: a
/// ``ScriptedSSEServer`` that answers every request with `event: data` carrying the
/// current document and keeps the stream open, plus the test's own copy of the document,
/// which every change is applied to first (so the test always knows the state feedweb
/// must reach, without asking feedweb).
///
/// Documents are built with ``NewswireFeed``, so feedweb's default profile reads them. Every change made with
/// ``change(_:bumpVersion:)`` raises `num_results` unless told otherwise, so the change
/// is published past the version guard.
public final class LiveFeedUpstream: Sendable {
    public let server: ScriptedSSEServer
    private let state: NIOLockedValueBox<(document: JSONValue, nextID: Int)>

    /// Starts the upstream with `document`.
    public init(document: JSONValue) async throws {
        let state = NIOLockedValueBox((document: document, nextID: 1))
        self.state = state
        server = try await ScriptedSSEServer.start { _ in
            let bytes = state.withLockedValue { state -> [UInt8] in
                SSEEncoder.event(type: "data", data: state.document.serializedString(), id: "u\(state.nextID)")
            }
            return .stream([.send(bytes)], ending: .stayOpen)
        }
    }

    /// The URL feedweb subscribes to.
    public var url: String { server.url("/feed") }

    /// The document as the test made it.
    public var document: JSONValue { state.withLockedValue { $0.document } }

    /// `num_results` of the current document.
    public var version: Int64 { document["num_results"]?.int64Value ?? 0 }

    /// Applies `operations` to the test's document (plus a `num_results` bump when
    /// `bumpVersion`) and pushes them to the open stream as one `patch` event. Returns the
    /// document after the change.
    @discardableResult
    public func change(_ operations: [JSONValue], bumpVersion: Bool = true) async throws -> JSONValue {
        var all = operations
        let (bytes, document) = try state.withLockedValue { state -> ([UInt8], JSONValue) in
            if bumpVersion {
                let next = (state.document["num_results"]?.int64Value ?? 0) + 1
                all.append(Patch.replace("/num_results", .int(next)))
            }
            let patch = try JSONPatch(json: .array(all))
            try patch.apply(to: &state.document)
            state.nextID += 1
            let bytes = SSEEncoder.event(
                type: "patch", data: JSONValue.array(all).serializedString(), id: "u\(state.nextID)")
            return (bytes, state.document)
        }
        try await server.push(bytes: bytes)
        return document
    }

    /// Replaces the whole document with `document` and pushes it as a fresh `event: data`
    /// on the open stream.
    public func sendSnapshot(_ document: JSONValue) async throws {
        let bytes = state.withLockedValue { state -> [UInt8] in
            state.document = document
            state.nextID += 1
            return SSEEncoder.event(type: "data", data: document.serializedString(), id: "u\(state.nextID)")
        }
        try await server.push(bytes: bytes)
    }

    /// Replaces the document without telling the open stream; then ends every open stream,
    /// so the subscriber reconnects and gets the new document as its first `data`.
    public func restartStreams(with document: JSONValue) {
        state.withLockedValue { $0.document = document }
        server.finish()
    }

    /// A varied script of changes, by number `n`: additions at the top and the end, an
    /// edit, a removal, a section move, a nested add, a change that does not raise the
    /// version.
    public func scriptedChange(_ n: Int) async throws {
        let count = document["results"]?.arrayValue?.count ?? 0
        switch n % 7 {
        case 0: try await change([Patch.add("/results/0", NewswireFeed.story(100 + n))])
        case 1: try await change([Patch.replace("/results/1/title", .string("Edited headline \(n)"))])
        case 2: try await change([Patch.remove("/results/\(count - 1)")])
        case 3: try await change([Patch.add("/results/-", NewswireFeed.story(100 + n))])
        case 4: try await change([Patch.replace("/results/0/section", .string("Arts"))])
        case 5: try await change([Patch.add("/results/0/related_urls", .array([.string("x\(n)")]))])
        default: try await change([Patch.replace("/status", .string("OK \(n)"))], bumpVersion: false)
        }
    }

    /// A live upstream with stories 5…1 and the real binary subscribed to it (with
    /// `arguments` added), ready and caught up.
    public static func withFeedweb(_ arguments: [String] = []) async throws -> (LiveFeedUpstream, FeedwebProcess) {
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url] + arguments)
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        return (upstream, feedweb)
    }

    /// Closes everything.
    public func shutdown() async {
        await server.shutdown()
    }
}

/// JSON Patch operations as `JSONValue`s, for scripts.
public enum Patch {
    public static func add(_ path: String, _ value: JSONValue) -> JSONValue {
        .object(["op": .string("add"), "path": .string(path), "value": value])
    }

    public static func replace(_ path: String, _ value: JSONValue) -> JSONValue {
        .object(["op": .string("replace"), "path": .string(path), "value": value])
    }

    public static func remove(_ path: String) -> JSONValue {
        .object(["op": .string("remove"), "path": .string(path)])
    }
}
