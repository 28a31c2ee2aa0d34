import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// Feeds ``FeedStatistics`` from the two places things happen: the store (accepted
/// changes) and the upstream source's ``UpstreamEvent``s (bytes received, reconnects with
/// what ended the connection before, rejected patches with why). Hands out the window
/// `/stats` shows, made once per five-second window and then shared.
///
/// Thread-safe: the fan-out stage records changes from its queue and the upstream source's
/// observer records events from the upstream task; the page stream timer and the daemon
/// threads read. The lock guards the statistics and the window; nothing else is taken while
/// it is held.
final class StatsRecorder: Sendable {
    private struct State: Sendable {
        var statistics: FeedStatistics
        /// The window last made, reused until time leaves it.
        var window: StatsWindow?
    }

    /// Guards the statistics and the last window made. A leaf: nothing is taken while it
    /// is held. Never taken holding a lock of the store's: the fan-out stage hands changes
    /// on outside them (``record(_:at:)``).
    private let state: NIOLockedValueBox<State>
    /// When counting started.
    let startedAt: Date

    /// What the bytes received are (``StatsComparison``): with `.screens`, each change's
    /// `/events` bytes (``record(_:eventBytes:at:)``), and upstream's own bytes are not
    /// counted.
    let comparison: StatsComparison

    /// Starts counting at `now`; takes what `store` already holds (a restored state) as the
    /// baseline; every change accepted from now on is recorded as the fan-out stage hands it
    /// on (``record(_:eventBytes:at:)``).
    init(store: FeedStore, pollInterval: TimeInterval, comparison: StatsComparison = .upstream, now: Date = Date()) {
        self.comparison = comparison
        var statistics = FeedStatistics(startedAt: now, pollInterval: pollInterval, comparison: comparison)
        if let snapshot = store.snapshot {
            let view = snapshot.published
            let sections = view.sections
            let newest = view.items.first { $0.title != nil }
            statistics.seed(
                sections: sections, documentBytes: snapshot.encodedByteCount,
                headline: newest.map {
                    TickerEntry(title: $0.title ?? "", key: $0.key, isNew: true, time: min(view.publishedAt, now))
                })
        }
        state = NIOLockedValueBox(State(statistics: statistics))
        startedAt = now
    }

    /// Records one accepted change (the fan-out stage's consumer); with ``comparison``
    /// `.screens`, the bytes each screen gets for it first, `eventBytes` (its `/events`
    /// event, asked for only then).
    func record(_ change: FeedChange, eventBytes: () -> Int = { 0 }, at time: Date = Date()) {
        // The version path of the profile the change was read with (found in the first
        // document with items, when not given).
        let summary = AcceptedChange(change, versionPath: change.snapshot.published.reading?.profile.versionPath)
        let sent = comparison == .screens ? eventBytes() : nil
        state.withLockedValue { state in
            if let sent { state.statistics.record(.received(bytes: UInt64(max(0, sent))), at: time) }
            state.statistics.record(.accepted(summary), at: time)
        }
    }

    /// Records what an upstream event says happened, at `time`: bytes received, a
    /// reconnect (with what ended the connection before), a rejected patch (with why).
    /// Other events are not counted here.
    func record(_ event: UpstreamEvent, at time: Date = Date()) {
        let counted: StatsEvent
        switch event {
        case .received(let bytes):
            // Polling for the screens, feedweb's own download is the polling compared.
            guard comparison == .upstream else { return }
            counted = .received(bytes: bytes)
        case .reconnecting(let reason): counted = .reconnect(reason: reason)
        case .rejected(let reason): counted = .rejectedPatch(reason: reason)
        case .leaderChanged(let node, let term): counted = .leaderChange(detail: "\(node) leads (term \(term))")
        case .connecting, .opened, .eventHandled, .upstreamError, .ignored, .backingOff, .stoppedByUpstream, .stopped,
            .answered, .polled:
            return
        }
        state.withLockedValue { $0.statistics.record(counted, at: time) }
    }

    /// The completed windows before the one `now` falls in: made once per window, then the
    /// same value until time moves into the next.
    func window(now: Date = Date()) -> StatsWindow {
        state.withLockedValue { state in
            if let window = state.window, window.endIndex == StatsBucket.index(of: now) { return window }
            let window = state.statistics.window(at: now)
            state.window = window
            return window
        }
    }

    /// The newest published story.
    var ticker: TickerEntry? {
        state.withLockedValue { $0.statistics.ticker }
    }

    /// Everything counted since start, up to `now` (what `/metrics` reports).
    func totals(now: Date = Date()) -> StatsTotals {
        state.withLockedValue { state in
            state.statistics.advance(to: now)
            return state.statistics.totals
        }
    }
}
