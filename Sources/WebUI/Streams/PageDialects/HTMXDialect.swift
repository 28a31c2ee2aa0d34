import FeedCore

/// The page stream for htmx 2 and its SSE extension (`dialect=htmx`): a page with
/// `<div hx-ext="sse" sse-connect="/events/page?v=list&dialect=htmx" sse-swap="feedweb"
/// hx-swap="none">` shows feedweb's live elements without feedweb's page script.
///
/// One event per frame of a view, always named ``eventName``, its `data` an HTML body
/// whose every element is an out-of-band swap onto one of feedweb's stable ids, so that one
/// event updates every region it touches (htmx 2 runs out-of-band swaps for any swapped
/// content, and with `hx-swap="none"` nothing else):
/// - a changed entry, the badge, the item's `#detail`, a part of `/stats`: the fragment
///   itself with `hx-swap-oob="true"` (it replaces the element of its id);
/// - entries put in: a wrapper `hx-swap-oob="afterbegin:#stories"` (new on top) or
///   `"afterend:#item-KEY"` (after the entry above), whose children htmx inserts (for
///   any swap but outerHTML it inserts the element's children, not the element);
/// - a removed entry: `<div id="item-KEY" hx-swap-oob="delete"></div>`;
/// - a whole list (a new connection's first event): `hx-swap-oob="innerHTML:#stories"`,
///   and a table's header row in a `<thead hx-swap-oob="innerHTML:#columns">`;
/// - `/inspect`'s event log, row by row: removed, put on top
///   (`afterbegin:#inspect-events-rows`) or swapped, as an entry's table rows are;
/// - the count: `<span id="count" hx-swap-oob="innerHTML">`; the table's `#problem`
///   (in a whole state, and when it changed) and the item's `#gone` notices whole.
/// Table rows are wrapped in `<template>` (a `<tr>` outside a table would be dropped by the
/// HTML parser; htmx swaps what a top-level `<template>` holds) and their wrappers are
/// `<tbody>`s.
///
/// The extension reopens a lost stream as a new `EventSource`, without `Last-Event-ID`, so
/// every connection starts with each view's whole state; the `id` lines are informative.
enum HTMXDialect {
    /// The name of every event: the page's `sse-swap` names it.
    static let eventName = "feedweb"

    /// `frame` as one `feedweb` event (nothing when it has no part).
    static func events(_ frame: PageFrame) -> [UInt8] {
        var body = ""
        func put(_ html: String) {
            body += html
            if !html.hasSuffix("\n") { body += "\n" }
        }
        for part in frame.parts {
            switch part {
            case .entries(let entries): self.entries(entries, put: put)
            case .detail(let html), .status(let html): put(swapped(html))
            case .gone(let text): put(swapped(DialectHTML.gone(text)))
            case .stats(let fragments):
                for fragment in fragments { put(swapped(fragment.html)) }
            case .inspect(let fragments, let rows):
                for fragment in fragments { put(swapped(fragment.html)) }
                if let rows { self.rows(rows, put: put) }
            }
        }
        guard !body.isEmpty else { return [] }
        body.removeLast()  // the last line break, which would make an empty `data:` line
        return SSEEncoder.event(type: eventName, data: body, id: frame.id)
    }

    /// `html` marked to replace the element of its root's id.
    static func swapped(_ html: String) -> String {
        DialectHTML.adding("hx-swap-oob=\"true\"", toRootOf: html)
    }

    /// Table rows edited in place, each wrapped in a `<template>`: removed
    /// (`hx-swap-oob="delete"`), put on top (a `<tbody>` with `afterbegin:` the container),
    /// swapped by id.
    private static func rows(_ rows: PageFrame.Rows, put: (String) -> Void) {
        for id in rows.remove {
            put("<template><tr id=\"\(HTMLEscaping.escape(id))\" hx-swap-oob=\"delete\"></tr></template>")
        }
        if !rows.prepend.isEmpty {
            let swap = HTMLEscaping.escape("afterbegin:" + DialectHTML.selector(id: rows.container))
            put(
                "<template><tbody hx-swap-oob=\"\(swap)\">" + rows.prepend.map(\.html).joined() + "</tbody></template>")
        }
        for row in rows.replace { put("<template>" + swapped(row.html) + "</template>") }
    }

    private static func entries(_ entries: PageFrame.Entries, put: (String) -> Void) {
        let table = entries.page == .table
        let wrapper = table ? "tbody" : "div"
        /// Rows outside a table only survive the HTML parser inside a `<template>`.
        func entryPart(_ html: String) {
            put(table ? "<template>" + html + "</template>" : html)
        }
        func wrapped(_ swap: String, _ ids: [String]) {
            let inner = entries.fragments(ids).joined()
            entryPart(
                "<\(wrapper) hx-swap-oob=\"\(HTMLEscaping.escape(swap))\">" + inner + "</\(wrapper)>")
        }
        switch entries.edit {
        case .all(let ids):
            if table && !entries.head.isEmpty {
                entryPart("<thead hx-swap-oob=\"innerHTML:#columns\">" + entries.head + "</thead>")
            }
            wrapped("innerHTML:#stories", ids)
        case .change(let remove, let insert, let update):
            let gone = table ? "tr" : "div"
            for id in remove {
                entryPart("<\(gone) id=\"\(HTMLEscaping.escape(id))\" hx-swap-oob=\"delete\"></\(gone)>")
            }
            for run in insert {
                wrapped(run.after.map { "afterend:" + DialectHTML.selector(id: $0) } ?? "afterbegin:#stories", run.ids)
            }
            for html in entries.fragments(update) { entryPart(swapped(html)) }
        }
        if entries.page != .kiosk {
            put("<span id=\"count\" hx-swap-oob=\"innerHTML\">" + HTMLEscaping.escape(entries.count) + "</span>")
        }
        if table, let notice = entries.notice { put(swapped(DialectHTML.problem(notice))) }
    }
}
