import FeedCore

/// `/inspect`'s connected screens: each page stream (one per browser partition: the views
/// its pages show, the names they gave themselves with `?screen=`), each group of program
/// clients (`/events` by mode, `/events/items` by section), with what they have queued and
/// whether they stopped reading, and what each named screen said it showed
/// (``ScreenShowings``).
///
/// A client is *stalled* once bytes have waited ``stalledAfter`` without it taking any
/// (its socket's buffers are full: it stopped reading). Clients stalled for
/// ``FeedwebConfiguration/Streams/stallTimeout`` are dropped by the once-a-second sweep,
/// and leave the list.
struct ScreenList: Sendable, Equatable {
    /// How long bytes wait unread before a client counts as stalled (nanoseconds).
    static let stalledAfter: UInt64 = 1_000_000_000
    /// The most page streams listed (the oldest first); the rest are counted.
    static let maxPageStreams = 200

    /// One page stream.
    struct PageStream: Sendable, Equatable {
        let views: [String]
        /// The names its pages gave themselves (`?screen=`), if any.
        let screens: [String]
        let since: WallTime
        let pendingBytes: Int
        /// Seconds it has not read for, when stalled.
        let stalledFor: Double?
    }

    /// The program clients of one endpoint and mode.
    struct ClientGroup: Sendable, Equatable {
        let name: String
        let clients: Int
        /// The oldest client's start.
        let oldest: WallTime?
        let pendingBytes: Int
        /// Clients stalled now.
        let stalled: Int
    }

    var pageStreams: [PageStream] = []
    /// Page streams open beyond those listed.
    var morePageStreams = 0
    var groups: [ClientGroup] = []
    /// What the named screens showed, by name.
    var showings: [ScreenShowings.Screen] = []

    /// A list of these page streams, groups and showings.
    init(
        pageStreams: [PageStream] = [], morePageStreams: Int = 0, groups: [ClientGroup] = [],
        showings: [ScreenShowings.Screen] = []
    ) {
        self.pageStreams = pageStreams
        self.morePageStreams = morePageStreams
        self.groups = groups
        self.showings = showings
    }

    /// The list as the handlers' streams and `showings` stand `now` (``MonotonicTime``).
    init(streams: StreamHandlers, showings: ScreenShowings? = nil, now: UInt64 = MonotonicTime.now()) {
        self.showings = showings?.screens() ?? []
        var pages: [PageStream] = []
        for (stream, channels) in streams.pages.stream.broadcaster.clients() {
            let seen = stream.observe(now: now)
            pages.append(
                PageStream(
                    views: channels.map(\.spec),
                    screens: seen.label.isEmpty ? [] : seen.label.split(separator: " ").map(String.init),
                    since: seen.openedAt, pendingBytes: seen.pendingBytes, stalledFor: Self.stalled(seen)))
        }
        pages.sort { $0.since < $1.since }
        morePageStreams = max(0, pages.count - Self.maxPageStreams)
        pageStreams = Array(pages.prefix(Self.maxPageStreams))

        var groups: [String: (clients: Int, oldest: WallTime?, pending: Int, stalled: Int)] = [:]
        func add(_ name: String, _ stream: StreamConnection) {
            let seen = stream.observe(now: now)
            var group = groups[name] ?? (0, nil, 0, 0)
            group.clients += 1
            group.oldest = min(group.oldest ?? seen.openedAt, seen.openedAt)
            group.pending += seen.pendingBytes
            if Self.stalled(seen) != nil { group.stalled += 1 }
            groups[name] = group
        }
        for broadcaster in streams.events.broadcasters {
            for (stream, modes) in broadcaster.clients() {
                add(modes.first == .snapshots ? "/events (documents)" : "/events", stream)
            }
        }
        for broadcaster in streams.items.broadcasters {
            for (stream, sections) in broadcaster.clients() {
                add("/events/items" + ((sections.first ?? nil).map { "?section=" + $0 } ?? ""), stream)
            }
        }
        self.groups = groups.map {
            ClientGroup(
                name: $0.key, clients: $0.value.clients, oldest: $0.value.oldest, pendingBytes: $0.value.pending,
                stalled: $0.value.stalled)
        }
        .sorted { $0.name < $1.name }
    }

    /// Seconds `seen` has not read for, when stalled.
    private static func stalled(_ seen: StreamConnection.Observation) -> Double? {
        guard let waiting = seen.waiting, waiting >= stalledAfter else { return nil }
        return Double(waiting) / 1e9
    }
}
