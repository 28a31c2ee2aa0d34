import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// The event streams: `/events`, `/events/items`, `/events/page` and the demo's
/// `/demo/upstream`.
///
/// Each GET is answered with the decision to start a stream (``StreamStart``), which the
/// server carries out once it has admitted the stream; a HEAD gets the stream's headers and
/// no body. Counts the streams refused at the server's limit.
final class StreamHandlers: Sendable {
    /// `/events`: the mirror in the document protocol.
    let events: DocumentEventStream
    /// `/events/items`: the published view at item level.
    let items: ItemEventStream
    /// `/events/page`: rendered fragments for open pages, through the publisher of their
    /// frames (which subscribes a page stream).
    let pages: PageStreamPublisher
    /// `/demo/upstream`, only when the source is the demo.
    let demo: DocumentEventStream?
    /// The bound on each client's unsent bytes
    /// (``FeedwebConfiguration/Streams/maxQueuedBytesPerClient``; no option sets it).
    private let maxQueuedBytesPerClient: Int
    /// Whether `/inspect` is on (else its view is refused).
    private let inspects: Bool
    private let headers = ResponseHeaders.eventStream
    /// The answer to a HEAD on any stream: the stream's headers, no body.
    private let head: PreparedResponse
    private let errors: ErrorResponses
    /// Guards the count of streams refused since start.
    ///
    /// A leaf: no other lock is taken while it is held.
    private let refusedStreams = NIOLockedValueBox<UInt64>(0)

    /// The version of the static files served now (the pages' `?v=`).
    private let assetVersion: @Sendable () -> String

    init(
        events: DocumentEventStream, items: ItemEventStream, pages: PageStreamPublisher, demo: DocumentEventStream?,
        maxQueuedBytesPerClient: Int, errors: ErrorResponses, inspects: Bool = true,
        assetVersion: @escaping @Sendable () -> String = { "" }
    ) {
        self.assetVersion = assetVersion
        self.inspects = inspects
        self.events = events
        self.items = items
        self.pages = pages
        self.demo = demo
        self.maxQueuedBytesPerClient = maxQueuedBytesPerClient
        self.errors = errors
        self.head = .fixed(status: 200, body: [], headers: ResponseHeaders.eventStream)
    }

    /// `/events`: patches, or a full document per change for `Accept: application/json`
    /// (see ``wantsSnapshotsOnly(_:)``); resumes after `Last-Event-ID` when the history
    /// still holds it.
    func documentEvents(_ request: HTTPRequest) -> HTTPResponse {
        documentStream(request, of: events)
    }

    /// `/demo/upstream`: the demo's newswire in the document protocol, or 404 without the demo.
    func demoUpstream(_ request: HTTPRequest) -> HTTPResponse {
        guard let demo else { return .prepared(errors.notFound) }
        return documentStream(request, of: demo)
    }

    /// `/events/items?section=`: item-level events, resuming after `Last-Event-ID`.
    func itemEvents(_ request: HTTPRequest) -> HTTPResponse {
        if request.method == "HEAD" { return .prepared(head) }
        let section = request.sectionFilter
        let lastEventID = request.lastEventID
        let target = items
        return start { stream, shard in
            target.subscribe(stream, on: shard, section: section, lastEventID: lastEventID)
            return { target.unsubscribe(stream, on: shard) }
        }
    }

    /// `/events/page?v=SPEC[@ID]&v=…&screen=NAME…&asset=VERSION`: every view the open pages of one
    /// browser partition show (see ``PageEventStream``), and the names they gave themselves; `?view=list|kiosk|item|stats&section=…&key=…` asks
    /// for one, as pages of earlier versions do. 400 for an unknown view, an item view
    /// without a key, more than ``PageEventStream/maxViews``, or `inspect` when it is off.
    ///
    /// `&dialect=htmx|datastar` writes the same frames as htmx 2's or Datastar's events
    /// (``PageDialect``; any other value is a 400 naming them). htmx's extension reopens
    /// without any id, so its views always start with their whole state; Datastar sends the
    /// last id back as `Last-Event-ID`, which each view without an id of its own resumes
    /// after. In a dialect, `list` and `list:SECTION` on a table's feed are its table, as
    /// `/` and `/?section=` are.
    func pageEvents(_ request: HTTPRequest) -> HTTPResponse {
        if request.method == "HEAD" { return .prepared(head) }
        guard let dialect = PageDialect(parameter: request.query("dialect")) else {
            return .prepared(errors.badDialect)
        }
        guard var views = Self.pageViews(of: request), inspects || !views.contains(where: { $0.channel == .inspect })
        else { return .prepared(errors.badRequest) }
        switch dialect {
        case .feedweb: break
        case .htmx: views = views.map { .init(channel: $0.channel, resumesAfter: nil) }
        case .datastar:
            let lastEventID = request.lastEventID.flatMap(EventID.init(parsing:))
            views = views.map { .init(channel: $0.channel, resumesAfter: $0.resumesAfter ?? lastEventID) }
        }
        let screens = Self.screenNames(of: request).joined(separator: " ")
        let target = pages
        // Pages that link static files other than those served now reload, once.
        let current = assetVersion()
        let reload = request.query("asset").flatMap { $0.isEmpty || current.isEmpty || $0 == current ? nil : current }
        return start(for: .person) { [views] stream, _ in
            stream.setLabel(screens)
            target.subscribe(stream, views: views, dialect: dialect, reload: reload)
            return { target.unsubscribe(stream) }
        }
    }

    /// The views a page stream request asks for, each with the id it resumes after;
    /// `nil` when one is not a view or there are too many.
    static func pageViews(of request: HTTPRequest) -> [PageEventStream.Subscription]? {
        let specs = request.queries("v")
        guard !specs.isEmpty else {
            let channel: PageEventStream.Channel
            switch request.query("view") ?? "list" {
            case "list": channel = .list(section: request.sectionFilter)
            case "kiosk": channel = .kiosk(section: request.sectionFilter)
            case "stats": channel = .stats
            case "item":
                guard let key = request.query("key"), !key.isEmpty else { return nil }
                channel = .item(key: key)
            default:
                return nil
            }
            return [.init(channel: channel, resumesAfter: request.lastEventID.flatMap(EventID.init(parsing:)))]
        }
        guard specs.count <= PageEventStream.maxViews else { return nil }
        var views: [PageEventStream.Subscription] = []
        for spec in specs {
            // `SPEC@EPOCH-SEQ`: the id after the last `@`, when it is one of feedweb's.
            var name = Substring(spec)
            var resumesAfter: EventID?
            if let at = spec.lastIndex(of: "@"), let id = EventID(parsing: String(spec[spec.index(after: at)...])) {
                name = spec[..<at]
                resumesAfter = id
            }
            guard let channel = PageEventStream.Channel(spec: String(name)) else { return nil }
            views.append(.init(channel: channel, resumesAfter: resumesAfter))
        }
        return views
    }

    /// The names the pages of a page stream gave themselves (`&screen=lobby-left`, one per
    /// page that has one), for `/inspect`: at most 16 ``ScreenName``s; others are left out.
    static func screenNames(of request: HTTPRequest) -> [String] {
        var names: [String] = []
        for name in request.queries("screen") where names.count < 16 && !names.contains(name) {
            guard ScreenName.isValid(name) else { continue }
            names.append(name)
        }
        return names
    }

    /// A new stream refused because the server is at `--max-clients` or stopping: counted,
    /// and answered 503 with `Retry-After`.
    func refused() -> PreparedResponse {
        refusedStreams.withLockedValue { $0 += 1 }
        return errors.tooManyStreams
    }

    /// New streams refused since start.
    var refusedCount: UInt64 { refusedStreams.withLockedValue { $0 } }

    /// Every broadcaster (every shard's), for heartbeats and stalled-client sweeps.
    var broadcasters: [any StreamSweeping] {
        events.broadcasters + items.broadcasters + [pages.stream.broadcaster] + (demo?.broadcasters ?? [])
    }

    /// The clients and traffic of each stream endpoint now, for `/metrics`.
    var samples: [FeedwebMetrics.StreamSample] {
        var samples = [
            FeedwebMetrics.StreamSample(
                name: "events", clients: events.clientCount, traffic: events.traffic),
            FeedwebMetrics.StreamSample(name: "items", clients: items.clientCount, traffic: items.traffic),
            FeedwebMetrics.StreamSample(
                name: "page", clients: pages.stream.clientCount, traffic: pages.stream.broadcaster.traffic),
        ]
        if let demo {
            samples.append(.init(name: "demo", clients: demo.clientCount, traffic: demo.traffic))
        }
        return samples
    }

    private func documentStream(_ request: HTTPRequest, of target: DocumentEventStream) -> HTTPResponse {
        if request.method == "HEAD" { return .prepared(head) }
        let mode: DocumentEventStream.Mode = Self.wantsSnapshotsOnly(request.header("Accept")) ? .snapshots : .patches
        let lastEventID = request.lastEventID
        return start { stream, shard in
            target.subscribe(stream, on: shard, mode: mode, lastEventID: lastEventID)
            return { target.unsubscribe(stream, on: shard) }
        }
    }

    private func start(
        for audience: StreamStart.Audience = .programs,
        subscribe: @escaping @Sendable (StreamConnection, Shard) -> @Sendable () -> Void
    ) -> HTTPResponse {
        .stream(
            StreamStart(
                headers: headers, maxQueuedBytes: maxQueuedBytesPerClient, audience: audience, subscribe: subscribe))
    }

    /// Streamdata's rule: `Accept: application/json` (not preceded by
    /// `text/event-stream`) asks for a full document on every change.
    static func wantsSnapshotsOnly(_ accept: String?) -> Bool {
        guard let accept else { return false }
        let types = accept.split(separator: ",").map {
            $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
        guard let json = types.firstIndex(of: "application/json") else { return false }
        guard let sse = types.firstIndex(of: "text/event-stream") else { return true }
        return json < sse
    }
}
