/// The page stream for Datastar v1 (`dialect=datastar`): a page with
/// `<div data-init="@get('/events/page?v=list&dialect=datastar')">` shows feedweb's live
/// elements without feedweb's page script.
///
/// Each frame of a view is a few `datastar-patch-elements` events, their fields in the
/// order Datastar's SDKs write them (event, id, data; no `retry`, which the stream sets once
/// at its start; no namespace line), the `data` lines `selector`, `mode`, then one
/// `elements` line per line of HTML:
/// - removed entries: `mode remove` and `selector #item-KEY` (as the SDKs order a removal);
/// - entries put in: `selector #stories` + `mode prepend` (new on top), or
///   `selector #item-KEY` + `mode after` (after the entry above, for a reordering);
/// - a whole list (a new connection's first frame): `selector #stories` + `mode inner`,
///   and a table's header row `selector #columns` + `mode inner`;
/// - `/inspect`'s new event rows: `selector #inspect-events-rows` + `mode prepend` (rows
///   that left the log removed as entries are, rows that changed swapped as below);
/// - the count: `selector #count` + `mode inner`, its text;
/// - last, everything that replaces the element of its own id (changed entries, the
///   badge, the item's `#detail`, `/stats` parts, the `#problem` and `#gone` notices): one
///   event in the default mode (outer: Datastar morphs each top-level element into the
///   element of its id), carrying the frame's `id`.
/// Only a frame's last event carries the `id` (the published view's `EPOCH-SEQ`), so a
/// client that lost the connection in the middle of a frame resumes before it: Datastar
/// sends the id back as `Last-Event-ID`, and a view resumed at the current id gets only its
/// badge, any other its whole state.
enum DatastarDialect {
    /// The one event type written.
    static let eventType = "datastar-patch-elements"

    /// One `datastar-patch-elements` event: a mode applied to the elements of `selector`,
    /// or, without one, each top-level element onto the element of its id.
    struct Patch: Equatable {
        var selector: String?
        var mode: String?
        var elements: String
    }

    /// `frame` as Datastar events (nothing when it has no part).
    static func events(_ frame: PageFrame) -> [UInt8] {
        var out = ""
        let all = patches(frame)
        for (index, patch) in all.enumerated() {
            write(patch, id: index == all.count - 1 ? frame.id : nil, into: &out)
        }
        return Array(out.utf8)
    }

    /// The events of `frame`, in order.
    static func patches(_ frame: PageFrame) -> [Patch] {
        var patches: [Patch] = []
        var outer = ""
        for part in frame.parts {
            switch part {
            case .entries(let entries):
                switch entries.edit {
                case .all(let ids):
                    if entries.page == .table && !entries.head.isEmpty {
                        patches.append(Patch(selector: "#columns", mode: "inner", elements: entries.head))
                    }
                    patches.append(
                        Patch(selector: "#stories", mode: "inner", elements: entries.fragments(ids).joined()))
                case .change(let remove, let insert, let update):
                    for id in remove {
                        patches.append(Patch(selector: DialectHTML.selector(id: id), mode: "remove", elements: ""))
                    }
                    for run in insert {
                        patches.append(
                            Patch(
                                selector: run.after.map(DialectHTML.selector(id:)) ?? "#stories",
                                mode: run.after == nil ? "prepend" : "after",
                                elements: entries.fragments(run.ids).joined()))
                    }
                    for html in entries.fragments(update) { outer += html }
                }
                if entries.page != .kiosk {
                    patches.append(
                        Patch(selector: "#count", mode: "inner", elements: HTMLEscaping.escape(entries.count)))
                }
                if entries.page == .table, let notice = entries.notice { outer += DialectHTML.problem(notice) }
            case .detail(let html), .status(let html):
                outer += html
            case .gone(let text):
                outer += DialectHTML.gone(text)
            case .stats(let fragments):
                for fragment in fragments { outer += fragment.html }
            case .inspect(let fragments, let rows):
                for fragment in fragments { outer += fragment.html }
                if let rows {
                    for id in rows.remove {
                        patches.append(Patch(selector: DialectHTML.selector(id: id), mode: "remove", elements: ""))
                    }
                    if !rows.prepend.isEmpty {
                        patches.append(
                            Patch(
                                selector: DialectHTML.selector(id: rows.container), mode: "prepend",
                                elements: rows.prepend.map(\.html).joined()))
                    }
                    for row in rows.replace { outer += row.html }
                }
            }
        }
        if !outer.isEmpty { patches.append(Patch(selector: nil, mode: nil, elements: outer)) }
        return patches
    }

    /// Appends `patch` as one event to `out`.
    static func write(_ patch: Patch, id: String?, into out: inout String) {
        out += "event: " + eventType + "\n"
        if let id { out += "id: " + singleLine(id) + "\n" }
        if patch.mode == "remove", let selector = patch.selector {
            out += "data: mode remove\ndata: selector " + singleLine(selector) + "\n"
        } else {
            if let selector = patch.selector { out += "data: selector " + singleLine(selector) + "\n" }
            if let mode = patch.mode { out += "data: mode " + mode + "\n" }
            forEachLine(of: patch.elements) { line in
                out += "data: elements "
                out += line
                out += "\n"
            }
        }
        out += "\n"
    }

    /// Calls `body` with each line of `html` (split at CRLF, LF or a lone CR, which the HTML
    /// parser reads as LF anyway), less an empty last one after a final line break.
    static func forEachLine(of html: String, _ body: (Substring) -> Void) {
        let utf8 = html.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            guard byte == 0x0A || byte == 0x0D else {
                index = utf8.index(after: index)
                continue
            }
            body(Substring(utf8[start..<index]))
            index = utf8.index(after: index)
            if byte == 0x0D, index < utf8.endIndex, utf8[index] == 0x0A { index = utf8.index(after: index) }
            start = index
        }
        if start < utf8.endIndex { body(Substring(utf8[start...])) }
    }

    /// `value` without the CR and LF that would end its line early.
    private static func singleLine(_ value: String) -> String {
        value.contains(where: { $0.isNewline }) ? value.filter { !$0.isNewline } : value
    }
}
