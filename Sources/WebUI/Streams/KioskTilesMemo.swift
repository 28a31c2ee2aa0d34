import FeedCore
import NIOConcurrencyHelpers

/// The tiles each kiosk of the page stream (one per section) showed at the last two
/// published views, with the items in trouble they were chosen by (``KioskTiles/Trouble``):
/// a frame compares the tiles before a change with the tiles after it, and the tiles before
/// are the previous frame's tiles after; the trouble after is the trouble before updated by
/// the item changes between the two views (those the store computed, when the view before
/// is the one this view replaced; else a diff of the two, when frames were coalesced). A
/// change to a kiosk of 10,000 rows reads the statuses of the items it changed, not of all
/// 10,000 twice.
///
/// Each entry holds its view (so its identity cannot be reused by another view while the
/// entry is here). A leaf lock: nothing is taken while it is held; the tiles are worked out
/// outside it.
final class KioskTilesMemo: Sendable {
    private struct Entry {
        let view: PublishedView
        let statuses: [ItemColumn]
        let trouble: KioskTiles.Trouble
        let tiles: ChunkedArray<FeedItem>
    }

    /// The most kiosks (sections) remembered; past it, the memo starts over.
    static let capacity = 256
    /// Per kiosk, by section (`nil`: all of them), its entries at the last two views, the
    /// newest last.
    private let entries = NIOLockedValueBox<[String?: [Entry]]>([:])
    /// How many times the trouble was found by reading every item (a kiosk's first view, a
    /// view not next to the one before, a profile changed) rather than kept.
    private let readings = NIOLockedValueBox(0)

    /// How many times the trouble was found by reading every item rather than kept.
    var fullReadings: Int { readings.withLockedValue { $0 } }

    /// What the kiosk of `view` filtered to `section` shows (``PageRenderer/kioskItems(_:section:)``).
    func tiles(of view: PublishedView?, section: String?) -> ChunkedArray<FeedItem> {
        guard let view, view.profile.layout == .table else { return PageRenderer.kioskItems(view, section: section) }
        let (hit, before) = entries.withLockedValue { entries -> (Entry?, Entry?) in
            let kept = entries[section] ?? []
            let before = kept.last { $0.view.epoch == view.epoch && $0.view.seq < view.seq }
            return (kept.first { $0.view === view }, before)
        }
        if let hit { return hit.tiles }
        let statuses = KioskTiles.statusColumns(of: view.profile)
        let items = view.items(inSection: section)
        let trouble =
            if let before, before.statuses == statuses {
                KioskTiles.trouble(
                    before.trouble, after: view.itemChanges(since: before.view).compactMap { $0.filtered(to: section) },
                    statuses: statuses)
            } else {
                KioskTiles.trouble(in: items, statuses: statuses)
            }
        if before == nil || before?.statuses != statuses { readings.withLockedValue { $0 += 1 } }
        let tiles = KioskTiles.ordered(
            KioskTiles.shown(items, trouble: trouble, limit: PageRenderer.kioskTileLimit), profile: view.profile)
        entries.withLockedValue { entries in
            if entries.count >= Self.capacity && entries[section] == nil { entries.removeAll() }
            var kept = entries[section] ?? []
            kept.append(Entry(view: view, statuses: statuses, trouble: trouble, tiles: tiles))
            if kept.count > 2 { kept.removeFirst(kept.count - 2) }
            entries[section] = kept
        }
        return tiles
    }
}
