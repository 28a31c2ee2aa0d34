import FeedCore

/// Everything `feedweb` needs to run. Each setting's default is its initial value here,
/// or, where a module's own configuration sets it (the store's, the upstream's, the
/// server's), read from there: `FeedwebConfiguration()` is feedweb without options, and
/// the command line's options (`FeedwebOptions` in the executable) take their defaults,
/// and what `--help` says of them, from these values.
public struct FeedwebConfiguration: Sendable {
    /// Where the feed comes from.
    public enum Source: Sendable {
        /// The built-in newswire, served at `/demo/upstream` and subscribed to over loopback.
        case demo
        /// An upstream SSE feed in the document protocol (`--upstream URL`).
        case sse(url: String)
        /// An upstream SSE feed in the append protocol, each event one item; the newest
        /// `keep` are the document `{"items":[…]}` (`--upstream URL --mode append --keep N`).
        case append(url: String, keep: Int)
        /// An upstream SSE feed in Firebase's streaming dialect (`--upstream URL --mode firebase`).
        case firebase(url: String)
        /// A JSON REST API polled every `interval` with conditional requests
        /// (`--poll URL --interval SECONDS`).
        case poll(url: String, interval: Duration)
        /// A WebSocket (`--upstream ws(s)://…`), each text message one item
        /// (`--mode append`) or a whole document (`--mode document`).
        case webSocket(url: String, mode: WebSocketProtocol.Mode)

        /// How the source is named in the status, the logs and the state file: the mode and
        /// the URL without credentials or secret-looking query values.
        public var label: String {
            switch self {
            case .demo: return "demo newswire"
            case .sse(let url): return URLRedaction.redacted(url)
            case .append(let url, _): return "append " + URLRedaction.redacted(url)
            case .firebase(let url): return "firebase " + URLRedaction.redacted(url)
            case .poll(let url, _): return "poll " + URLRedaction.redacted(url)
            case .webSocket(let url, .document): return URLRedaction.redacted(url)
            case .webSocket(let url, .append): return "append " + URLRedaction.redacted(url)
            }
        }

        /// The URL and the kind of upstream connection it reads (the demo's URL is known
        /// only once the server listens: `demoURL`).
        func connection(demoURL: String) -> (url: String, kind: UpstreamKind) {
            switch self {
            case .demo: return (demoURL, .document)
            case .sse(let url): return (url, .document)
            case .append(let url, let keep): return (url, .append(keep: keep))
            case .firebase(let url): return (url, .firebase)
            case .poll(let url, let interval): return (url, .poll(interval: interval))
            case .webSocket(let url, let mode): return (url, .webSocket(WebSocketProtocol(mode: mode)))
            }
        }
    }

    /// Where to serve (`--listen`).
    public var listen = FeedwebConfiguration.loopback
    /// Where the feed comes from (`--upstream`, `--poll`, `--mode`).
    public var source = Source.demo
    /// How items are read from the document (`--profile` and the options over it), unless
    /// ``profileDetection`` is set.
    public var profile = ItemProfile.nytNewswire
    /// When set (no `--profile` with an upstream), the profile is found in the first
    /// document with items, with these options over it (``ItemShapeDetector``).
    public var profileDetection: ItemProfile.Overrides?
    /// The board's name (`--title`): in the masthead, the page titles and the kiosk.
    public var title = "feedweb"
    /// Boards named once, attention and the dim schedule (`--playlist`, `--attention`,
    /// `--dim`).
    public var screens = ScreenSettings()
    /// A folder of `NAME.mustache` files that replace the built-in templates `NAME`
    /// (`--templates`; read again on SIGHUP); `nil`: the built-ins alone.
    public var templates: String?
    /// Changes kept for resuming clients (`--history`).
    public var history = FeedStore.Configuration.defaultHistoryCount
    /// Concurrent SSE streams (`--max-clients`).
    public var maxClients = 10_000
    /// Shards of the server (`--threads`): each has a front door, a libmicrohttpd daemon and
    /// a stream sender with its share of the programs' streams. Default: the cores this
    /// process may run on (its CPU affinity).
    public var threads = HTTPServer.Configuration.availableCores()
    /// Whether `/inspect` is served (`--inspect on|off`; 404 when off).
    public var inspect = true
    /// How long a client connection may take to deliver a complete request, from its
    /// connect or (keep-alive) the end of its previous response (`--head-timeout`).
    public var headTimeout = FeedwebConfiguration.server.headTimeout
    /// Unsent bytes per stream client: past it, an `/events` or `/events/items` client gets
    /// the newest state in place of its backlog (a fresh `data` or `snapshot`); a page
    /// stream client is dropped. A client that takes nothing for 5 s is dropped either way.
    public var maxQueuedBytesPerClient = 4 * 1024 * 1024
    /// Who may frame the pages (`--frame-ancestors`): the `frame-ancestors` directive's value.
    public var frameAncestors = "'self'"
    /// The origins whose pages may read the streams and the API (`--allow-origin`, CORS);
    /// none: no CORS header at all.
    public var allowedOrigins = AllowedOrigins.none
    /// The directory served under `/static/` (`--public-dir`): the first `Public/` next to
    /// the executable or above it.
    public var publicDirectory = PublicDirectory.locate()
    /// Request headers for upstream (`--header`).
    public var headers: [(name: String, value: String)] = []
    /// The largest upstream event, WebSocket message or polled document (`--max-event-bytes`).
    public var maxEventBytes = UpstreamConfiguration.defaultMaxEventBytes
    /// The longest wait between upstream retries (`--max-backoff`).
    public var maxBackoff = UpstreamConfiguration.defaultMaxBackoff
    /// Upstream silence after which the connection counts as dead (`--read-timeout`).
    public var readTimeout = UpstreamConfiguration.defaultReadTimeout
    /// A PEM file of CA certificates trusted besides the system's (`--ca-file`).
    public var caFile: String?
    /// Time between demo newswire steps (`--demo-interval`).
    public var demoInterval: Duration = .seconds(4)
    /// Where the mirror is saved and restored from (`--state-file`), if anywhere.
    public var stateFile: String?
    /// Time between heartbeat comments on every stream.
    public var heartbeatInterval: Duration = .seconds(15)
    /// The cluster's PostgreSQL (`--cluster`): this feedweb is one node of a cluster that
    /// shares its log there; `nil`: it runs alone.
    public var cluster: PostgresClusterSettings?
    /// The node's name in the cluster (`--cluster-node`; `nil`: this machine's host name and
    /// the port).
    public var clusterNode: String?

    /// feedweb without options: every setting its default.
    public init() {}

    /// `127.0.0.1:8080`.
    private static let loopback = try! ListenAddress(parsing: "127.0.0.1:8080")
    /// The server's own defaults (its tunables are set in ``HTTPServer/Configuration``).
    private static let server = HTTPServer.Configuration(address: loopback, maxStreams: 1)
}
