import FeedCore
import Foundation

/// The hot paths of this module for `Benchmarks/Micro`, reachable only through
/// `@_spi(Benchmarks) import WebUI`: not API, and nothing else in the package uses it.
@_spi(Benchmarks)
public enum BenchmarkEntry {
    /// The list page `/` for `view`, rendered as the page cache renders it once per change.
    public static func listPage(view: PublishedView, now: Date) -> [UInt8] {
        PageRenderer(assetVersion: "bench").list(
            view: view, section: nil, badge: StatusBadge(kind: .live, since: now), source: "bench", now: now)
    }

    /// The detail page of `item`.
    public static func itemPage(item: FeedItem, now: Date) -> [UInt8] {
        PageRenderer(assetVersion: "bench").detail(
            item: item, profile: .nytNewswire, badge: StatusBadge(kind: .live, since: now), updated: now,
            source: "bench", now: now)
    }

    /// Makes a fan-out stage `store`'s observer, with `stream` its one consumer, as in
    /// feedweb (no path past the stage); returns what waits until every change accepted so
    /// far has reached `stream`: one `apply` and a wait then time a change end to end.
    public static func fanOut(of store: FeedStore, to stream: DocumentEventStream) -> @Sendable () -> Void {
        let stage = FanoutStage(
            store: store, name: "feedweb.bench-fanout", consumers: [.init(name: "/events") { stream.deliver($0) }])
        return { stage.drain() }
    }
}
