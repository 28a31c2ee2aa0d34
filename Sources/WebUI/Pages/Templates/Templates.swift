/// The built-in page templates: every page, partial and live fragment, by the name a
/// `--templates` folder's `NAME.mustache` replaces it with. Mustache escapes every
/// `{{value}}` for HTML (`& < > " '`), which is safe in text and in quoted attributes;
/// `{{{…}}}` appears only where the value is HTML that feedweb rendered itself.
enum Templates {
    /// Every built-in template, by name, in the order `--export-templates` writes them.
    static let builtins: [(name: String, source: String)] = [
        ("layout", layout), ("pastBanner", pastBanner), ("badge", badge), ("list", list), ("story", story),
        ("detail", detail), ("error", error), ("kiosk", kiosk), ("kioskStory", kioskStory),
        ("kioskStatus", kioskStatus), ("table", table), ("tableHead", tableHead), ("tableRow", tableRow),
        ("cell", cell),
        ("kioskTile", kioskTile), ("detailTable", detailTable), ("stats", stats), ("statsTicker", statsTicker),
        ("statsSummary", statsSummary), ("statsChart", statsChart), ("statsEvents", statsEvents),
        ("inspect", inspect), ("inspectItems", inspectItems), ("inspectTree", inspectTree),
        ("inspectEvents", inspectEvents), ("inspectEvent", inspectEvent), ("inspectExchanges", inspectExchanges),
        ("inspectScreens", inspectScreens),
        ("board", board),
    ]

    /// The names of ``builtins``.
    static let names = Set(builtins.map(\.name))
}
