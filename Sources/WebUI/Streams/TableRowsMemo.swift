import FeedCore
import NIOConcurrencyHelpers

/// The rows each table view of the page stream showed at the last two published views:
/// a frame compares the rows before a change with the rows after it, and the rows before are
/// the previous frame's rows after, so each view's items are filtered, sorted and cut to a
/// page once per change, not twice (a sorted table of 100,000 items sorts once a frame).
///
/// Each entry holds its view (so its identity cannot be reused by another view while the
/// entry is here). A leaf lock: nothing is taken while it is held; the rows are worked out
/// outside it.
final class TableRowsMemo: Sendable {
    typealias Rows = (rows: ChunkedArray<FeedItem>, total: Int)

    private struct Entry {
        let view: PublishedView
        let rows: ChunkedArray<FeedItem>
        let total: Int
    }

    /// The most table views remembered; past it, the memo starts over.
    static let capacity = 256
    /// Per table view, its rows at the last two views, the newest last.
    private let entries = NIOLockedValueBox<[TableQuery: [Entry]]>([:])

    /// The rows `query` shows of `view` (none without a view).
    func rows(of view: PublishedView?, query: TableQuery) -> Rows {
        guard let view else { return ([], 0) }
        if let hit = entries.withLockedValue({ $0[query]?.first { $0.view === view } }) {
            return (hit.rows, hit.total)
        }
        let made = query.rows(of: view, columns: TableColumns.columns(of: view.profile))
        entries.withLockedValue { entries in
            if entries.count >= Self.capacity && entries[query] == nil { entries.removeAll() }
            var kept = entries[query] ?? []
            kept.append(Entry(view: view, rows: made.rows, total: made.total))
            if kept.count > 2 { kept.removeFirst(kept.count - 2) }
            entries[query] = kept
        }
        return made
    }
}
