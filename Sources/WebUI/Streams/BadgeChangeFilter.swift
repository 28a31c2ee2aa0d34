import NIOConcurrencyHelpers

/// Tells which upstream events change what the status badge shows, so that the page
/// streams are asked for a frame only then — not on every read, heartbeat or handled
/// event, which leave a live badge as it is.
///
/// Remembers the badge last let through. A frame renders the newest status, so once a
/// change has asked for one, the pages converge on it; changes that time alone brings
/// (reconnecting turning stale) are the once-a-second timer's, not this filter's.
///
/// The lock guards the remembered badge only; nothing else is taken while it is held.
final class BadgeChangeFilter: Sendable {
    private let shown: NIOLockedValueBox<StatusBadge>

    /// Starts with `initial`, the badge the pages show before any event.
    init(initial: StatusBadge) {
        shown = NIOLockedValueBox(initial)
    }

    /// Whether `badge` differs from the one last let through; if so, remembers it.
    func letsThrough(_ badge: StatusBadge) -> Bool {
        shown.withLockedValue { shown in
            guard shown != badge else { return false }
            shown = badge
            return true
        }
    }
}
