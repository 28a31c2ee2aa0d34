import FeedCore
import Foundation

/// `/items/{key}` for an item that is not news: its name, its columns' values formatted
/// (but a value that is the name, word for word, which the heading already says: a pod's
/// `name`, a post's words), then every member of its own JSON (``ItemFieldsHTML``).
struct TableDetailView {
    let key: String
    let title: String
    /// The item's filter value as the table shows it (``TableColumns/filterText(_:profile:)``).
    let section: String?
    let sectionHref: String?
    /// The list, the breadcrumb's first link (``PageLinks/home``).
    let homeHref: String
    /// The item's original (its `url` field), when it has a safe one.
    let original: String?
    let cells: [CellView]
    /// Built and escaped by ``ItemFieldsHTML``.
    let fields: String
    /// The item's own JSON (`{{item.price}}`).
    let item: TemplateJSON

    init(_ item: FeedItem, profile: ItemProfile, now: Date, links: PageLinks) {
        key = item.key
        self.item = TemplateJSON(item.raw)
        title = CellFormatting.itemName(item)
        section = item.section.map { TableColumns.filterText($0, profile: profile) }
        sectionHref = item.section.map(links.section)
        homeHref = links.home
        original = links.safeURL(item.url)
        let title = self.title
        cells = CellView.finishing(
            TableColumns.shown(of: profile).map {
                CellView(column: $0, item: item, now: now, links: links, shortened: false)
            }
            .filter { !($0.isPlain && $0.text == title) })
        fields = ItemFieldsHTML.render(item.raw)
    }
}
