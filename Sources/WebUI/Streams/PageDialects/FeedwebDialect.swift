import FeedCore

/// feedweb's own page-stream events, which `Public/app.js` reads: one event per part of a
/// frame, each `data` a JSON object whose `view` names the view (see ``PageEventStream``
/// for the events and their members).
enum FeedwebDialect {
    /// `frame` as feedweb's events: `items`, `item`, `gone`, `stats`, `inspect`, `status`.
    static func events(_ frame: PageFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in frame.parts {
            switch part {
            case .entries(let entries):
                var html = JSONObject()
                for fragment in entries.html { html[fragment.id] = .string(fragment.html) }
                var members: JSONObject
                switch entries.order {
                case .whole(let order):
                    members = ["order": .array(order.map { .string($0) })]
                case .delta(let prepend, let remove):
                    members = [
                        "prepend": .array(prepend.map { .string($0) }),
                        "remove": .array(remove.map { .string($0) }),
                    ]
                }
                members["html"] = .object(html)
                members["count"] = .string(entries.count)
                if let notice = entries.notice { members["notice"] = .string(notice) }
                if !entries.marks.isEmpty {
                    var marks = JSONObject()
                    for id in entries.marks.keys.sorted() {
                        marks[id] = .array((entries.marks[id] ?? []).map { .string($0) })
                    }
                    members["marks"] = .object(marks)
                }
                bytes += event("items", frame, members)
            case .detail(let html):
                bytes += event("item", frame, ["html": .string(html)])
            case .gone:
                bytes += event("gone", frame)
            case .stats(let fragments):
                bytes += event("stats", frame, ["html": object(fragments)])
            case .inspect(let fragments, let rows):
                // Rows swapped by id are fragments like any other; rows put on top and
                // removed are said in `rows`.
                var members: JSONObject = ["html": object(fragments + (rows?.replace ?? []))]
                if let rows, !rows.prepend.isEmpty || !rows.remove.isEmpty {
                    members["rows"] = .object([
                        "into": .string(rows.container), "prepend": .array(rows.prepend.map { .string($0.html) }),
                        "remove": .array(rows.remove.map { .string($0) }),
                    ])
                }
                bytes += event("inspect", frame, members)
            case .status(let html):
                bytes += event("status", frame, ["html": .string(html)])
            }
        }
        return bytes
    }

    /// `fragments` as a JSON object: element id → fragment.
    private static func object(_ fragments: [PageFrame.Fragment]) -> JSONValue {
        var html = JSONObject()
        for fragment in fragments { html[fragment.id] = .string(fragment.html) }
        return .object(html)
    }

    /// An event of the frame's view: `data` is `{"view": spec}` followed by `members`.
    private static func event(_ type: String, _ frame: PageFrame, _ members: JSONObject = [:]) -> [UInt8] {
        var data: JSONObject = ["view": .string(frame.view)]
        for (name, value) in members { data[name] = value }
        return SSEEncoder.event(type: type, data: JSONValue.object(data).serializedString(), id: frame.id)
    }
}
