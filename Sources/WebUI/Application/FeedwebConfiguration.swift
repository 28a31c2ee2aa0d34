import FeedCore

/// Everything `feedweb` needs to run, nested as it is used: the HTTP server's
/// (``server``), the streams' (``streams``) and the sources' (``sources``) settings, and the
/// pages' and the store's here. Each default is set once, as an initial value in the type
/// that holds the setting, or, where a module's own configuration sets it (the store's, the
/// upstream's, the server's), read from there: `FeedwebConfiguration()` is feedweb without
/// options, and the command line's options (`FeedwebOptions` in the executable) point into
/// these values and take their defaults, and what `--help` says of them, from them.
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
        case webSocket(url: String, mode: MessageProtocol.Mode)
        /// An MQTT broker (`--upstream mqtt(s)://HOST/TOPIC-FILTER`), each topic's latest
        /// message one item (`--mode append`) or each message a whole document.
        case mqtt(url: String, mode: MessageProtocol.Mode)

        /// Whether each of the source's events is one item (append mode, SSE or WebSocket).
        var itemsAreEvents: Bool {
            switch self {
            case .append, .webSocket(_, .append), .mqtt(_, .append): true
            case .demo, .sse, .firebase, .poll, .webSocket(_, .document), .mqtt(_, .document): false
            }
        }

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
            case .mqtt(let url, .document): return URLRedaction.redacted(url)
            case .mqtt(let url, .append): return "append " + URLRedaction.redacted(url)
            }
        }

        /// The URL and the kind of upstream connection it reads (the demo's URL is known
        /// only once the server listens: `demoURL`); in append mode, only the events named
        /// `chosenEvents` are items when any are (`--event`). A WebSocket's framing is known
        /// by its URL and by the messages it is sent once open (`sends`, `--send`).
        func connection(demoURL: String, chosenEvents: Set<String> = [], sends: [String] = []) -> (
            url: String, kind: UpstreamKind
        ) {
            switch self {
            case .demo: return (demoURL, .document)
            case .sse(let url): return (url, .document)
            case .append(let url, let keep): return (url, .append(keep: keep, chosenEvents: chosenEvents))
            case .firebase(let url): return (url, .firebase)
            case .poll(let url, let interval): return (url, .poll(interval: interval))
            case .webSocket(let url, let mode):
                return (
                    url,
                    .webSocket(
                        MessageProtocol(mode: mode, framing: .of(url: url, sends: sends), chosenEvents: chosenEvents))
                )
            case .mqtt(let url, let mode):
                return (url, .mqtt(mode: mode))
            }
        }
    }

    /// The HTTP server: where it listens (`--listen`), the most concurrent streams
    /// (`--max-clients`), its shards (`--threads`), how long a request may take
    /// (`--head-timeout`) and its other tunables, each default set in
    /// ``HTTPServer/Configuration``; the address and the stream bound, which that type
    /// leaves to its user, are set here.
    public var server = HTTPServer.Configuration(
        address: try! ListenAddress(parsing: "127.0.0.1:8080"), maxStreams: 10_000)
    /// The streams' bounds and timers.
    public var streams = Streams()
    /// Where the feed comes from and how upstream is reached and read.
    public var sources = Sources()
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
    /// Whether `/inspect` is served (`--inspect on|off`; 404 when off).
    public var inspect = true
    /// Who may frame the pages (`--frame-ancestors`): the `frame-ancestors` directive's value.
    public var frameAncestors = "'self'"
    /// The origins whose pages may read the streams and the API (`--allow-origin`, CORS);
    /// none: no CORS header at all.
    public var allowedOrigins = AllowedOrigins.none
    /// The origin people reach feedweb at (`--public-origin`): the pages' and fragments'
    /// links to feedweb are absolute on it, so that a page of another origin showing the
    /// fragments links back here; by default they are paths.
    public var links = PageLinks.paths
    /// The URLs told when an item comes to match a mark (`--webhook`), with the headers sent
    /// to each (`--webhook-header`).
    public var webhooks: [String] = []
    public var webhookHeaders: [(name: String, value: String)] = []
    /// The directory served under `/static/` (`--public-dir`): the first `Public/` next to
    /// the executable or above it.
    public var publicDirectory = PublicDirectory.locate()
    /// Where the mirror is saved and restored from (`--state-file`), if anywhere.
    public var stateFile: String?
    /// The cluster's PostgreSQL (`--cluster`): this feedweb is one node of a cluster that
    /// shares its log there; `nil`: it runs alone.
    public var cluster: PostgresClusterSettings?
    /// The node's name in the cluster (`--cluster-node`; `nil`: this machine's host name and
    /// the port).
    public var clusterNode: String?

    /// feedweb without options: every setting its default.
    public init() {}
}

extension FeedwebConfiguration {
    /// What every stream client (`/events`, `/events/items`, `/events/page`) is held to,
    /// and the timers that run over all of them.
    public struct Streams: Sendable {
        /// The default ``stallTimeout``.
        public static let defaultStallTimeout: Duration = .seconds(5)

        /// Unsent bytes per stream client: past it, an `/events` or `/events/items` client
        /// gets the newest state in place of its backlog (a fresh `data` or `snapshot`); a
        /// page stream client is dropped.
        public var maxQueuedBytesPerClient = 4 * 1024 * 1024
        /// How long a client may take nothing while events wait for it before it is
        /// dropped, whatever its queue holds; checked once a second, so a client is dropped
        /// up to a second later.
        public var stallTimeout = Streams.defaultStallTimeout
        /// Time between heartbeat comments on every stream.
        public var heartbeatInterval: Duration = .seconds(15)

        public init() {}
    }

    /// Where the feed comes from, and how upstream is reached and read. The upstream's
    /// defaults are set in ``UpstreamConfiguration``.
    public struct Sources: Sendable {
        /// Where the feed comes from (`--upstream`, `--poll`, `--mode`, `--interval`, `--keep`).
        public var source = Source.demo
        /// Request headers for upstream (`--header`).
        public var headers: [(name: String, value: String)] = []
        /// Text messages sent on a WebSocket upstream once it opens (`--send`), in order.
        public var sendOnOpen: [String] = []
        /// Append mode: the events whose data is an item (`--event`: an SSE event's name, a
        /// Socket.IO event's); empty: feedweb's own rule (``AppendProtocol``).
        public var chosenEvents: [String] = []
        /// A polled source's request body, POSTed on each poll (`--poll-body`).
        public var pollBody: String?
        /// Append mode: where an item says which item it is, so that a new version of a kept
        /// item takes its place (``UpstreamConfiguration/itemsPutInPlaceAt``); set by a
        /// given `--key-path`.
        public var itemsPutInPlaceAt: JSONPointer?
        /// The largest upstream event, WebSocket message or polled document, in bytes
        /// (`--max-event-bytes`).
        public var maxEventBytes = UpstreamConfiguration.defaultMaxEventBytes
        /// The longest wait between upstream retries (`--max-backoff`).
        public var maxBackoff = UpstreamConfiguration.defaultMaxBackoff
        /// Upstream silence after which the connection counts as dead (`--read-timeout`).
        public var readTimeout = UpstreamConfiguration.defaultReadTimeout
        /// A PEM file of CA certificates trusted besides the system's (`--ca-file`).
        public var caFile: String?
        /// Time between demo newswire steps (`--demo-interval`).
        public var demoInterval: Duration = .seconds(4)

        public init() {}

        /// The time between the polls `/stats` compares the stream with: a polled source's
        /// interval, else ``UpstreamConfiguration/defaultPollInterval``.
        public var comparedPollInterval: Duration {
            if case .poll(_, let interval) = source { return interval }
            return UpstreamConfiguration.defaultPollInterval
        }

        /// What `/stats` compares with polling: the screens' bytes when feedweb polls the
        /// source itself (its own download is the polling), else the upstream's.
        public var statsComparison: StatsComparison {
            if case .poll = source { return .screens }
            return .upstream
        }

        /// The upstream connection's configuration for `url` (the source's, or the demo's).
        func upstream(url: String) -> UpstreamConfiguration {
            var configuration = UpstreamConfiguration(
                url: url, headers: headers, maxEventBytes: maxEventBytes, maxBackoff: maxBackoff,
                readTimeout: readTimeout, caFile: caFile)
            configuration.sendOnOpen = sendOnOpen
            configuration.pollBody = pollBody
            configuration.itemsPutInPlaceAt = itemsPutInPlaceAt
            return configuration
        }
    }
}
