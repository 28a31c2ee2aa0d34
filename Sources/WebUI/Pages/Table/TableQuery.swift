import FeedCore

/// What one table view shows: the items of a filter value (`?section=`), in an order
/// (`?sort=NAME&order=asc|desc`, else the profile's `--sort`, else feed order), one page
/// of ``pageSize`` rows (`?page=N`).
///
/// Its page-stream name (``spec``) is `table`, then `+sort=NAME`, `+desc` and `+page=N`
/// where they are not the defaults, then `:SECTION`: `table+sort=price+desc:Tech`. Column
/// names are URL names (``ItemColumn/name``: no `+` or `:`), so the section is everything
/// after the first `:`.
struct TableQuery: Hashable, Sendable {
    /// The rows one page shows.
    static let pageSize = 1000

    var section: String?
    /// `nil`: the profile's sort, else feed order.
    var sort: ItemSort?
    /// From 1.
    var page = 1

    init(section: String? = nil, sort: ItemSort? = nil, page: Int = 1) {
        self.section = section
        self.sort = sort
        self.page = max(1, page)
    }

    /// The view's name in a page (`data-stream`) and in the page stream's `v` parameter.
    var spec: String {
        var kind = "table"
        if let sort {
            kind += "+sort=" + sort.column
            if sort.descending { kind += "+desc" }
        }
        if page > 1 { kind += "+page=\(page)" }
        return section.map { kind + ":" + $0 } ?? kind
    }

    /// The query named `spec` (``spec``'s form); `nil` for any other text.
    init?(spec: String) {
        let kind = spec.prefix { $0 != ":" }
        let rest = spec.dropFirst(kind.count + 1)
        var parts = kind.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.first == "table" else { return nil }
        parts.removeFirst()
        var sort: ItemSort?
        var page = 1
        for part in parts {
            if part.hasPrefix("sort="), sort == nil {
                let name = String(part.dropFirst(5))
                guard !name.isEmpty else { return nil }
                sort = ItemSort(column: name, descending: false)
            } else if part == "desc", sort?.descending == false {
                sort?.descending = true
            } else if part.hasPrefix("page="), let number = Int(part.dropFirst(5)), number >= 1, number <= 1_000_000 {
                page = number
            } else {
                return nil
            }
        }
        self.init(section: rest.isEmpty ? nil : String(rest), sort: sort, page: page)
    }

    /// Why a table's URL parameters do not make a query: the parameter and what is wrong.
    struct Problem: Error, Equatable {
        let parameter: String
        let message: String
    }

    /// The query of a request for a table with `columns`: `?section=`, `?sort=` (a column's
    /// name), `?order=asc|desc` (of `defaultSort`, the profile's, without `?sort=`),
    /// `?page=N`.
    init(request: HTTPRequest, columns: [ItemColumn], defaultSort: ItemSort?) throws(Problem) {
        var sort: ItemSort?
        if let name = request.query("sort"), !name.isEmpty {
            guard let column = TableColumns.column(named: name, in: columns) else {
                let names = columns.map(\.name).joined(separator: ", ")
                throw Problem(parameter: "sort", message: "There is no column '\(name)' to sort by. Columns: \(names).")
            }
            sort = ItemSort(column: column.name, descending: false)
        }
        if let order = request.query("order"), !order.isEmpty {
            if sort == nil { sort = defaultSort }
            switch order {
            case "asc": sort?.descending = false
            case "desc": sort?.descending = true
            default: throw Problem(parameter: "order", message: "order must be asc or desc, not '\(order)'.")
            }
        }
        var page = 1
        if let text = request.query("page"), !text.isEmpty {
            guard let number = Int(text), number >= 1, number <= 1_000_000 else {
                throw Problem(parameter: "page", message: "page must be a whole number from 1, not '\(text)'.")
            }
            page = number
        }
        self.init(section: request.sectionFilter, sort: sort, page: page)
    }

    /// The sort in effect: the query's, else the profile's default, when it names a column.
    func effectiveSort(columns: [ItemColumn], profile: ItemProfile) -> (sort: ItemSort, column: ItemColumn)? {
        guard let sort = sort ?? profile.sort, let column = TableColumns.column(named: sort.column, in: columns)
        else { return nil }
        return (sort, column)
    }

    /// The items this query shows of `view`: the section's, sorted, this page of them; and
    /// how many the section has in all.
    func rows(of view: PublishedView?, columns: [ItemColumn]) -> (rows: ChunkedArray<FeedItem>, total: Int) {
        guard let view else { return ([], 0) }
        let items = view.items(inSection: section)
        let ordered: ChunkedArray<FeedItem>
        if let (sort, column) = effectiveSort(columns: columns, profile: view.profile) {
            ordered = ChunkedArray(TableSorting.sorted(items, by: column, descending: sort.descending))
        } else {
            ordered = items
        }
        let start = (page - 1) * Self.pageSize
        guard start < ordered.count else { return ([], ordered.count) }
        if start == 0 && ordered.count <= Self.pageSize { return (ordered, ordered.count) }
        return (ChunkedArray(ordered.dropFirst(start).prefix(Self.pageSize)), ordered.count)
    }

    /// The page's URL with these parameters, over `path` (`/`), changed by `change`.
    func href(path: String = "/", _ change: (inout TableQuery) -> Void = { _ in }) -> String {
        var query = self
        change(&query)
        var parts: [String] = []
        if let section = query.section { parts.append("section=" + StoryView.queryEscape(section)) }
        if let sort = query.sort {
            parts.append("sort=" + StoryView.queryEscape(sort.column))
            if sort.descending { parts.append("order=desc") }
        }
        if query.page > 1 { parts.append("page=\(query.page)") }
        return parts.isEmpty ? path : path + "?" + parts.joined(separator: "&")
    }
}
