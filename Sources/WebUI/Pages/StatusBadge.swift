import FeedCore
import Foundation

/// The upstream status as a page shows it: live, connecting, waiting (connected, no
/// document yet), failing (no document yet and upstream's last answer an error, or an
/// error upstream sent),
/// reconnecting, or stale since a time; while not connected, with what went wrong in words. Part of every page's cache key, so a page is
/// re-rendered when it changes.
struct StatusBadge: Hashable, Sendable {
    enum Kind: String, Sendable {
        case live, connecting, waiting, failing, reconnecting, stale
    }

    /// How long a broken connection shows "reconnecting" before it shows "stale".
    static let staleAfter: TimeInterval = 10

    let kind: Kind
    /// Since when the state holds (for stale: the last moment data was known fresh), to
    /// the second.
    let since: Date?
    /// Upstream's last error, as ``UpstreamStatus/lastError`` says it (URLs redacted), while
    /// upstream is not connected, and before any document the last error upstream sent
    /// (``UpstreamStatus/lastUpstreamError``); `nil` while connected with neither, before any
    /// attempt failed, or where the pages are not to say it (`--inspect off`).
    let problem: String?
    /// While connected with no document: why upstream's last event was not read
    /// (``UpstreamStatus/lastIgnored``), where the pages may say it; else `nil`.
    let unread: String?

    init(kind: Kind, since: Date?, problem: String? = nil, unread: String? = nil) {
        self.kind = kind
        self.since = since.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
        self.problem = problem
        self.unread = unread
    }

    /// The badge for `status`; `showsProblem` false keeps upstream's error off the pages
    /// (the kind still says that it fails).
    init(status: UpstreamStatus, hasDocument: Bool, restoredAt: Date?, now: Date, showsProblem: Bool = true) {
        if status.isConnected && hasDocument {
            self.init(kind: .live, since: status.connectedSince)
            return
        }
        // The error stays set through the next attempt's `connecting`, so a badge does not
        // flicker with every retry; it is the newest failure of this outage, since an
        // outage begins with one.
        let error = status.isConnected ? nil : status.lastError
        let problem = showsProblem ? error : nil
        guard hasDocument else {
            // Before any document, upstream's own error (a refused token, a subscription's
            // error) says why nothing came, connected or not.
            let said = status.lastUpstreamError.map { "upstream said: " + $0 }
            let problems = [error, said].compactMap { $0 }
            let unread = status.isConnected && showsProblem && said == nil ? status.lastIgnored : nil
            let kind: Kind = !problems.isEmpty ? .failing : status.isConnected ? .waiting : .connecting
            self.init(
                kind: kind, since: nil,
                problem: showsProblem && !problems.isEmpty ? problems.joined(separator: "; ") : nil,
                unread: unread)
            return
        }
        let lastFresh = status.lastEventAt ?? restoredAt
        if let lastFresh, now.timeIntervalSince(lastFresh) < Self.staleAfter,
            restoredAt == nil || status.lastEventAt != nil
        {
            self.init(kind: .reconnecting, since: lastFresh, problem: problem)
        } else {
            self.init(kind: .stale, since: lastFresh, problem: problem)
        }
    }

    /// What a list or table says while feedweb holds no document: that it waits, or why
    /// nothing came yet.
    var waitingText: String {
        switch (kind, problem) {
        case (.failing, let problem?):
            // A problem in upstream's own words may end its sentence already.
            let said = problem.hasSuffix(".") ? problem : problem + "."
            return "No document from upstream yet: " + said + " feedweb tries again until it answers."
        case (.failing, nil):
            return "No document from upstream yet: its answers fail. feedweb tries again until it answers."
        default:
            guard let unread else { return "Waiting for the first document from upstream…" }
            return "Nothing to show yet: upstream is connected and sends events, but none that feedweb reads as "
                + "the document. The last: " + unread + "."
        }
    }

    /// The words on the badge.
    var label: String {
        switch kind {
        case .live: return "Live"
        case .connecting: return "Connecting…"
        case .waiting: return "Waiting for data"
        case .failing: return "Upstream failing"
        case .reconnecting: return "Reconnecting…"
        case .stale:
            guard let since else { return "Stale" }
            return "Stale since "
                + since.formatted(Date.ISO8601FormatStyle().time(includingFractionalSeconds: false))
                .prefix(5)
        }
    }
}
