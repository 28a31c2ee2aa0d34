import FeedCore

/// Everything `feedweb` needs to run, as the command line resolved it.
public struct FeedwebConfiguration: Sendable {
    /// Where the feed comes from.
    public enum Source: Sendable {
        /// The built-in newswire, served at `/demo/upstream` and subscribed to over loopback.
        case demo
        /// An upstream SSE feed in the document protocol.
        case sse(url: String)
    }

    public var listen: ListenAddress
    public var source: Source
    public var profile: ItemProfile
    /// Changes kept for resuming clients (`--history`).
    public var history: Int = 1000
    /// Concurrent SSE streams (`--max-clients`).
    public var maxClients: Int = 10_000
    /// Unsent bytes per stream client before it is dropped.
    public var maxQueuedBytesPerClient: Int = 4 * 1024 * 1024
    /// Who may frame the pages (`--frame-ancestors`).
    public var frameAncestors: String = "'self'"
    /// The directory served under `/static/`.
    public var publicDirectory: String
    /// Request headers for upstream (`--header`).
    public var headers: [(name: String, value: String)] = []
    public var maxEventBytes: Int = 16 * 1024 * 1024
    public var maxBackoff: Duration = .seconds(30)
    public var readTimeout: Duration = .seconds(45)
    public var caFile: String?
    /// Seconds between demo newswire steps.
    public var demoInterval: Duration = .seconds(4)
    /// Seconds between heartbeat comments on every stream.
    public var heartbeatInterval: Duration = .seconds(15)

    public init(listen: ListenAddress, source: Source, profile: ItemProfile, publicDirectory: String) {
        self.listen = listen
        self.source = source
        self.profile = profile
        self.publicDirectory = publicDirectory
    }
}
