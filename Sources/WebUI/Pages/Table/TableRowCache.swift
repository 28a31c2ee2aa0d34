import FeedCore
import Foundation

/// The HTML of table rows as the `tableRow` template rendered them lately
/// (``FragmentCache``), so that a page of 1,000 rows renders through the templates only the
/// rows that changed since it was last rendered (one a change, as a feed of prices moves),
/// not all 1,000. A generation holds two pages of a table (``TableQuery/pageSize``) by
/// default: a page of 1,000 rows fits in one; the items held are at most about four times
/// a page's.
typealias TableRowCache = FragmentCache<TableRowShape>

/// What a table row's HTML depends on besides its item and the relative times it says.
struct TableRowShape: Equatable, Sendable {
    /// The template set's version (``TemplateSet/version``).
    let templates: String
    let columns: [ItemColumn]
    let linkColumn: Int
    /// ``TableColumns/tileOrder(of:)``: which cell is marked as the tile's lead.
    let tileOrder: [String]
    /// Where its link to the item's page points.
    let links: PageLinks
    /// `now`'s year in UTC: a title that is a moment leaves its year out when it is
    /// this one (``CellFormatting/momentTitle(_:now:)``).
    let year: Int
}

extension FragmentCache where Shape == TableRowShape {
    convenience init(generationRows: Int = 2 * TableQuery.pageSize, generationBytes: Int = 4 << 20) {
        self.init(rows: generationRows, bytes: generationBytes)
    }

    /// Each of `items`' row, in their order: kept HTML where it still holds, else what
    /// `render` makes (then kept), with its values (none for a kept row).
    func rows(
        _ items: some Collection<FeedItem>, shape: Shape, now: Date, render: (FeedItem) -> (html: String, row: RowView)
    ) -> [(html: String, row: RowView?)] {
        fragments(
            items, shape: shape, now: now,
            render: { item in
                let (html, row) = render(item)
                return (html, row)
            }
        ) { row, item in
            Self.relativeTexts(of: row, item: item, shape: shape)
        }.map { ($0.html, $0.made) }
    }

    /// The times `row` says relative to `now`, with their words: its cells that show a
    /// moment as time since (``CellView/relative``), whose dates are read again from `item`
    /// as ``CellView`` read them (the cells are in `shape`'s column order). `nil` when one
    /// cannot be read again: then the row is not kept.
    private static func relativeTexts(of row: RowView, item: FeedItem, shape: Shape) -> [RelativeText]? {
        var texts: [RelativeText] = []
        for (cell, column) in zip(row.cells, shape.columns) where cell.isTime && cell.relative {
            guard let value = item.raw.value(at: column.pointer),
                let date = CellFormatting.date(value, localTimeOffset: column.localTimeOffset)
            else { return nil }
            texts.append(RelativeText(date: date, text: cell.text))
        }
        return texts
    }
}
