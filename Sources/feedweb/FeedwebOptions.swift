import FeedCore
import Logging
import WebUI

/// The options of `feedweb`, each written once (``FeedwebOption``): the one list that
/// the command line is parsed by (``CommandLineRequest``), `--help` is made from
/// (``FeedwebHelp``), the environment is read by and the options are resolved by
/// (``resolve(commandLine:environment:)``), and README's option table is checked against.
///
/// A default is not written here but read from the setting's initial value
/// (``FeedwebConfiguration``, ``FeedwebSettings``), the one place it is set; where the
/// default is not a value (found or computed at start) the entry says it in words.
///
/// Adding an option is one entry here, at the setting it sets (and that setting, with its
/// default, where the application reads it), such as
/// `.wholeNumber("max-clients", at: \.configuration.server.maxStreams, in: 1...1_000_000, help: "…")`
/// or `.choice("inspect", "on|off",
/// at: \.configuration.inspect, among: [("on", true), ("off", false)], help: "…") { "must be on
/// or off, not '\($0)'" }`, and its row in README's table. What an option means together with
/// others (the source, the profile) is put together in ``resolve(commandLine:environment:)``.
enum FeedwebOptions {
    /// Every option, in `--help` order.
    static let all: [FeedwebOption] = [
        .single(
            "listen", "HOST:PORT", at: \.configuration.server.address,
            help: "Address to serve on; IPv6 as [::1]:8080; port 0 picks a free one.",
            shownDefault: FeedwebSettings.initial.configuration.server.address.description,
            parse: OptionValue.listenAddress),
        .single(
            "upstream", "URL", at: \.upstream,
            help: """
                Upstream URL: an SSE feed or a stream of JSON (http or https), a WebSocket (ws or wss) or an MQTT \
                broker and topic filter (mqtt or mqtts: mqtt://user:password@host:1883/home/#).
                """,
            shownDefault: "the demo"
        ) { text throws(FeedwebOption.Problem) in
            try OptionValue.sourceURL(text, transport: nil)
        },
        .choice(
            "mode", SourceMode.allCases.map(\.rawValue).joined(separator: "|"), at: \.mode,
            among: SourceMode.allCases.map { ($0.rawValue, $0) },
            help: """
                How to read --upstream: document (Streamdata data/patch events, a feed's own name for its \
                whole documents, GraphQL's next, or each WebSocket message or JSON value a whole document), append (each event, message or JSON value one item, e.g. Wikimedia \
                EventStreams; a Kubernetes watch's objects kept in step) or firebase (Firebase REST streaming \
                put/patch events, e.g. the Hacker News API; SSE only).
                """
        ) { text in
            "must be document, append or firebase, not '\(text)'"
        },
        .single(
            "poll", "URL", at: \.poll, help: "JSON API URL to poll instead of an SSE feed (not with --upstream).",
            shownDefault: nil
        ) { text throws(FeedwebOption.Problem) in
            try OptionValue.sourceURL(text, transport: .http)
        },
        .seconds("interval", at: \.pollInterval, help: "Seconds between polls of --poll."),
        .single(
            "poll-body", "TEXT", at: \.configuration.sources.pollBody,
            help: """
                A request body that each poll of --poll POSTs instead of a GET, e.g. a GraphQL query: \
                '{"query":"{ builds { id status } }"}' (Content-Type: application/json unless a --header \
                gives one). Never logged.
                """,
            shownDefault: nil, parse: OptionValue.pollBody),
        .values(
            "header", "\"Name: value\"", at: \.configuration.sources.headers, repetition: .repeatable,
            help: """
                Extra upstream request header (for a WebSocket, in the handshake), e.g. \
                "Authorization: Bearer …" (repeatable).
                """,
            shownDefault: nil, parse: OptionValue.headers),
        .values(
            "send", "TEXT", at: \.configuration.sources.sendOnOpen, repetition: .repeatable,
            help: """
                A text message sent on a WebSocket --upstream once it opens, e.g. a subscription: \
                '{"type":"subscribe","channels":["ticker"]}' (repeatable; sent in order on every connection; \
                with a SignalR hub's handshake, '{"protocol":"json","version":1}', each ends with its record \
                separator).
                """,
            shownDefault: nil, parse: OptionValue.messages),
        .values(
            "event", "NAME", at: \.configuration.sources.chosenEvents, repetition: .repeatable,
            help: """
                In --mode append, the events that are items: an SSE event's name (event: trade), a \
                Socket.IO, Pusher, Phoenix or SignalR event's, an Action Cable channel, or a JSON message's \
                type, event, channel, e, ev, T or topic ({"type":"ticker",…}; tickers.BTCUSDT by its first \
                part too); the others are ignored (repeatable). Without it, message events \
                are items, or the first other kind whose data is a JSON object.
                """,
            shownDefault: nil, parse: OptionValue.eventNames),
        .single(
            "profile", "NAME", at: \.profile,
            help: """
                Item profile: \(ItemProfile.names.joined(separator: ", ")); without one, the shape of a built-in one \
                in the first document with items, else a table of the items' own fields.
                """,
            shownDefault: profileDefault, parse: OptionValue.profile),
        .single(
            "items-path", "POINTER", at: \.itemsPath,
            help: """
                JSON Pointer to the array of items ("" for a document that is the array); without a profile, \
                it may name an object whose members are the items, or one thing whose named values are \
                ("" for the document).
                """,
            shownDefault: "the profile's", parse: OptionValue.pointer),
        .single(
            "key-path", "POINTER", at: \.keyPath,
            help: """
                JSON Pointer, within an item, to its stable id (\"\" or none: a hash of the item). In append mode, an \
                item with a kept item's id takes its place (a ticker's product).
                """,
            shownDefault: "the profile's", parse: OptionValue.pointerOrNone),
        .single(
            "version-path", "POINTER", at: \.versionPath,
            help: """
                JSON Pointer to the document's version number; pages only advance when it grows (\"\" or none: on \
                every change).
                """,
            shownDefault: "the profile's", parse: OptionValue.pointerOrNone),
        .values(
            "field", "NAME=POINTER", at: \.fields, repetition: .repeatable,
            help: """
                Where an item keeps a field, e.g. title=/headline (repeatable; fields: \
                \(ItemProfile.Field.allCases.map(\.rawValue).joined(separator: ", ")); NAME= drops one).
                """,
            shownDefault: "the profile's", parse: OptionValue.fields),
        .values(
            "mark", "'LABEL:/pointer=value'", at: \.marks, repetition: .repeatable,
            help: """
                A notable event on /stats (and a screen's attention, and each --webhook) for each item that comes to match: its value \
                at the pointer = value, != value, or <, <=, >, >= a number, e.g. 'New user:/type=newuser', \
                'Above 100:/price>100' (repeatable).
                """,
            shownDefault: nil, parse: OptionValue.marks),
        .values(
            "playlist", "NAME='v=VIEW&…'", at: \.configuration.screens.playlists, repetition: .repeatable,
            help: """
                A board named once, which a screen asks for by name: /board?playlist=NAME shows /board?v=VIEW&… \
                (views, cols, rotate, attention, shift, dim; repeatable).
                """,
            shownDefault: nil, parse: OptionValue.playlists),
        .wholeNumber(
            "attention", "SECONDS", at: \.configuration.screens.attention, in: 0...ScreenSettings.maxAttention,
            help: """
                Seconds a board or kiosk shows an item matching a --mark full screen, with the mark's label (0: \
                never; a screen's ?attention= wins).
                """),
        .single(
            "dim", "HH:MM-HH:MM", at: \.configuration.screens.dim,
            help: "Dim boards between these times of the screen's own clock, e.g. 22:00-07:00 (a board's ?dim= wins).",
            shownDefault: nil, parse: OptionValue.dimRange),
        .values(
            "column", "'LABEL=/pointer[:FORMAT]'", at: \.columns, repetition: .repeatable,
            help: """
                A column of the table the pages show the items in, in order, e.g. 'Price=/price:number' \
                (repeatable; formats: \(ItemColumn.Format.names.joined(separator: ", ")); a status may name its \
                words: 'CI=/state:status(green=good,red=bad)').
                """,
            shownDefault: "the items' own fields", parse: OptionValue.columns),
        .single(
            "sort", "COLUMN[:desc]", at: \.sort,
            help: """
                The column the table is sorted by when the URL does not say (?sort=NAME&order=desc), and the \
                kiosk's tiles.
                """,
            shownDefault: "feed order", parse: OptionValue.sort),
        .single(
            "title", "TEXT", at: \.configuration.title,
            help: "The board's name, in the masthead, the page titles and the kiosk.",
            shownDefault: FeedwebSettings.initial.configuration.title, parse: OptionValue.title),
        .single(
            "templates", "DIR", at: \.configuration.templates,
            help: """
                A folder of NAME.mustache files that replace the built-in templates NAME (the others stay built in); \
                read again on SIGHUP, all or none. See docs/templates.md.
                """,
            shownDefault: "the built-in ones", parse: OptionValue.templates),
        .single(
            "export-templates", "DIR", at: \.exportTemplates,
            help: "Write every built-in template to DIR, as a starting point for --templates, and exit.",
            shownDefault: nil, parse: OptionValue.exportFolder),
        .wholeNumber(
            "keep", at: \.keep, in: 1...100_000,
            help:
                "Items kept in append mode, newest first (with --key-path, items, not their versions; the one quiet the longest goes first)."
        ),
        .wholeNumber(
            "history", at: \.configuration.history, in: 0...1_000_000,
            help: "Changes kept for resuming clients, ?at= and /api/changes (and at most 64 MiB of them)."),
        .single(
            "state-file", "PATH", at: \.configuration.stateFile,
            help: """
                File to save the mirror in (atomically, at most once a second and at shutdown) and to restore it \
                from at start.
                """,
            shownDefault: nil, parse: OptionValue.stateFile),
        .wholeNumber(
            "max-clients", at: \.configuration.server.maxStreams, in: 1...1_000_000,
            help: "Most concurrent SSE clients; more get 503."),
        .wholeNumber(
            "threads", at: \.configuration.server.shards, in: 1...1024,
            help: """
                Shards to serve and write streams from, each a thread accepting connections and answering \
                requests and a thread writing its share of the streams.
                """,
            shownDefault: "the cores this process may run on"),
        .choice(
            "inspect", "on|off", at: \.configuration.inspect, among: [("on", true), ("off", false)],
            help: "Whether /inspect shows the document, the events, upstream and the screens (off: 404)."
        ) { "must be on or off, not '\($0)'" },
        .seconds(
            "head-timeout", at: \.configuration.server.headTimeout,
            help: """
                Seconds a client connection may take to send a complete request, from its connect or, kept alive, \
                from the previous response; then it is closed, however slowly it trickles. SSE streams are exempt.
                """),
        .wholeNumber(
            "max-event-bytes", at: \.configuration.sources.maxEventBytes, in: 1024...(1 << 30),
            help: "Largest upstream event, WebSocket message or polled document in bytes."),
        .seconds(
            "max-backoff", at: \.configuration.sources.maxBackoff,
            help: "Longest wait between upstream retries, in seconds."),
        .seconds(
            "read-timeout", at: \.configuration.sources.readTimeout,
            help: """
                Upstream silence after which the connection counts as dead, in seconds; a WebSocket is pinged \
                every half of it.
                """),
        .single(
            "ca-file", "PATH", at: \.configuration.sources.caFile,
            help: "PEM file of extra CA certificates to trust for an https or wss upstream.", shownDefault: nil,
            parse: OptionValue.caFile),
        .values(
            "frame-ancestors", "SOURCES", at: \.configuration.frameAncestors, repetition: .words,
            help: """
                Who may embed the pages in a frame: CSP sources separated by spaces, e.g. self \
                https://intranet.example (self and none with or without quotes; schemes like https:; hosts like \
                *.example.com:8443).
                """,
            shownDefault: FeedwebSettings.initial.configuration.frameAncestors, parse: OptionValue.frameAncestors),
        .values(
            "allow-origin", "ORIGIN", at: \.configuration.allowedOrigins, repetition: .repeatable,
            help: """
                An origin whose pages may read /events, /events/items, /events/page and /api/ from a browser \
                (CORS), e.g. https://intranet.example or http://127.0.0.1:8000; * for any (repeatable).
                """,
            shownDefault: nil, parse: OptionValue.allowedOrigins),
        .values(
            "webhook", "URL", at: \.configuration.webhooks, repetition: .repeatable,
            help: """
                A URL told, by a POST of JSON, each time an item comes to match a --mark: its mark, key, title, \
                page and the item, with a text a chat's incoming webhook shows (repeatable).
                """,
            shownDefault: nil, parse: OptionValue.webhooks),
        .values(
            "webhook-header", "\"Name: value\"", at: \.configuration.webhookHeaders, repetition: .repeatable,
            help: """
                A header sent with each --webhook request, e.g. "Authorization: Bearer …" (repeatable).
                """,
            shownDefault: nil, parse: OptionValue.headers),
        .single(
            "public-origin", "ORIGIN", at: \.configuration.links,
            help: """
                The origin people reach feedweb at, e.g. https://dash.example: the links to items, sections and the \
                list in its pages and fragments are then absolute, so that a page of another origin showing them \
                (an htmx or Datastar page of your own) links back to feedweb.
                """,
            shownDefault: "links are paths", parse: OptionValue.publicOrigin),
        .choice(
            "log-level", "LEVEL", at: \.logLevel, among: Logger.Level.allCases.map { ($0.rawValue, $0) },
            help: "Log level: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))."
        ) { text in
            "unknown level '\(text)'; levels are \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
        },
        .single(
            "public-dir", "PATH", at: \.configuration.publicDirectory,
            help: "Directory of static files served under /static/.",
            shownDefault: "the Public/ beside or above the binary, else PREFIX/share/feedweb/Public",
            parse: OptionValue.directory),
        .seconds(
            "demo-interval", at: \.configuration.sources.demoInterval,
            help: "Seconds between the demo newswire's changes, when there is no --upstream or --poll."),
        .single(
            "cluster", "URL", at: \.configuration.cluster,
            help: """
                Run as one node of a cluster sharing this PostgreSQL database: one node subscribes upstream and logs \
                each change there, every node serves the same ids (postgres://USER[:PASSWORD]@HOST:PORT/DB; \
                sslmode=require for TLS).
                """,
            shownDefault: nil, parse: OptionValue.cluster),
        .single(
            "cluster-node", "NAME", at: \.configuration.clusterNode,
            help: "This node's name in the cluster, on /readyz and in the logs.", shownDefault: "host name:port",
            parse: OptionValue.nodeName),
    ]

    /// What reads items without `--profile`: a built-in profile whose shape the first
    /// document with items has, else a table of the items' fields (the demo's own:
    /// ``FeedwebConfiguration/profile``).
    private static let profileDefault = "found in the first document"

    /// The option named `name` (without `--`).
    static func named(_ name: String) -> FeedwebOption? {
        all.first { $0.name == name }
    }
}
