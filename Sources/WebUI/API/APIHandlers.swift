import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// The JSON API: `/api/state` (the mirror, with an ETag from its sequence), `/api/items`,
/// `/api/items/{key}` and `/api/stats`.
///
/// `/api/state` and `/api/items` are encoded once per change (its id: epoch and sequence)
/// and shared by every request until the store moves on.
final class APIHandlers: Sendable {
    private struct CachedResponse {
        /// The id of the mirror (for `/api/state`) or the published view (for `/api/items`)
        /// the response shows (`nil`: none yet).
        let id: EventID?
        let response: PreparedResponse
    }

    private let store: FeedStore
    /// The `/stats` figures, for `/api/stats`.
    private let stats: StatsRecorder
    private let jsonHeaders: [(String, String)]
    /// The JSON 404, for an unknown item (or a response that failed to allocate).
    private let notFound: PreparedResponse
    /// Guards the responses by cache key (`state`, `state-304`, `state-empty`, `items`),
    /// each valid for one id.
    ///
    /// A leaf: no other lock is taken while it is held. Bodies are encoded and responses
    /// built between a miss and the store, outside it (two requests may both build one; the
    /// later store wins, and both are the same bytes).
    private let cache = NIOLockedValueBox<[String: CachedResponse]>([:])

    init(store: FeedStore, stats: StatsRecorder, jsonHeaders: [(String, String)], notFound: PreparedResponse) {
        self.store = store
        self.stats = stats
        self.jsonHeaders = jsonHeaders
        self.notFound = notFound
    }

    /// `/api/state`: the mirror with `ETag: "EPOCH-SEQ"`; 304 without a body for a matching
    /// `If-None-Match`; 503 before the first document.
    func state(_ request: HTTPRequest) -> PreparedResponse {
        guard let snapshot = store.snapshot else {
            return cached("state-empty", id: nil, status: 503) { Array("{\"error\":\"no document yet\"}".utf8) }
        }
        let etag = "\"\(snapshot.id)\""
        let matches = request.header("If-None-Match")?.split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces) == etag
        }
        if matches == true {
            return cached("state-304", id: snapshot.id, status: 304, extra: [("ETag", etag)]) { [] }
        }
        return cached("state", id: snapshot.id, extra: [("ETag", etag)]) { snapshot.encodedDocument }
    }

    /// `/api/items`: the published items, normalised, in feed order.
    func items() -> PreparedResponse {
        let view = store.snapshot?.published
        return cached("items", id: view?.id) {
            JSONValue.array((view?.items ?? []).map(\.json)).serializedBytes()
        }
    }

    /// `/api/items/{key}`: one published item, or the JSON 404.
    func item(key: String) -> PreparedResponse {
        guard let view = store.snapshot?.published, let item = view.item(forKey: key) else { return notFound }
        return PreparedResponse(status: 200, body: item.json.serializedBytes(), headers: jsonHeaders) ?? notFound
    }

    /// `/api/stats`: the figures of `/stats` as JSON: the windows as the page draws them
    /// (made once per window), the totals and the ticker as they are now.
    func statistics() -> PreparedResponse {
        let now = Date()
        let body = StatsJSON.encode(
            window: stats.window(now: now), totals: stats.totals(now: now), ticker: stats.ticker,
            startedAt: stats.startedAt)
        return PreparedResponse(status: 200, body: body.serializedBytes(), headers: jsonHeaders) ?? notFound
    }

    /// The response cached under `key` for `id`, else one built from `body` and cached.
    private func cached(
        _ key: String, id: EventID?, status: UInt32 = 200, extra: [(String, String)] = [], body: () -> [UInt8]
    ) -> PreparedResponse {
        if let hit = cache.withLockedValue({ $0[key] }), hit.id == id { return hit.response }
        guard let response = PreparedResponse(status: status, body: body(), headers: jsonHeaders + extra) else {
            return notFound
        }
        cache.withLockedValue { $0[key] = CachedResponse(id: id, response: response) }
        return response
    }
}
