import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// The JSON API: `/api/state` (the mirror, with an ETag from its sequence; `?at=` the
/// document as of a change or a moment), `/api/changes?since=`, `/api/items`,
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

    /// The most changes one `/api/changes` answer carries.
    static let maxChangesPerAnswer = 1000
    /// The most bytes of patches and documents one `/api/changes` answer carries (past its
    /// first change, which is always there).
    static let maxChangeBytesPerAnswer = 1 << 20

    /// `/api/state`: the mirror with `ETag: "EPOCH-SEQ"`; 304 without a body for a matching
    /// `If-None-Match`; 503 before the first document. `?at=`: the document as of a change
    /// or a moment (``past(_:)``).
    func state(_ request: HTTPRequest) -> PreparedResponse {
        if let moment = request.pastMoment {
            guard let moment else { return badMoment }
            return past(moment)
        }
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

    /// `/api/state?at=ID|TIME`: exactly the document a client that read `/events` from the
    /// start held after change `ID` (or after the last change committed at or before
    /// `TIME`), with `X-Feedweb-Event-Id` and `X-Feedweb-Event-Time` naming that change;
    /// immutable, so cacheable for good. Outside what is kept: 410 with the earliest change
    /// kept (`{"error", "earliest": {"id", "time"}}`), never a wrong document.
    private func past(_ moment: PastMoment) -> PreparedResponse {
        let lookup: FeedPast.Lookup
        switch moment {
        case .change(let id): lookup = store.past(at: id)
        case .time(let time): lookup = store.past(atOrBefore: time)
        }
        switch lookup {
        case .found(let entry):
            // The past does not change: cacheable for good, in place of `no-cache`.
            let headers =
                jsonHeaders.filter { $0.0 != "Cache-Control" } + [
                    ("X-Feedweb-Event-Id", entry.id.description),
                    ("X-Feedweb-Event-Time", Self.timeText(entry.time)),
                    ("ETag", "\"\(entry.id)\""),
                    ("Cache-Control", "public, max-age=31536000, immutable"),
                ]
            return PreparedResponse(
                status: 200, body: entry.snapshot.encodedDocumentKeepingNothing(), headers: headers) ?? notFound
        case .outside(let earliest):
            var body: JSONObject = ["error": .string("not kept: outside the changes this feedweb keeps")]
            if let earliest {
                body["earliest"] = .object([
                    "id": .string(earliest.id.description), "time": .string(Self.timeText(earliest.time)),
                ])
            }
            return PreparedResponse(status: 410, body: JSONValue.object(body).serializedBytes(), headers: jsonHeaders)
                ?? notFound
        }
    }

    /// `/api/changes?since=ID`: the changes after `ID` as one JSON answer, for a scraper on
    /// a timer or behind a buffering proxy:
    /// `{"since", "changes": [{"id", "time", "patch": […]} or {"id", "time", "document": …}],
    /// "next", "more"}`, at most ``maxChangesPerAnswer`` changes and
    /// ``maxChangeBytesPerAnswer`` bytes (`more`: ask again with `since=next`). Patches and
    /// documents are the bytes `/events` sends. When `ID` is not kept (too old, another
    /// process's epoch): `{"since", "document": …, "id", "time", "next", "more": false}`,
    /// the current state to start over from. 400 without a valid `since`.
    func changes(_ request: HTTPRequest) -> PreparedResponse {
        guard let text = request.query("since"), let since = EventID(parsing: text) else { return badSince }
        switch store.changes(after: since, maxCount: Self.maxChangesPerAnswer, maxBytes: Self.maxChangeBytesPerAnswer) {
        case .entries(let entries, let more):
            var body = Array(#"{"since":"#.utf8) + JSONValue.string(since.description).serializedBytes()
            body += Array(#","changes":["#.utf8)
            for (index, entry) in entries.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += Self.changeObject(entry)
            }
            let next = entries.last?.id ?? since
            body += Array("],\"next\":".utf8) + JSONValue.string(next.description).serializedBytes()
            body += Array(",\"more\":\(more)}".utf8)
            return PreparedResponse(status: 200, body: body, headers: jsonHeaders) ?? notFound
        case .startOver:
            guard let snapshot = store.snapshot else {
                return PreparedResponse(
                    status: 503, body: Array("{\"error\":\"no document yet\"}".utf8), headers: jsonHeaders)
                    ?? notFound
            }
            let time: WallTime
            if case .found(let entry) = store.past(at: snapshot.id) { time = entry.time } else { time = .now() }
            var body = Array(#"{"since":"#.utf8) + JSONValue.string(since.description).serializedBytes()
            body += Array(#","document":"#.utf8) + snapshot.encodedDocument
            body += Array(#","id":"#.utf8) + JSONValue.string(snapshot.id.description).serializedBytes()
            body += Array(#","time":"#.utf8) + JSONValue.string(Self.timeText(time)).serializedBytes()
            body += Array(#","next":"#.utf8) + JSONValue.string(snapshot.id.description).serializedBytes()
            body += Array(#","more":false}"#.utf8)
            return PreparedResponse(status: 200, body: body, headers: jsonHeaders) ?? notFound
        }
    }

    /// One change of `/api/changes`: its id and time, and its patch or document, as sent.
    private static func changeObject(_ entry: FeedPast.Entry) -> [UInt8] {
        var object = Array(#"{"id":"#.utf8) + JSONValue.string(entry.id.description).serializedBytes()
        object += Array(#","time":"#.utf8) + JSONValue.string(timeText(entry.time)).serializedBytes()
        switch entry.change {
        case .patch(let encoded): object += Array(#","patch":"#.utf8) + encoded
        case .document: object += Array(#","document":"#.utf8) + entry.snapshot.encodedDocumentKeepingNothing()
        }
        object.append(UInt8(ascii: "}"))
        return object
    }

    /// A change's time as the API writes it: RFC 3339, UTC, to the microsecond (`?at=` of
    /// this text finds this change).
    static func timeText(_ time: WallTime) -> String { time.description }

    /// 400 for an `at` that is neither an id nor a time.
    private var badMoment: PreparedResponse {
        PreparedResponse(
            status: 400,
            body: Array(#"{"error":"at must be a change id (EPOCH-SEQ) or an RFC 3339 time"}"#.utf8),
            headers: jsonHeaders) ?? notFound
    }

    /// 400 for a missing or malformed `since`.
    private var badSince: PreparedResponse {
        PreparedResponse(
            status: 400, body: Array(#"{"error":"since must be a change id (EPOCH-SEQ)"}"#.utf8), headers: jsonHeaders)
            ?? notFound
    }

    /// `/api/items`: the published items, normalised, in feed order.
    func items() -> PreparedResponse {
        let view = store.snapshot?.published
        return cached("items", id: view?.id) {
            let withOwn = view?.profile.layout == .table
            return JSONValue.array((view?.items ?? []).map { $0.json(withOwn: withOwn) }).serializedBytes()
        }
    }

    /// `/api/items/{key}`: one published item, or the JSON 404.
    func item(key: String) -> PreparedResponse {
        guard let view = store.snapshot?.published, let item = view.item(forKey: key) else { return notFound }
        let json = item.json(withOwn: view.profile.layout == .table)
        return PreparedResponse(status: 200, body: json.serializedBytes(), headers: jsonHeaders) ?? notFound
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
