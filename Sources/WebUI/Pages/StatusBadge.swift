import FeedCore
import Foundation

/// The upstream status as a page shows it: live, connecting, reconnecting, or stale since
/// a time. Part of every page's cache key, so a page is re-rendered when it changes.
struct StatusBadge: Hashable, Sendable {
    enum Kind: String, Sendable {
        case live, connecting, reconnecting, stale
    }

    /// How long a broken connection shows "reconnecting" before it shows "stale".
    static let staleAfter: TimeInterval = 10

    let kind: Kind
    /// Since when the state holds (for stale: the last moment data was known fresh), to
    /// the second.
    let since: Date?

    init(kind: Kind, since: Date?) {
        self.kind = kind
        self.since = since.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
    }

    init(status: UpstreamStatus, hasDocument: Bool, restoredAt: Date?, now: Date) {
        if status.isConnected && hasDocument {
            self.init(kind: .live, since: status.connectedSince)
            return
        }
        guard hasDocument else {
            self.init(kind: .connecting, since: nil)
            return
        }
        let lastFresh = status.lastEventAt ?? restoredAt
        if let lastFresh, now.timeIntervalSince(lastFresh) < Self.staleAfter,
            restoredAt == nil || status.lastEventAt != nil
        {
            self.init(kind: .reconnecting, since: lastFresh)
        } else {
            self.init(kind: .stale, since: lastFresh)
        }
    }

    /// The words on the badge.
    var label: String {
        switch kind {
        case .live: return "Live"
        case .connecting: return "Connecting…"
        case .reconnecting: return "Reconnecting…"
        case .stale:
            guard let since else { return "Stale" }
            return "Stale since "
                + since.formatted(Date.ISO8601FormatStyle().time(includingFractionalSeconds: false))
                .prefix(5)
        }
    }
}
