import FeedCore
import Foundation

/// What the page script (`Public/app.js`) needs of the templates' output, checked for each
/// template a `--templates` folder replaces by rendering it with a sample item: each entry
/// of a list, a table or a kiosk is ONE element with `id="item-KEY"` (the page stream swaps
/// entries by it); the list's, the table's and the kiosk's entries are inside
/// `id="stories"`; the item page's article is `id="detail"`; the badge is `id="status"`;
/// a page loads `/static/app.js` and says its view in `data-stream`, and loads
/// `/static/times.js` (`Public/times.js`) before it. A template that
/// breaks one is named in a warning (the log, `/inspect`), not refused: the page still
/// renders, only its live updates may not find their place.
enum TemplateContract {
    /// One rule: the templates it applies to, and what their output must contain.
    private struct Rule {
        let templates: [String]
        let needs: [String]
        let why: String
        /// What the page loses without it.
        var loss = "so live updates of this part will not show"
    }

    private static let rules: [Rule] = [
        Rule(
            templates: ["story", "kioskStory", "tableRow", "kioskTile"], needs: ["id=\"item-\(sampleKey)\""],
            why: "the page stream replaces each entry by its id, item-{{key}}"),
        Rule(
            templates: ["list", "table", "kiosk"], needs: ["id=\"stories\""],
            why: "the page stream puts entries into the element with id stories"),
        Rule(
            templates: ["detail", "detailTable"], needs: ["id=\"detail\""],
            why: "the page stream replaces the item's article, id detail"),
        Rule(
            templates: ["badge", "kioskStatus"], needs: ["id=\"status\""],
            why: "the page stream replaces the status badge, id status"),
        Rule(
            templates: ["layout", "kiosk"], needs: ["/static/app.js", "data-stream="],
            why: "a page is live only with /static/app.js and its view in data-stream"),
        Rule(
            templates: ["layout", "kiosk"], needs: ["/static/times.js"],
            why: "it shows dates in the viewer's zone and keeps \"5 min ago\" counting",
            loss: "so dates stay in UTC and relative times as the server rendered them"),
    ]

    static let sampleKey = "sample-key"

    /// A warning for each rule a replaced template breaks, naming the template.
    static func problems(in set: TemplateSet, replaced: [String]) -> [String] {
        let outputs = samples(set)
        var problems: [String] = []
        for rule in rules {
            for name in rule.templates where replaced.contains(name) {
                guard let output = outputs[name] else { continue }
                let missing = rule.needs.filter { !output.contains($0) }
                if !missing.isEmpty {
                    problems.append(
                        "\(name).mustache renders no \(missing.joined(separator: " and ")): \(rule.why), "
                            + rule.loss)
                }
            }
        }
        for name in ["story", "kioskStory", "tableRow", "kioskTile"] where replaced.contains(name) {
            let trimmed = (outputs[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.hasPrefix("<") || !trimmed.hasSuffix(">") {
                problems.append(
                    "\(name).mustache must render one element (it renders \(trimmed.prefix(40).debugDescription)…): "
                        + "the page stream swaps whole elements")
            }
        }
        return problems
    }

    /// The output of each checked template for a sample item.
    private static func samples(_ set: TemplateSet) -> [String: String] {
        let now = Date()
        var item = FeedItem(key: sampleKey)
        item.title = "Sample"
        item.section = "Sample section"
        item.raw = .object(["id": .string(sampleKey), "title": .string("Sample"), "value": .int(1)])
        var table = ItemProfile.table
        table.columns = [ItemColumn(label: "Value", pointer: JSONPointer(tokens: ["value"]))]
        let renderer = PageRenderer(assetVersion: "contract", templates: set)
        let story = StoryView(item, now: now, links: renderer.links)
        let row = RowView(item, columns: table.columns, linkColumn: 0, now: now, links: renderer.links)
        let badge = PageRenderer.BadgeContext(
            badge: PageRenderer.BadgeView(kind: "live", label: "Live"), updatedMachine: nil, updatedText: nil)
        let view = PublishedView(
            epoch: "contract", seq: 1, version: nil, items: [item], reading: .given(.nytNewswire))
        let tableView = PublishedView(epoch: "contract", seq: 1, version: nil, items: [item], reading: .given(table))
        let badgeState = StatusBadge(kind: .live, since: now)
        return [
            "story": set.render(story, "story"),
            "kioskStory": set.render(PageRenderer.KioskStoryView(story: story, featured: false), "kioskStory"),
            "tableRow": set.render(row, "tableRow"),
            "kioskTile": set.render(PageRenderer.KioskTileView(row: row, featured: false), "kioskTile"),
            "detail": renderer.detailFragment(item, profile: .nytNewswire, now: now),
            "detailTable": renderer.detailFragment(item, profile: table, now: now),
            "badge": set.render(badge, "badge"),
            "kioskStatus": set.render(badge, "kioskStatus"),
            "list": String(
                decoding: renderer.list(view: view, section: nil, badge: badgeState, source: "", now: now),
                as: UTF8.self),
            "table": String(
                decoding: renderer.table(
                    view: tableView, profile: table, query: TableQuery(), badge: badgeState, source: "", now: now),
                as: UTF8.self),
            "kiosk": String(
                decoding: renderer.kiosk(view: view, section: nil, badge: badgeState, now: now), as: UTF8.self),
            "layout": String(
                decoding: renderer.list(view: view, section: nil, badge: badgeState, source: "", now: now),
                as: UTF8.self),
        ]
    }
}
