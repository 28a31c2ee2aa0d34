import FeedCore
import Foundation

/// `/` for items that are not news, as the templates see it (``Templates/table``): the
/// columns with their sort links, one page of rows, the filter's values, the pager, and
/// what the document holds instead of items when it holds none.
struct TableView {
    struct Head {
        let name: String
        let label: String
        let numeric: Bool
        /// The page sorted by this column (ascending; descending when it already is).
        let href: String
        /// `aria-sort`: `ascending`, `descending` or `none`.
        let sort: String
        /// `▲` or `▼` beside the column sorted by, else `nil`.
        let arrow: String?
    }

    /// One row of the page: its HTML as the `tableRow` template renders it (kept from an
    /// earlier page where it still holds: ``TableRowCache``), and its values for a `table`
    /// template that writes its rows itself, made only when a template reads one.
    ///
    /// Not thread-safe: made and read by one render.
    final class Row {
        let html: String
        private var made: RowView?
        private let make: () -> RowView

        init(html: String, row: RowView?, make: @escaping () -> RowView) {
            self.html = html
            made = row
            self.make = make
        }

        /// The row's values (``RowView``), made at the first read.
        var row: RowView {
            if let made { return made }
            let row = make()
            made = row
            return row
        }
    }

    /// Makes the rows of `items`, shown in `columns` with the item linked from
    /// `linkColumn` (``PageRenderer/tableRows(_:columns:linkColumn:tileOrder:now:)``).
    typealias MakeRows = (_ items: ChunkedArray<FeedItem>, _ columns: [ItemColumn], _ linkColumn: Int) -> [Row]

    /// The filter value shown (its words, ``CellFormatting/filterValue(_:of:)``), else the
    /// heading given for the whole table.
    let heading: String
    let countText: String
    /// The filter's name (the column of ``sections``' values), e.g. `status`.
    let filterLabel: String
    let section: String?
    let allHref: String
    let sections: [PageRenderer.SectionLink]
    let hasSections: Bool
    let columns: [Head]
    let rows: [Row]
    let emptyText: String
    let problem: String?
    let hasProblem: Bool
    /// "Rows 1,001–2,000 of 12,345", when there is more than one page.
    let pageText: String?
    let previousHref: String?
    let nextHref: String?
    let hasPages: Bool

    /// `links`: where its links to pages of the table point (``PageLinks``).
    init(
        view: PublishedView?, profile: ItemProfile, query: TableQuery, unfilteredHeading: String, waitingText: String?,
        links: PageLinks, makeRows: MakeRows
    ) {
        let columns = TableColumns.shown(of: profile)
        let linkColumn = TableColumns.linkColumn(of: columns, profile: profile)
        let (rows, total) = query.rows(of: view, columns: columns)
        let filterColumn = TableColumns.filterColumn(of: columns, profile: profile)
        heading = query.section.map { CellFormatting.filterValue($0, of: filterColumn) } ?? unfilteredHeading
        countText = view == nil ? "" : PageRenderer.countText(total, layout: .table)
        filterLabel = filterColumn?.label ?? profile.fields[.section]?.tokens.last ?? "Filter"
        section = query.section
        allHref =
            links.origin
            + query.href {
                $0.section = nil
                $0.page = 1
            }
        let values = (view?.sections ?? []).sorted()
        sections = values.map { value in
            PageRenderer.SectionLink(
                name: CellFormatting.filterValue(value, of: filterColumn),
                href: links.origin
                    + query.href {
                        $0.section = value
                        $0.page = 1
                    }, current: value == query.section)
        }
        hasSections = !values.isEmpty
        self.columns = Self.heads(of: columns, profile: profile, query: query, links: links)
        self.rows = makeRows(rows, columns, linkColumn)
        problem = view?.itemsProblem
        hasProblem = problem != nil
        if let waitingText {
            emptyText = waitingText
        } else if query.section != nil {
            emptyText = "No items with this value right now."
        } else {
            emptyText = problem == nil ? "The feed has no items right now." : "No items to show."
        }
        let pages = max(1, (total + TableQuery.pageSize - 1) / TableQuery.pageSize)
        hasPages = pages > 1
        if pages > 1 {
            let first = (query.page - 1) * TableQuery.pageSize
            let shown = rows.count
            pageText =
                shown == 0
                ? "Page \(query.page) of \(pages): no rows here"
                : "Rows \(Self.number(first + 1))–\(Self.number(first + shown)) of \(Self.number(total)), page \(query.page) of \(pages)"
            previousHref = query.page > 1 ? links.origin + query.href { $0.page = min(query.page - 1, pages) } : nil
            nextHref = query.page < pages ? links.origin + query.href { $0.page = query.page + 1 } : nil
        } else {
            pageText = nil
            previousHref = nil
            nextHref = nil
        }
    }

    /// The header of `columns` on the page `query` asks for: each column's label, whether
    /// the table is sorted by it, and its link to the page sorted by it (ascending; descending
    /// when it already is), on `links`' origin. The `table` page's and the page stream's
    /// `#columns` (``PageRenderer/tableHead(profile:query:)``).
    static func heads(of columns: [ItemColumn], profile: ItemProfile, query: TableQuery, links: PageLinks) -> [Head] {
        let sorted = query.effectiveSort(columns: columns, profile: profile)
        return columns.map { column in
            let current = sorted?.column.name == column.name ? sorted?.sort : nil
            return Head(
                name: column.name, label: column.label, numeric: column.format.isNumeric,
                href: links.origin
                    + query.href { query in
                        query.sort = ItemSort(column: column.name, descending: current.map { !$0.descending } ?? false)
                        query.page = 1
                    },
                sort: current.map { $0.descending ? "descending" : "ascending" } ?? "none",
                arrow: current.map { $0.descending ? "▼" : "▲" })
        }
    }

    static func number(_ value: Int) -> String {
        CellFormatting.grouped(.int(Int64(value)), Double(value))
    }
}
