import Mustache

/// The page templates, compiled once. Mustache escapes every `{{value}}` for HTML
/// (`& < > " '`), which is safe in text and in quoted attributes; `{{{…}}}` appears only
/// where the value is HTML that these templates rendered themselves.
enum Templates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        let sources: [(String, String)] = [
            ("layout", layout), ("pastBanner", pastBanner), ("badge", badge), ("list", list), ("story", story),
            ("detail", detail), ("error", error), ("kiosk", kiosk), ("kioskStory", kioskStory),
            ("kioskStatus", kioskStatus), ("stats", stats), ("statsTicker", statsTicker),
            ("statsSummary", statsSummary), ("statsChart", statsChart), ("statsEvents", statsEvents),
            ("inspect", inspect), ("inspectItems", inspectItems), ("inspectTree", inspectTree),
            ("inspectEvents", inspectEvents),
            ("inspectExchanges", inspectExchanges), ("inspectScreens", inspectScreens), ("table", table),
            ("tableRow", tableRow), ("cell", cell), ("kioskTile", kioskTile), ("detailTable", detailTable),
        ]
        for (name, source) in sources {
            do {
                try library.register(source, named: name)
            } catch {
                // The templates are constants of this program: a parse error is a bug
                // that the tests catch, not a runtime condition.
                preconditionFailure("template \(name) does not parse: \(error)")
            }
        }
        return library
    }()
}
