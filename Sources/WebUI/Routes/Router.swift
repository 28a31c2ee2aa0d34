import FeedCore
import Foundation

/// Maps each request to a response. Runs on the daemon thread, so every answer comes from
/// memory: prepared responses, pages cached per change, or a new stream.
final class Router: HTTPResponder {
    let context: AppContext

    init(context: AppContext) {
        self.context = context
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .prepared(context.errors.methodNotAllowed)
        }
        let path = request.path
        // Control characters (a decoded %00 arrives as DEL) never belong in a path.
        guard !path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            return .prepared(context.errors.badRequest)
        }
        switch path {
        case "/":
            let section = request.query("section").flatMap { $0.isEmpty ? nil : $0 }
            return .prepared(listPage(section: section))
        case "/stats":
            return .prepared(statsPage())
        case "/api/stats":
            return .prepared(context.apiStats())
        case "/kiosk":
            let section = request.query("section").flatMap { $0.isEmpty ? nil : $0 }
            return .prepared(kioskPage(section: section))
        case "/events":
            return eventStream(request)
        case "/events/items":
            return itemStream(request)
        case "/events/page":
            return pageStream(request)
        case "/demo/upstream":
            guard let demo = context.demo else { return .prepared(context.errors.notFound) }
            return documentStream(request, stream: demo)
        case "/healthz":
            return .prepared(context.healthy)
        case "/readyz":
            return .prepared(context.readiness())
        case "/metrics":
            return .prepared(context.metricsResponse())
        case "/api/state":
            return .prepared(context.apiState(ifNoneMatch: request.header("If-None-Match")))
        case "/api/items":
            return .prepared(context.apiItems())
        default:
            break
        }
        if path.hasPrefix("/items/") {
            let key = String(path.dropFirst("/items/".count))
            return .prepared(detailPage(key: key))
        }
        if path.hasPrefix("/api/items/") {
            let key = String(path.dropFirst("/api/items/".count))
            return .prepared(context.apiItem(key: key) ?? context.errors.notFoundJSON)
        }
        if path.hasPrefix("/static/") {
            let relative = String(path.dropFirst("/static/".count))
            return .prepared(
                context.staticFiles.response(for: relative, ifNoneMatch: request.header("If-None-Match"))
                    ?? context.errors.notFound)
        }
        return .prepared(context.errors.notFound)
    }

    func streamRefused() -> PreparedResponse {
        context.streamRefused()
        return context.errors.tooManyStreams
    }

    // MARK: - Pages

    private func listPage(section: String?) -> PreparedResponse {
        let snapshot = context.store.snapshot
        let stamp = context.stamp(publishedSeq: snapshot?.published.seq ?? 0)
        let route = section.map { "list?section=" + $0 } ?? "list"
        return context.pages.response(for: route, stamp: stamp) {
            let body = context.renderer.list(
                view: snapshot?.published, section: section, badge: stamp.badge, source: context.sourceLabel,
                now: Date())
            return PreparedResponse(status: 200, body: body, headers: context.htmlHeaders)
        } ?? context.errors.notFound
    }

    private func kioskPage(section: String?) -> PreparedResponse {
        let snapshot = context.store.snapshot
        let stamp = context.stamp(publishedSeq: snapshot?.published.seq ?? 0)
        let route = section.map { "kiosk?section=" + $0 } ?? "kiosk"
        return context.pages.response(for: route, stamp: stamp) {
            let body = context.renderer.kiosk(
                view: snapshot?.published, section: section, badge: stamp.badge, now: Date())
            return PreparedResponse(status: 200, body: body, headers: context.htmlHeaders)
        } ?? context.errors.notFound
    }

    private func statsPage() -> PreparedResponse {
        let snapshot = context.store.snapshot
        let window = context.stats.window()
        var stamp = context.stamp(publishedSeq: snapshot?.published.seq ?? 0)
        stamp.statsWindow = window.endIndex
        return context.pages.response(for: "stats", stamp: stamp) {
            let body = context.renderer.stats(
                window: window, ticker: context.stats.ticker, badge: stamp.badge,
                updated: snapshot?.published.publishedAt, source: context.sourceLabel, now: Date())
            return PreparedResponse(status: 200, body: body, headers: context.htmlHeaders)
        } ?? context.errors.notFound
    }

    private func detailPage(key: String) -> PreparedResponse {
        guard let snapshot = context.store.snapshot, let item = snapshot.published.item(forKey: key) else {
            return context.errors.notFound
        }
        let stamp = context.stamp(publishedSeq: snapshot.published.seq)
        return context.pages.response(for: "item/" + key, stamp: stamp) {
            let body = context.renderer.detail(
                item: item, badge: stamp.badge, updated: snapshot.published.publishedAt, source: context.sourceLabel,
                now: Date())
            return PreparedResponse(status: 200, body: body, headers: context.htmlHeaders)
        } ?? context.errors.notFound
    }

    // MARK: - Streams

    private func eventStream(_ request: HTTPRequest) -> HTTPResponse {
        documentStream(request, stream: context.events)
    }

    private static func lastEventID(_ request: HTTPRequest) -> String? {
        request.header("Last-Event-ID") ?? request.query("lastEventId") ?? request.query("last_event_id")
    }

    private func itemStream(_ request: HTTPRequest) -> HTTPResponse {
        if request.method == "HEAD" { return .prepared(context.eventStreamHead) }
        let section = request.query("section").flatMap { $0.isEmpty ? nil : $0 }
        let stream = StreamConnection(maxQueuedBytes: context.maxQueuedBytesPerClient)
        let target = context.itemEvents
        target.subscribe(stream, section: section, lastEventID: Self.lastEventID(request))
        return .stream(stream, headers: context.eventStreamHeaders) { target.unsubscribe(stream, section: section) }
    }

    /// `/events/page?view=list|kiosk|item|stats&section=…&key=…`: what one open page needs.
    private func pageStream(_ request: HTTPRequest) -> HTTPResponse {
        if request.method == "HEAD" { return .prepared(context.eventStreamHead) }
        let section = request.query("section").flatMap { $0.isEmpty ? nil : $0 }
        let channel: PageEventStream.Channel
        switch request.query("view") ?? "list" {
        case "list": channel = .list(section: section)
        case "kiosk": channel = .kiosk(section: section)
        case "stats": channel = .stats
        case "item":
            guard let key = request.query("key"), !key.isEmpty else { return .prepared(context.errors.badRequest) }
            channel = .item(key: key)
        default:
            return .prepared(context.errors.badRequest)
        }
        let stream = StreamConnection(maxQueuedBytes: context.maxQueuedBytesPerClient)
        let target = context.pageEvents
        target.subscribe(stream, channel: channel)
        return .stream(stream, headers: context.eventStreamHeaders) { target.unsubscribe(stream, channel: channel) }
    }

    private func documentStream(_ request: HTTPRequest, stream target: DocumentEventStream) -> HTTPResponse {
        if request.method == "HEAD" { return .prepared(context.eventStreamHead) }
        let mode: DocumentEventStream.Mode = Self.wantsSnapshotsOnly(request.header("Accept")) ? .snapshots : .patches
        let lastEventID = Self.lastEventID(request)
        let stream = StreamConnection(maxQueuedBytes: context.maxQueuedBytesPerClient)
        target.subscribe(stream, mode: mode, lastEventID: lastEventID)
        return .stream(stream, headers: context.eventStreamHeaders) { target.unsubscribe(stream, mode: mode) }
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
