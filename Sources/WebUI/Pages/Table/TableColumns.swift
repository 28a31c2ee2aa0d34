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

    /// The columns in the order a table shows them (`/`, a board's list, the item page): the
    /// profile's (``columns(of:)``), but a status the table is filtered by, found past the
    /// first three, comes right after the column that names the item when that is one of the
    /// first three, else second (a pod's `Phase` after its name, a charge's `Status` after its
    /// id, where a laptop's screen shows it). A kiosk's tiles keep the profile's order, which
    /// decides their lead.
    static func shown(of profile: ItemProfile) -> [ItemColumn] {
        var columns = columns(of: profile)
        guard let filter = filterColumn(of: columns, profile: profile), case .status = filter.format,
            let index = columns.firstIndex(where: { $0.pointer == filter.pointer }), index > 2
        else { return columns }
        let link = linkColumn(of: columns, profile: profile)
        columns.remove(at: index)
        columns.insert(filter, at: link < 3 ? link + 1 : 1)
        return columns
    }

    /// The column named `name`: by its URL name, else by the last token of its pointer.
    static func column(named name: String, in columns: [ItemColumn]) -> ItemColumn? {
        columns.first { $0.name == name } ?? columns.first { $0.pointer.tokens.last == name }
    }

    /// The column of the profile's filter (``ItemProfile/Field/section``), when it is shown.
    static func filterColumn(of columns: [ItemColumn], profile: ItemProfile) -> ItemColumn? {
        profile.fields[.section].flatMap { pointer in columns.first { $0.pointer == pointer } }
    }

    /// The index of the column whose cell links to the item's page: the one showing the
    /// profile's title (or the list it is the first of: a Docker container's `Names`, whose
    /// first names it), else the first.
    static func linkColumn(of columns: [ItemColumn], profile: ItemProfile) -> Int {
        guard let title = profile.fields[.title] else { return 0 }
        if let index = columns.firstIndex(where: { $0.pointer == title }) { return index }
        guard title.tokens.last == "0" else { return 0 }
        let list = JSONPointer(tokens: Array(title.tokens.dropLast()))
        return columns.firstIndex { $0.pointer == list } ?? 0
    }
}
