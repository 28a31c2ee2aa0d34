import FeedCore

/// The columns a table of a profile's items shows, and the one that links to each item.
enum TableColumns {
    /// The profile's columns (`--column`, or those found in the items); for a news profile
    /// without any, its title, section, byline and publication time.
    static func columns(of profile: ItemProfile) -> [ItemColumn] {
        if !profile.columns.isEmpty { return profile.columns }
        let news: [(ItemProfile.Field, String, ItemColumn.Format)] = [
            (.title, "Title", .text), (.section, "Section", .text), (.byline, "Byline", .text),
            (.published, "Published", .relative),
        ]
        return news.compactMap { field, label, format in
            profile.fields[field].map { ItemColumn(label: label, pointer: $0, format: format, name: field.rawValue) }
        }
    }

    /// The names of the profile's columns in a kiosk tile's order (``columns(of:)``), which
    /// decides the figure a tile is led by (``RowView/lead``); a table's row marks that
    /// figure's cell by it.
    static func tileOrder(of profile: ItemProfile) -> [String] {
        columns(of: profile).map(\.name)
    }

    /// The columns in the order a table shows them (`/`, a board's list, the item page): the
    /// profile's (``columns(of:)``), but
    /// - the column that names the item, found past the first three or after a link, comes
    ///   first;
    /// - a status the table is filtered by, found past the first three, comes right after the
    ///   column that names the item when that is one of the first three, else second (a pod's
    ///   `Phase` after its name, a charge's `Status` after its id, where a laptop's screen
    ///   shows it);
    /// - tallies across an array's objects (a pod's `Ready` and `Restarts`) come right after
    ///   that status, as `kubectl get pods` shows them beside it;
    /// - a column of the item's own UUIDs (`uid`, `uuid`, `guid`), which no one reads and
    ///   which is as wide as a sentence, comes last, unless it names the item;
    /// - a column that says little (the same value in every item it was found in, no status:
    ///   a ticker's `type: ticker`, ``ItemColumn/saysLittle``) comes after the others but
    ///   those UUIDs, unless it names the item, as on a kiosk's tiles.
    ///
    /// Columns given (`--column`) are shown in exactly their order; a kiosk's tiles keep the
    /// profile's order, which decides their lead.
    static func shown(of profile: ItemProfile) -> [ItemColumn] {
        let columns = columns(of: profile)
        guard !profile.columnsAreGiven else { return columns }
        // The column that names the item is the same whatever the order.
        let link = linkColumn(of: columns, profile: profile)
        let linked = columns.indices.contains(link) ? columns[link].pointer : nil
        let ordered = talliesBesideStatus(
            statusNearStart(uuidsLast(namingFirst(columns, profile), linked: linked), profile), profile)
        return uuidsLast(littleLast(ordered, linked: linked, profile), linked: linked)
    }

    /// `columns` with those that say little after the rest, unless one names the item (its
    /// pointer `linked`); a key put last (a snowflake id, a build's UUID) stays last.
    private static func littleLast(
        _ columns: [ItemColumn], linked: JSONPointer?, _ profile: ItemProfile
    ) -> [ItemColumn] {
        let isLittle = { (column: ItemColumn) in column.saysLittle && column.pointer != linked }
        guard let last = columns.last, last.pointer == profile.keyPath, !isLittle(last) else {
            return columns.filter { !isLittle($0) } + columns.filter(isLittle)
        }
        let others = columns.dropLast()
        return others.filter { !isLittle($0) } + others.filter(isLittle) + [last]
    }

    /// `columns` with the one that names the item first, when it is past the third (a
    /// Buildkite build's `message`) or a link comes before it (a GitHub issue's `html_url`
    /// before its `number` and `title`).
    private static func namingFirst(_ columns: [ItemColumn], _ profile: ItemProfile) -> [ItemColumn] {
        let link = linkColumn(of: columns, profile: profile)
        guard link > 2 || columns.prefix(link).contains(where: { $0.format == .link }) else { return columns }
        var moved = columns
        moved.insert(moved.remove(at: link), at: 0)
        return moved
    }

    /// `columns` with the item's own UUIDs (by their name) last, unless they name the item
    /// (its pointer `linked`).
    private static func uuidsLast(_ columns: [ItemColumn], linked: JSONPointer?) -> [ItemColumn] {
        let isUUIDs = { (column: ItemColumn) in column.pointer != linked && isUUIDName(column.pointer.tokens.last ?? "")
        }
        return columns.filter { !isUUIDs($0) } + columns.filter(isUUIDs)
    }

    /// `columns` with the status the table is filtered by, when past the third, right after
    /// the column that names the item when that is among the first three, else second.
    private static func statusNearStart(_ columns: [ItemColumn], _ profile: ItemProfile) -> [ItemColumn] {
        guard let filter = filterColumn(of: columns, profile: profile), case .status = filter.format,
            let index = columns.firstIndex(where: { $0.pointer == filter.pointer }), index > 2
        else { return columns }
        let link = linkColumn(of: columns, profile: profile)
        var moved = columns
        moved.remove(at: index)
        moved.insert(filter, at: link < 3 ? link + 1 : 1)
        return moved
    }

    /// `columns` with the tallies (a pod's `Ready`, `Restarts`) right after the status the
    /// table is filtered by.
    private static func talliesBesideStatus(_ columns: [ItemColumn], _ profile: ItemProfile) -> [ItemColumn] {
        func isTally(_ column: ItemColumn) -> Bool { if case .tally = column.format { true } else { false } }
        guard let filter = filterColumn(of: columns, profile: profile), case .status = filter.format,
            columns.contains(where: isTally)
        else { return columns }
        var moved = columns.filter { !isTally($0) }
        let after = (moved.firstIndex { $0.pointer == filter.pointer } ?? 0) + 1
        moved.insert(contentsOf: columns.filter(isTally), at: after)
        return moved
    }

    /// Whether a member named `name` holds UUIDs by its name: `uid`, `uuid`, `guid`, or
    /// ending in one after `_` (`pod_uid`).
    private static func isUUIDName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["uid", "uuid", "guid"].contains { lower == $0 || lower.hasSuffix("_" + $0) }
    }

    /// The column named `name`: by its URL name, else by the last token of its pointer.
    static func column(named name: String, in columns: [ItemColumn]) -> ItemColumn? {
        columns.first { $0.name == name } ?? columns.first { $0.pointer.tokens.last == name }
    }

    /// The column of the profile's filter (``ItemProfile/Field/section``), when it is shown.
    static func filterColumn(of columns: [ItemColumn], profile: ItemProfile) -> ItemColumn? {
        profile.fields[.section].flatMap { pointer in columns.first { $0.pointer == pointer } }
    }

    /// A value of the profile's filter as its column shows it (a status `major_outage` as
    /// "major outage"), for a heading, a breadcrumb or a kiosk's name; `value` itself when
    /// the filter is not a shown column of that kind.
    static func filterText(_ value: String, profile: ItemProfile) -> String {
        CellFormatting.filterValue(value, of: filterColumn(of: shown(of: profile), profile: profile))
    }

    /// The index of the column whose cell links to the item's page: the one showing the
    /// profile's title (or the list it is the first of: a Docker container's `Names`, whose
    /// first names it; or the first member of the object it is: a Prometheus target's
    /// `labels`, its `instance`), else the first.
    static func linkColumn(of columns: [ItemColumn], profile: ItemProfile) -> Int {
        guard let title = profile.fields[.title] else { return 0 }
        if let index = columns.firstIndex(where: { $0.pointer == title }) { return index }
        if let index = columns.firstIndex(where: { $0.pointer.tokens.dropLast() == title.tokens[...] }) {
            return index
        }
        guard title.tokens.last == "0" else { return 0 }
        let list = JSONPointer(tokens: Array(title.tokens.dropLast()))
        return columns.firstIndex { $0.pointer == list } ?? 0
    }
}
