/// How to reach and read the upstream SSE feed.
public struct UpstreamConfiguration: Sendable {
    /// The absolute http(s) URL of the event stream.
    public var url: String
    /// Extra request headers (`--header "Name: value"`), in order.
    public var headers: [(name: String, value: String)]
    /// The bound on one event's size (`--max-event-bytes`).
    public var maxEventBytes: Int
    /// The cap on reconnect delays (`--max-backoff`).
    public var maxBackoff: Duration
    /// Silence longer than this means a dead connection (`--read-timeout`).
    public var readTimeout: Duration
    /// A PEM file of extra trusted CA certificates (`--ca-file`).
    public var caFile: String?

    public init(
        url: String, headers: [(name: String, value: String)] = [], maxEventBytes: Int = 16 * 1024 * 1024,
        maxBackoff: Duration = .seconds(30), readTimeout: Duration = .seconds(45), caFile: String? = nil
    ) {
        self.url = url
        self.headers = headers
        self.maxEventBytes = maxEventBytes
        self.maxBackoff = maxBackoff
        self.readTimeout = readTimeout
        self.caFile = caFile
    }
}
