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

    /// The column named `name`: by its URL name, else by the last token of its pointer.
    static func column(named name: String, in columns: [ItemColumn]) -> ItemColumn? {
        columns.first { $0.name == name } ?? columns.first { $0.pointer.tokens.last == name }
    }

    /// The column of the profile's filter (``ItemProfile/Field/section``), when it is shown.
    static func filterColumn(of columns: [ItemColumn], profile: ItemProfile) -> ItemColumn? {
        profile.fields[.section].flatMap { pointer in columns.first { $0.pointer == pointer } }
    }

    /// The index of the column whose cell links to the item's page: the one showing the
    /// profile's title, else the first.
    static func linkColumn(of columns: [ItemColumn], profile: ItemProfile) -> Int {
        guard let title = profile.fields[.title] else { return 0 }
        return columns.firstIndex { $0.pointer == title } ?? 0
    }
}
