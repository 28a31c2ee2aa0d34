import FeedCore

/// The items a kiosk of a table shows as tiles, when the feed has more than it has room for.
///
/// The choice is made from the items in trouble (``Trouble``): found by a pass over every
/// item for a view on its own (``trouble(in:statuses:)``), or kept from the view before by
/// its item changes (``trouble(_:after:statuses:)``: what a page stream does each frame,
/// ``KioskTilesMemo``), so that a change costs the items it changed and not a status read
/// of every item (22 ms a frame at 10,000 calm rows before: BENCHMARKS.md, "A kiosk of
/// 10,000 rows").
enum KioskTiles {
    /// The items whose statuses call for attention, by key (a view's keys are unique:
    /// ``MirrorItems`` and ``ItemExtractor`` keep the first of repeated keys): `.bad` or
    /// `.busy`, the most pressing of their status columns. A calm item is not in it.
    typealias Trouble = [String: ItemColumn.Tone]

    /// The columns of `profile` whose values can be statuses: a kiosk chooses by these.
    static func statusColumns(of profile: ItemProfile) -> [ItemColumn] {
        TableColumns.columns(of: profile).filter { column in
            switch column.format {
            case .status, .condition: true
            default: column.formatNamedBy != nil
            }
        }
    }

    /// The items of `items` in trouble, read from their `statuses` columns.
    static func trouble(in items: ChunkedArray<FeedItem>, statuses: [ItemColumn]) -> Trouble {
        guard !statuses.isEmpty else { return [:] }
        var trouble: Trouble = [:]
        for item in items {
            if let need = need(of: item, statuses: statuses) { trouble[item.key] = need }
        }
        return trouble
    }

    /// `before`, the trouble of a view, made the trouble of the view after it: `changes`
    /// are every item change between the two (those of the kiosk's section), and only the
    /// items they name are read.
    static func trouble(_ before: Trouble, after changes: [ItemChange], statuses: [ItemColumn]) -> Trouble {
        guard !statuses.isEmpty else { return [:] }
        var trouble = before
        for change in changes {
            switch change.kind {
            case .added, .updated: trouble[change.item.key] = need(of: change.item, statuses: statuses)
            case .removed: trouble[change.item.key] = nil
            }
        }
        return trouble
    }

    /// At most `limit` of `items` (feed order), in feed order: all of them when they fit;
    /// else those in `trouble` (the items' own), a bad one before a busy one (a host `down`
    /// before a job `pending`), and then the first of the rest. A wall of 48 hosts shows the
    /// three that are down among the first that are up; a table without a status shows its
    /// first `limit`. A screen nobody touches cannot page to the trouble.
    ///
    /// Reads the items in feed order only until it has found every one it shows: the counts
    /// in `trouble` say how many bad and busy ones there are to find.
    static func shown(_ items: ChunkedArray<FeedItem>, trouble: Trouble, limit: Int) -> ChunkedArray<FeedItem> {
        guard items.count > limit else { return items }
        guard !trouble.isEmpty else { return ChunkedArray(items.prefix(limit)) }
        let badCount = trouble.values.count { $0 == .bad }
        // The first `limit` bad ones, then the first busy ones while there is room, then the
        // first calm ones while there is room.
        var badLeft = min(badCount, limit)
        var busyLeft = min(trouble.count - badCount, limit - badLeft)
        var calmLeft = limit - badLeft - busyLeft
        var shown: [FeedItem] = []
        shown.reserveCapacity(limit)
        for item in items {
            switch trouble[item.key] {
            case .bad? where badLeft > 0:
                badLeft -= 1
                shown.append(item)
            case .busy? where busyLeft > 0:
                busyLeft -= 1
                shown.append(item)
            case nil where calmLeft > 0:
                calmLeft -= 1
                shown.append(item)
            default:
                break
            }
            if badLeft == 0 && busyLeft == 0 && calmLeft == 0 { break }
        }
        return ChunkedArray(shown)
    }

    /// `tiles` in the order `--sort` asks for (``ItemProfile/sort``), when it names a column:
    /// a ticker's tiles then stay in place as its prices change, rather than the newest
    /// first. Only the tiles shown are sorted (at most ``PageRenderer/kioskTileLimit``), not
    /// the feed: which tiles are shown is still decided by feed order and trouble.
    static func ordered(_ tiles: ChunkedArray<FeedItem>, profile: ItemProfile) -> ChunkedArray<FeedItem> {
        guard let sort = profile.sort,
            let column = TableColumns.column(named: sort.column, in: TableColumns.columns(of: profile))
        else { return tiles }
        return ChunkedArray(TableSorting.sorted(tiles, by: column, descending: sort.descending))
    }

    /// ``shown(_:trouble:limit:)`` for `items` read with `profile`, their trouble found by
    /// reading every one (a page rendered on its own).
    static func shown(_ items: ChunkedArray<FeedItem>, profile: ItemProfile, limit: Int) -> ChunkedArray<FeedItem> {
        guard items.count > limit else { return items }
        return shown(items, trouble: trouble(in: items, statuses: statusColumns(of: profile)), limit: limit)
    }

    /// The most pressing tone among `item`'s values in the `statuses` columns: `.bad` before
    /// `.busy`, else `nil` (calm: good, neutral or no status).
    private static func need(of item: FeedItem, statuses: [ItemColumn]) -> ItemColumn.Tone? {
        var need: ItemColumn.Tone?
        for column in statuses {
            switch CellView.statusTone(of: item, column: column) {
            case .bad: return .bad
            case .busy: need = .busy
            default: break
            }
        }
        return need
    }
}
