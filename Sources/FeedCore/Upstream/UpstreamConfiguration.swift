/// How to reach and read an upstream source: what every kind (SSE, poll, WebSocket) takes.
/// Each default is set here once; the command line overrides them.
public struct UpstreamConfiguration: Sendable {
    /// The absolute URL: http(s) for SSE and polling, ws(s) for a WebSocket.
    public var url: String
    /// Extra request headers (`--header "Name: value"`), in order; for a WebSocket, sent in
    /// the handshake.
    public var headers: [(name: String, value: String)]
    /// Text messages sent on a WebSocket once it opens, in order, on every connection
    /// (`--send`): a subscription, as most market feeds ask for one. Never logged or shown:
    /// one may hold a key.
    public var sendOnOpen: [String] = []
    /// A polled source's request body (`--poll-body`): each poll POSTs it (a GraphQL
    /// query), `Content-Type: application/json` unless a header says otherwise. `nil`: a
    /// GET. Never logged or shown: one may hold a key.
    public var pollBody: String?
    /// The bound on one event, WebSocket message or polled document, in bytes
    /// (`--max-event-bytes`).
    public var maxEventBytes: Int
    /// The cap on reconnect delays (`--max-backoff`).
    public var maxBackoff: Duration
    /// Silence longer than this means a dead connection (`--read-timeout`); when polling,
    /// the bound on one whole request; on a WebSocket, a ping goes out every half of it and
    /// must be answered before the next.
    public var readTimeout: Duration
    /// A PEM file of extra trusted CA certificates (`--ca-file`), for https and wss.
    public var caFile: String?
    /// Relay mode: an SSE document stream whose ids are feedweb's own (`EPOCH-SEQ`, another
    /// feedweb's `/events`) is published with those ids and bytes, not new ones
    /// (``FeedStore/adopt(_:)``), so every relay under one root hands out the same ids.
    public var passesIDsThrough = false
    /// Append mode: where an item says which item it is (`--key-path`, given). An item whose
    /// value there a kept item has too is a new version of that item (a ticker's product, a
    /// build that moved on) and takes its place; any other goes first
    /// (``FeedStore/putItems(_:idAt:keep:position:arrival:)``). `nil`: every item goes first.
    public var itemsPutInPlaceAt: JSONPointer?

    /// The largest event, message or document: 16 MiB, the SSE parser's own bound.
    public static let defaultMaxEventBytes = SSEParser.defaultMaxEventBytes
    public static let defaultMaxBackoff: Duration = .seconds(30)
    public static let defaultReadTimeout: Duration = .seconds(45)
    /// The time between polls of a polled source (`--interval`), and the polling that
    /// `/stats` compares a streaming source with.
    public static let defaultPollInterval: Duration = .seconds(5)

    public init(
        url: String, headers: [(name: String, value: String)] = [], maxEventBytes: Int = defaultMaxEventBytes,
        maxBackoff: Duration = defaultMaxBackoff, readTimeout: Duration = defaultReadTimeout, caFile: String? = nil
    ) {
        self.url = url
        self.headers = headers
        self.maxEventBytes = maxEventBytes
        self.maxBackoff = maxBackoff
        self.readTimeout = readTimeout
        self.caFile = caFile
    }
}
