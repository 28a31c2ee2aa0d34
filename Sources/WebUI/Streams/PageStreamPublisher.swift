import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// Feeds the page streams (`/events/page`) the newest state: the published view, the
/// status badge and the `/stats` figures, rendered at most once per frame of its
/// ``PageFramePacer`` (intermediate states skipped, never shown late).
///
/// Frames are requested by the fan-out stage (``deliver(_:)``: a change was published),
/// the upstream status (the badge may have changed) and the once-a-second timer (time alone
/// moves the badge and the `/stats` window); they are rendered by ``run()``, off the
/// store's locks.
///
/// While no page stream is open, requests are held (no thread woken, nothing rendered:
/// a feed served only to `/events` clients pays nothing for pages); the first page stream
/// to open renders the held frame itself before it subscribes
/// (``subscribe(_:views:dialect:reload:)``), so it starts from the newest state.
final class PageStreamPublisher: Sendable {
    /// The page streams published to.
    let stream: PageEventStream
    /// Coalesces frame requests (20 frames a second at most on average, newest state).
    let pacer = PageFramePacer(interval: .milliseconds(50))
    private let store: FeedStore
    private let badges: StatusBadgeSource
    private let stats: StatsRecorder
    /// Lets an upstream status ask for a frame only when it changes the badge.
    private let badgeChanges: BadgeChangeFilter
    /// Serialises frames (the loop's and a new page stream's), so a frame never publishes
    /// an older state after a newer one. Taken holding no lock; the store's, the stats'
    /// and `PageEventStream.publishLock` are taken under it.
    private let frameLock = NIOLock()

    init(stream: PageEventStream, store: FeedStore, badges: StatusBadgeSource, stats: StatsRecorder) {
        self.stream = stream
        self.store = store
        self.badges = badges
        self.stats = stats
        self.badgeChanges = BadgeChangeFilter(initial: badges.badge())
    }

    /// Asks for a frame when a change advanced the published view (the fan-out stage's
    /// consumer).
    func deliver(_ change: FanoutChange) {
        if change.publishedChanged { requestFrame() }
    }

    /// Asks for a frame with the newest state, coalesced with every other request in the
    /// same frame; held while no page stream is open. Cheap and never blocks: the fan-out
    /// stage, the upstream status and the timer call it.
    func requestFrame() {
        pacer.request { stream.clientCount == 0 }
    }

    /// Subscribes `connection` to the page streams
    /// (``PageEventStream/subscribe(_:views:dialect:reload:)``), first rendering the frame
    /// held while none was open, so that its first events are the newest state; a request
    /// held while it subscribed gets its frame from the loop.
    func subscribe(
        _ connection: StreamConnection, views: [PageEventStream.Subscription], dialect: PageDialect = .feedweb,
        reload: String? = nil
    ) {
        // Under the frame lock, so that a second page stream opening meanwhile waits for
        // this frame instead of starting from the state before it.
        frameLock.withLock {
            if pacer.takeHeld() { publishNewest() }
        }
        stream.subscribe(connection, views: views, dialect: dialect, reload: reload)
        if pacer.takeHeld() { pacer.request() }
    }

    /// Ends `connection`'s page stream subscription.
    func unsubscribe(_ connection: StreamConnection) {
        stream.unsubscribe(connection)
    }

    /// Asks for a frame when `status` (the upstream's, after an event) changes what the
    /// badge shows; reads, heartbeats and handled events on a live connection do not.
    func upstreamStatusChanged(_ status: UpstreamStatus) {
        if badgeChanges.letsThrough(badges.badge(status: status)) { requestFrame() }
    }

    /// Publishes the current view, badge and `/stats` figures to the page streams now
    /// (one frame; tests call it directly).
    func refresh() {
        frameLock.withLock { publishNewest() }
    }

    /// Publishes the newest state; the caller holds `frameLock`.
    private func publishNewest() {
        stream.publish(
            PageEventStream.State(
                view: store.snapshot?.published, badge: badges.badge(), stats: stats.window(), ticker: stats.ticker,
                inspect: stream.inspectFrameIfShown()))
    }

    /// Renders the requested frames until the task is cancelled.
    func run() async {
        await pacer.run { [self] in refresh() }
    }
}
