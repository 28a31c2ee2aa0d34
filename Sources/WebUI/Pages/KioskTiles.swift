import FeedCore

/// The items a kiosk of a table shows as tiles, when the feed has more than it has room for.
enum KioskTiles {
    /// At most `limit` of `items` (feed order), in feed order: all of them when they fit;
    /// else those whose statuses call for attention, a bad word before a busy one (a host
    /// `down` before a job `pending`), and then the first of the rest. A wall of 48 hosts
    /// shows the three that are down among the first that are up; a table without a status
    /// shows its first `limit`. A screen nobody touches cannot page to the trouble.
    static func shown(_ items: ChunkedArray<FeedItem>, profile: ItemProfile, limit: Int) -> ChunkedArray<FeedItem> {
        guard items.count > limit else { return items }
        let statuses = TableColumns.columns(of: profile).filter { column in
            switch column.format {
            case .status, .condition: true
            default: column.formatNamedBy != nil
            }
        }
        guard !statuses.isEmpty else { return ChunkedArray(items.prefix(limit)) }
        // Places in feed order: every bad one and every busy one (until there are `limit`
        // bad ones: none after them could be shown).
        var bad: [Int] = []
        var busy: [Int] = []
        for (place, item) in items.enumerated() {
            switch need(of: item, statuses: statuses) {
            case .bad: bad.append(place)
            case .busy: busy.append(place)
            default: break
            }
            if bad.count == limit { break }
        }
        var chosen = Set((bad + busy).prefix(limit))
        var place = 0
        while chosen.count < limit, place < items.count {
            chosen.insert(place)
            place += 1
        }
        return ChunkedArray(items.enumerated().lazy.filter { chosen.contains($0.offset) }.map(\.element))
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
