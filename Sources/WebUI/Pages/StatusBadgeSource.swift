import FeedCore
import Foundation

/// The status badge as every page shows it now, read from the upstream status, whether
/// the store holds a document, and when a restored state was saved.
struct StatusBadgeSource: Sendable {
    let store: FeedStore
    /// When the state shown before upstream answers was saved (`nil`: nothing restored).
    let restoredAt: Date?
    /// Whether the pages say what went wrong upstream (`--inspect on`), or only that it did.
    let showsProblem: Bool
    /// The upstream status now, under the configured source's name.
    let upstreamStatus: @Sendable () -> UpstreamStatus

    /// The badge at `now` (with the upstream status `status`, default: the current one).
    func badge(status: UpstreamStatus? = nil, now: Date = Date()) -> StatusBadge {
        StatusBadge(
            status: status ?? upstreamStatus(), hasDocument: store.snapshot != nil, restoredAt: restoredAt, now: now,
            showsProblem: showsProblem)
    }
}
