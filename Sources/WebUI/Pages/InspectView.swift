import FeedCore
import Foundation

/// `/inspect`'s values for the templates (``Templates/inspect``): an ``InspectFrame`` in
/// words and numbers. Times of day are UTC (the page script shows them in the viewer's zone
/// where it can); stage times in microseconds after the read that carried the event.
struct InspectView {
    struct EventRow {
        let id: String
        let kind: String
        let operations: Int
        let bytes: Int
        let arrivedMachine: String
        let arrivedText: String
        /// Each stage after the read, in microseconds ("–": not yet).
        let stages: [String]
        /// Every stage's absolute time (``MonotonicTime``, ns), read first, space separated
        /// ("-": not yet): for tools and tests.
        let stagesNanos: String
        /// The stages as bars, an SVG drawn here.
        let waterfall: String
    }

    struct ExchangeRow {
        let startedMachine: String
        let startedText: String
        let kind: String
        let status: String
        let duration: String
        let bytes: UInt64
        let error: String
        let failed: Bool
    }

    struct PageRow {
        let screens: String
        let views: String
        let sinceMachine: String
        let sinceText: String
        let pendingBytes: Int
        let state: String
        let stalled: Bool
    }

    /// One named screen and what it said it showed, newest first.
    struct ShowingsRow {
        struct Entry {
            let atMachine: String
            let atText: String
            let kind: String
            let value: String
            let label: String
            var hasLabel: Bool { !label.isEmpty }
        }
        let screen: String
        let entries: [Entry]
    }

    struct GroupRow {
        let name: String
        let clients: Int
        let oldestMachine: String?
        let oldestText: String?
        let pendingBytes: Int
        let stalled: Int
        var hasStalled: Bool { stalled > 0 }
    }

    // How items are read.
    let itemsOrigin: String
    let itemsNotes: [String]
    let itemsProblem: String?

    // The templates.
    let templatesText: String
    let templatesWarnings: [String]
    let templatesFailure: String?

    // The tree.
    /// The document's id (`EPOCH-SEQ`; "" before the first).
    let treeID: String
    var hasDocument: Bool { !treeID.isEmpty }
    /// The whole tree, when this view draws it (else "").
    let tree: String
    var hasTree: Bool { !tree.isEmpty }

    // The events.
    let eventCapacity = EventLog.capacity
    let exchangeCapacity = UpstreamExchanges.capacity
    let stageNames = Stages.names.map { $0.replacingOccurrences(of: "_", with: " ") + " µs" }
    let events: [EventRow]
    var hasEvents: Bool { !events.isEmpty }

    // The exchanges.
    let exchanges: [ExchangeRow]
    var hasExchanges: Bool { !exchanges.isEmpty }

    // The screens.
    let pages: [PageRow]
    let morePages: Int?
    var hasPages: Bool { !pages.isEmpty }
    let groups: [GroupRow]
    var hasGroups: Bool { !groups.isEmpty }
    let showings: [ShowingsRow]
    var hasShowings: Bool { !showings.isEmpty }

    /// The view of `frame`, drawing only `parts` (the others stay empty; the tree only when
    /// it is redrawn whole).
    init(_ frame: InspectFrame, parts: InspectParts, now: Date) {
        (itemsOrigin, itemsNotes, itemsProblem) = Self.items(frame.snapshot?.published)
        let templates = frame.templates
        templatesText =
            templates.directory.map { directory in
                "From \(directory)"
                    + (templates.replaced.isEmpty
                        ? ", replacing no built-in template."
                        : ", replacing " + templates.replaced.joined(separator: ", ") + ".")
            } ?? "Built in."
        templatesWarnings = templates.warnings
        templatesFailure = templates.lastFailure.map {
            "The last reload failed and the templates in use were kept: \($0)"
        }
        treeID = frame.snapshot?.id.description ?? ""
        tree = parts.tree == .whole ? frame.snapshot.map { JSONTreeHTML.render($0.document) } ?? "" : ""
        events = parts.events == .whole ? frame.events.reversed().map(Self.eventRow) : []
        exchanges = parts.exchanges ? frame.exchanges.reversed().map { Self.exchangeRow($0, now: now) } : []
        if parts.screens {
            pages = frame.screens.pageStreams.map { Self.pageRow($0, now: now) }
            morePages = frame.screens.morePageStreams > 0 ? frame.screens.morePageStreams : nil
            groups = frame.screens.groups.map { Self.groupRow($0, now: now) }
            showings = frame.screens.showings.map(Self.showingsRow)
        } else {
            (pages, morePages, groups, showings) = ([], nil, [], [])
        }
    }

    /// How `view`'s items were read, in words: how the profile was chosen, what it reads,
    /// and what the document holds instead of items when it holds none.
    private static func items(_ view: PublishedView?) -> (origin: String, notes: [String], problem: String?) {
        guard let view, let reading = view.reading else { return ("No document yet.", [], nil) }
        let profile = reading.profile
        let origin: String
        var notes = reading.notes
        switch reading.origin {
        case .given:
            origin = "Read with the profile \(profile.name), as given."
            notes = [
                "items: " + (profile.itemsPath.tokens.isEmpty ? "the document" : profile.itemsPath.description),
                "key: " + (profile.keyPath?.description ?? "a hash of each item"),
            ]
        case .recognised: origin = "Read with a built-in profile whose shape the first document has."
        case .found: origin = "Found in the first document with items; shown as a table."
        case .undecided: origin = "Not decided yet: no document has held items."
        }
        if reading.origin != .undecided {
            notes.append("\(view.items.count) items now, shown as \(profile.layout == .table ? "a table" : "news")")
        }
        return (origin, notes, reading.origin == .undecided ? nil : view.itemsProblem)
    }

    static func eventRow(_ event: InspectedEvent) -> EventRow {
        let stages = event.stages
        let offsets = stages.offsets
        return EventRow(
            id: event.id.description, kind: event.kind.rawValue, operations: event.operations, bytes: event.bytes,
            arrivedMachine: event.arrivedAt.description, arrivedText: clock(event.arrivedAt),
            stages: offsets.map { $0.map { String($0 / 1000) } ?? "–" },
            stagesNanos: stages.absolute.map { $0.map(String.init) ?? "-" }.joined(separator: " "),
            waterfall: waterfall(offsets))
    }

    /// The stages as consecutive bars on one line, scaled to the last stage known: each
    /// bar runs from the stage before to its own.
    static func waterfall(_ offsets: [UInt64?]) -> String {
        let width = 160.0
        let known = offsets.compactMap { $0 }
        let total = Double(max(known.max() ?? 0, 1))
        var svg =
            "<svg class=\"waterfall\" viewBox=\"0 0 \(Int(width)) 10\" width=\"\(Int(width))\" height=\"10\" role=\"img\" aria-label=\"waterfall\">"
        var start = 0.0
        for (index, offset) in offsets.enumerated() {
            guard let offset else { continue }
            let end = Double(offset) / total * width
            let x = min(start, width - 1)
            let barWidth = max(end - start, 1)
            svg +=
                "<rect class=\"wf-\(index)\" x=\"\(format(x))\" y=\"0\" width=\"\(format(barWidth))\" height=\"10\"/>"
            start = max(start, end)
        }
        return svg + "</svg>"
    }

    private static func exchangeRow(_ exchange: UpstreamExchange, now: Date) -> ExchangeRow {
        let started = WallTime(exchange.startedAt)
        let duration = exchange.duration(now: now)
        return ExchangeRow(
            startedMachine: started.description, startedText: clock(started), kind: exchange.kind.rawValue,
            status: exchange.status.map(String.init) ?? "–",
            duration: (exchange.endedAt == nil ? "open, " : "") + seconds(duration), bytes: exchange.bytes,
            error: exchange.error ?? "", failed: exchange.error != nil)
    }

    private static func pageRow(_ page: ScreenList.PageStream, now: Date) -> PageRow {
        PageRow(
            screens: page.screens.joined(separator: " "), views: page.views.joined(separator: " "),
            sinceMachine: page.since.description, sinceText: RelativeTime.describe(page.since.date, now: now),
            pendingBytes: page.pendingBytes,
            state: page.stalledFor.map { "stalled " + seconds($0) } ?? "reading", stalled: page.stalledFor != nil)
    }

    private static func groupRow(_ group: ScreenList.ClientGroup, now: Date) -> GroupRow {
        GroupRow(
            name: group.name, clients: group.clients, oldestMachine: group.oldest?.description,
            oldestText: group.oldest.map { RelativeTime.describe($0.date, now: now) }, pendingBytes: group.pendingBytes,
            stalled: group.stalled)
    }

    private static func showingsRow(_ screen: ScreenShowings.Screen) -> ShowingsRow {
        ShowingsRow(
            screen: screen.name,
            entries: screen.showings.reversed().map { showing in
                ShowingsRow.Entry(
                    atMachine: showing.at.description, atText: clock(showing.at), kind: showing.kind.rawValue,
                    value: showing.value, label: showing.label)
            })
    }

    /// `14:03:12.345` (UTC) of `time`.
    private static func clock(_ time: WallTime) -> String {
        String(time.description.dropFirst(11).prefix(12))
    }

    /// `0.42 s`, `12 s`, `3 min`.
    private static func seconds(_ value: Double) -> String {
        if value < 10 { return String(format: "%.2f s", value) }
        if value < 120 { return "\(Int(value)) s" }
        return "\(Int(value / 60)) min"
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}

extension PageRenderer {
    /// `/inspect`.
    func inspect(frame: InspectFrame, badge: StatusBadge, source: String, now: Date) -> [UInt8] {
        let view = InspectView(frame, parts: .all, now: now)
        let main = templates.library.render(view, withTemplate: "inspect") ?? ""
        return page(
            title: "Inspect · " + brand, bodyClass: "page-inspect", stream: "inspect", navLatest: false, badge: badge,
            updated: frame.snapshot?.published.publishedAt, main: main, source: source,
            layout: frame.snapshot?.published.profile.layout ?? .news)
    }

    /// The parts of `/inspect` that changed (`parts`), by element id: a tree redrawn in
    /// part is one fragment per node (``JSONTreeHTML/id(of:)``), a log redrawn in part its
    /// rows (``Templates/inspectEvent``).
    func inspectFragments(_ frame: InspectFrame, parts: InspectParts, now: Date) -> (
        fragments: [PageFrame.Fragment], rows: PageFrame.Rows?
    ) {
        var fragments: [PageFrame.Fragment] = []
        var rows: PageFrame.Rows?
        let view = InspectView(frame, parts: parts, now: now)
        func part(_ id: String, _ template: String) {
            fragments.append(
                PageFrame.Fragment(id: id, html: templates.library.render(view, withTemplate: template) ?? ""))
        }
        if parts.items { part("inspect-items", "inspectItems") }
        switch parts.tree {
        case .whole:
            part("inspect-tree", "inspectTree")
        case .nodes(let paths):
            guard let document = frame.snapshot?.document else { break }
            for path in paths {
                guard let value = document.value(at: path) else { continue }
                fragments.append(
                    PageFrame.Fragment(id: JSONTreeHTML.id(of: path), html: JSONTreeHTML.render(node: value, at: path)))
            }
        case nil:
            break
        }
        switch parts.events {
        case .whole:
            part("inspect-events", "inspectEvents")
        case .rows(let change):
            var byID: [EventID: InspectedEvent] = [:]
            for event in frame.events { byID[event.id] = event }
            func row(_ id: EventID) -> PageFrame.Fragment? {
                guard let event = byID[id] else { return nil }
                let html = templates.library.render(InspectView.eventRow(event), withTemplate: "inspectEvent") ?? ""
                return PageFrame.Fragment(id: "ie-" + id.description, html: html)
            }
            rows = PageFrame.Rows(
                container: "inspect-events-rows", prepend: change.added.compactMap(row),
                remove: change.removed.map { "ie-" + $0.description }, replace: change.updated.compactMap(row))
        case nil:
            break
        }
        if parts.exchanges { part("inspect-exchanges", "inspectExchanges") }
        if parts.screens { part("inspect-screens", "inspectScreens") }
        return (fragments, rows)
    }
}
