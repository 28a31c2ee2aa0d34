import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// The HTML of table rows as the `tableRow` template rendered them lately, so that a page
/// of 1,000 rows renders through the templates only the rows that changed since it was last
/// rendered (one a change, as a feed of prices moves), not all 1,000 (BENCHMARKS.md, "A
/// table page of 1,000 rows").
///
/// A row is kept by its item's key with the item it was rendered from, and used again only
///   - for the very same item (``FeedItem/sharesFields(with:)``: a changed item is a new box
///     of fields, and a box that an entry holds is never changed in place),
///   - rendered to the same ``Shape``,
///   - while every time it says relative to `now` ("5 min ago") says the same at the new
///     `now`.
/// So a kept row's HTML is exactly what rendering it again would give.
///
/// Bounded: rows are kept in two generations; when the newer holds ``generationRows`` rows
/// or ``generationBytes`` of HTML, it becomes the older and the older is dropped. So at most
/// twice that is held, with the items the rows were rendered from: an item the feed has
/// since changed or dropped stays until its generation goes (a page of 1,000 rows fits in
/// one generation; the items held are at most about four times a page's).
///
/// A leaf lock: nothing is taken while it is held; rows are checked and rendered outside it.
final class TableRowCache: Sendable {
    /// What a row's HTML depends on besides its item and the relative times it says.
    struct Shape: Equatable, Sendable {
        /// The template set's version (``TemplateSet/version``).
        let templates: String
        let columns: [ItemColumn]
        let linkColumn: Int
        /// `now`'s year in UTC: a title that is a moment leaves its year out when it is
        /// this one (``CellFormatting/momentTitle(_:now:)``).
        let year: Int
    }

    /// One row's HTML, and its values when they were made for it (not for a kept row).
    typealias Rendered = (html: String, row: RowView?)

    /// A time a row says relative to `now`, and the words it said it in.
    private struct RelativeText {
        let date: Date
        let text: String
    }

    private struct Entry {
        /// Held so that its box of fields is never changed in place while the entry is here.
        let item: FeedItem
        let html: String
        let relative: [RelativeText]
    }

    private struct State {
        var shape: Shape?
        var newer: [String: Entry] = [:]
        var older: [String: Entry] = [:]
        /// Bytes of HTML in ``newer`` and in ``older``.
        var newerBytes = 0
        var olderBytes = 0
        /// Rows rendered through the cache, kept or not.
        var rendered = 0

        /// Keeps `entry` in the newer generation, which becomes the older once it holds
        /// `rows` rows or `bytes` bytes.
        mutating func keep(_ entry: Entry, rows: Int, bytes: Int) {
            if let replaced = newer.updateValue(entry, forKey: entry.item.key) {
                newerBytes -= replaced.html.utf8.count
            }
            newerBytes += entry.html.utf8.count
            if newer.count >= rows || newerBytes >= bytes {
                older = newer
                olderBytes = newerBytes
                newer = [:]
                newerBytes = 0
            }
        }
    }

    /// Rows a generation holds before it becomes the older one: two pages of a table
    /// (``TableQuery/pageSize``).
    let generationRows: Int
    /// Bytes of HTML a generation holds before it becomes the older one.
    let generationBytes: Int
    private let state = NIOLockedValueBox(State())

    init(generationRows: Int = 2 * TableQuery.pageSize, generationBytes: Int = 4 << 20) {
        self.generationRows = generationRows
        self.generationBytes = generationBytes
    }

    /// Each of `items`' row, in their order: kept HTML where it still holds, else what
    /// `render` makes (then kept). `render` is called outside the lock, once per row that
    /// was not kept.
    func rows(
        _ items: some Collection<FeedItem>, shape: Shape, now: Date, render: (FeedItem) -> (html: String, row: RowView)
    ) -> [Rendered] {
        let found: [(entry: Entry, isNewer: Bool)?] = state.withLockedValue { state in
            if state.shape != shape { state = State(shape: shape, rendered: state.rendered) }
            return items.map { item in
                if let entry = state.newer[item.key] { return (entry, true) }
                return state.older[item.key].map { ($0, false) }
            }
        }
        var rendered: [Rendered] = []
        rendered.reserveCapacity(found.count)
        var kept: [Entry] = []
        var renders = 0
        for (item, found) in zip(items, found) {
            if let (entry, isNewer) = found, entry.item.sharesFields(with: item),
                entry.relative.allSatisfy({ RelativeTime.describe($0.date, now: now) == $0.text })
            {
                rendered.append((entry.html, nil))
                // A row found in the older generation moves to the newer, so rows in use stay.
                if !isNewer { kept.append(entry) }
                continue
            }
            let (html, row) = render(item)
            renders += 1
            rendered.append((html, row))
            if let relative = Self.relativeTexts(of: row, item: item, shape: shape) {
                kept.append(Entry(item: item, html: html, relative: relative))
            }
        }
        guard !kept.isEmpty || renders > 0 else { return rendered }
        state.withLockedValue { state in
            state.rendered += renders
            // Another shape came meanwhile (a reload of the templates): these are of the old.
            guard state.shape == shape else { return }
            for entry in kept { state.keep(entry, rows: generationRows, bytes: generationBytes) }
        }
        return rendered
    }

    /// Bytes of HTML kept (both generations): at most about twice ``generationBytes``.
    var heldBytes: Int { state.withLockedValue { $0.newerBytes + $0.olderBytes } }

    /// Rows kept (both generations, a row in both counted twice): at most twice
    /// ``generationRows``.
    var heldRows: Int { state.withLockedValue { $0.newer.count + $0.older.count } }

    /// Rows rendered through the cache since it was made (those not kept were).
    var renderedRows: Int { state.withLockedValue { $0.rendered } }

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
