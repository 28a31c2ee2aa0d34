/// `/inspect`'s list of what named screens showed, read back from the page: by screen name,
/// each entry as `KIND=VALUE` (`view=list stats`, `attention=item-7`, `dim=on`), newest
/// first, values as the page's attributes hold them (escaped).
public enum InspectShowings {
    public static func parse(_ html: String) -> [String: [String]] {
        var screens: [String: [String]] = [:]
        for row in html.components(separatedBy: #"<tr class="inspect-showings" data-screen=""#).dropFirst() {
            let name = String(row.prefix { $0 != "\"" })
            screens[name] = row.components(separatedBy: "</tr>")[0].components(separatedBy: #"<li data-kind=""#)
                .dropFirst().map { entry in
                    let kind = entry.prefix { $0 != "\"" }
                    let value = entry.components(separatedBy: #"data-value=""#).dropFirst().first?.prefix { $0 != "\"" }
                    return kind + "=" + (value ?? "")
                }
        }
        return screens
    }
}
