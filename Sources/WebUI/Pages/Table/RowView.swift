import FeedCore
import Foundation

/// One item as a table row (`/`) and as a kiosk tile: its cells in column order, and for
/// the tile its name, the figure shown large and a few more. Every string is raw feed text.
struct RowView {
    let key: String
    let domID: String
    let href: String
    /// What names the item: its title field, else its key (``CellFormatting/itemName(_:)``); a moment (a forecast's hour) as
    /// people write one (``CellFormatting/momentTitle(_:now:)``).
    let title: String
    let cells: [CellView]
    /// The tile's large figure, which colours the tile when it is a status: the first
    /// number or status that is not the title; when that is a status, the item's most
    /// pressing one (``lead(among:)``).
    let lead: CellView?
    /// The tile's other figures, at most ``maxFacts``: a status that calls for attention (bad
    /// or busy) first, then numbers, then the rest, each in column order; an empty text
    /// (Consul's `Notes: ""`) is none.
    let facts: [CellView]
    /// Stored, not computed: templates read stored values (TemplateValues.swift).
    let hasFacts: Bool
    /// Whether the item is words to read (a post, a message: its name sent as HTML, or
    /// longer than ``wordyName`` characters), not a thing to measure: its tile gives the words
    /// the room, is led by no count (a post's replies), and its facts say when, then who.
    let wordy: Bool
    /// The item's own JSON (`{{item.price}}`).
    let item: TemplateJSON

    /// The most characters of a lead that is a text shown at full size (class `long` past it).
    static let longLead = 10

    /// The most figures a tile shows besides its lead.
    static let maxFacts = 4

    /// The most characters of a name that is no post's words: a headline (Hacker News' are
    /// at most 80) is a name, its score a figure to lead with.
    static let wordyName = 120

    /// `scores`: where a match's two scores are (``ItemProfile/scores``), which then lead
    /// its tile together. `tileOrder`: for a table's row (whose `columns` are in the table's
    /// order), the names of the columns in a tile's order (``TableColumns/tileOrder(of:)``),
    /// to mark the cell of the figure the item's tile is led by (class `lead`).
    init(
        _ item: FeedItem, columns: [ItemColumn], linkColumn: Int, now: Date, links: PageLinks,
        scores: ItemProfile.Scores? = nil, tileOrder: [String]? = nil
    ) {
        key = item.key
        self.item = TemplateJSON(item.raw)
        domID = "item-" + item.key
        href = links.item(item.key)
        let name = CellFormatting.itemName(item)
        title = CellFormatting.momentTitle(name, now: now) ?? name
        var cells: [CellView] = []
        cells.reserveCapacity(columns.count)
        for (index, column) in columns.enumerated() {
            cells.append(
                CellView(
                    column: column, item: item, now: now, links: links, itemHref: index == linkColumn ? href : nil))
        }
        cells = CellView.finishing(cells)
        wordy =
            title.count > Self.wordyName
            || (columns.indices.contains(linkColumn) && columns[linkColumn].format == .html)
        // The tile: figures other than the name, numbers and statuses first.
        var others = cells.enumerated().filter { $0.offset != linkColumn && !$0.element.isImage }.map(\.element)
        // A match's tile: its score, `87 – 82`; its scores' own columns are then no facts.
        let score = scores.flatMap { Self.score(of: item, at: $0) }
        if let scores, score != nil {
            let shown = [scores.home, scores.away]
            others.removeAll { cell in columns.contains { $0.name == cell.name && shown.contains($0.pointer) } }
        }
        // A named value (a device's `mac`, `unixtime`) is the tile's one figure, whatever it
        // is, when it is short enough to be one.
        let lead =
            score ?? Self.lead(among: others, wordy: wordy)
            ?? others.first.flatMap { only in others.count == 1 && only.text.count <= 24 ? only : nil }
        // A number and its unit (a sensor's `21.8` and `°C`) are one figure on the tile.
        let unit = lead?.value != nil ? others.first(where: Self.isUnit) : nil
        self.lead = lead.map { lead in
            var shown = CellView(unlinked: lead)
            if let unit { shown.text += " " + unit.text }
            // A text, not a figure, longer than a tile shows large (a version, a list of
            // loads, `0.42, 0.35, 0.3`): smaller, on two lines if need be, not cut.
            if shown.value == nil, !shown.isStatus, shown.text.count > Self.longLead { shown.classes += " long" }
            return shown
        }
        var candidates = others.filter { cell in
            cell.name != lead?.name && cell.name != unit?.name && !cell.classes.contains("missing") && !cell.isID
                && !(cell.isPlain && cell.text.isEmpty)
        }
        // Figures before words (a pod's containers ready and restarts before its namespace),
        // each in column order, a column that says little last (``ItemColumn/saysLittle``); a
        // status that calls for attention (a charge `failed`, a check `critical`, a job
        // `pending`) first of all, wherever its column.
        let little = Set(columns.filter(\.saysLittle).map(\.name))
        if wordy {
            // Words to read: when, then who (a name, not a link), then the counts, then links.
            let words = candidates.filter { !$0.isTime && $0.value == nil && !$0.isLink }
            candidates =
                candidates.filter(\.isTime) + words + candidates.filter { !$0.isTime && $0.value != nil }
                + candidates.filter { !$0.isTime && $0.value == nil && $0.isLink }
        } else {
            candidates = candidates.filter { $0.value != nil } + candidates.filter { $0.value == nil }
        }
        candidates = candidates.filter { !little.contains($0.name) } + candidates.filter { little.contains($0.name) }
        if let pressing = candidates.firstIndex(where: { $0.statusTone == .bad || $0.statusTone == .busy }) {
            candidates.insert(candidates.remove(at: pressing), at: 0)
        }
        let facts = candidates.prefix(Self.maxFacts).map { CellView(unlinked: $0) }
        self.facts = Array(facts)
        hasFacts = !facts.isEmpty
        // A table's row: the cell of what its tile is led by says so (a price, a delay).
        if let tileOrder {
            let position = Dictionary(tileOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let inTileOrder = others.enumerated().sorted {
                (position[$0.element.name] ?? Int.max, $0.offset) < (position[$1.element.name] ?? Int.max, $1.offset)
            }.map(\.element)
            if let tileLead = Self.lead(among: inTileOrder, wordy: wordy),
                let index = cells.firstIndex(where: { $0.name == tileLead.name })
            {
                cells[index].classes += " lead"
            }
        }
        self.cells = cells
    }
}

extension RowView {
    /// Names of an item's unit of measurement (Home Assistant's `unit_of_measurement`).
    static let unitNames: Set<String> = ["unit", "units", "unit_of_measurement", "uom"]

    /// Whether `cell` holds the unit of the item's figure: a short text (`°C`, `%`, `kWh`)
    /// under one of ``unitNames``.
    static func isUnit(_ cell: CellView) -> Bool {
        let member = cell.memberName
        return unitNames.contains(member) && cell.isPlain && !cell.classes.contains("missing")
            && !cell.text.isEmpty && cell.text.count <= 8
    }

    /// The score of a match, both sides' numbers (`87 – 82`) as one figure, when the item
    /// has both; else `nil` (a match to come).
    static func score(of item: FeedItem, at scores: ItemProfile.Scores) -> CellView? {
        func number(_ pointer: JSONPointer) -> String? {
            switch item.raw.value(at: pointer) {
            case .int(let whole)?: String(whole)
            case .double(let number)? where number.isFinite: CellFormatting.grouped(.double(number), number)
            case .string(let text)? where ItemShapeDetector.isReading(text): text
            default: nil
            }
        }
        guard let home = number(scores.home), let away = number(scores.away) else { return nil }
        return CellView(figure: home + " – " + away, label: "Score", name: "match-score")
    }

    /// Words of a price member's name that say it is not the price now: its change, or
    /// another price of the day (`priceChange`, `openPrice`, `weightedAvgPrice`, `bidPrice`).
    static let asidePriceWords: Set<String> = [
        "change", "%", "avg", "average", "weighted", "prev", "previous", "open", "high", "low", "bid", "ask", "min",
        "max", "target",
    ]

    /// Whether the price member `name` is not the price now (``asidePriceWords``).
    static func isAsidePrice(_ name: String) -> Bool {
        let words = ItemShapeDetector.label(for: name).lowercased().split(separator: " ").map(String.init)
        return !asidePriceWords.isDisjoint(with: words)
    }

    /// The tile's lead among `cells` (in column order): the first number or status (a
    /// number whose member says a price before the others, the price now before its change
    /// or another price of the day); when that
    /// is a status, the item's most pressing status instead: a bad word before a busy one,
    /// a busy one before a good one, any of them before a neutral one, and among equals an
    /// outcome (``ItemShapeDetector/outcomeNames``) before the first. A finished build that
    /// failed is led by its `failure`, in red, not by its `completed`; a running one by its
    /// `in_progress`.
    ///
    /// An item that is words to read (``wordy``) is led by a status or a price only, not by
    /// another number: a post's count of replies is no figure for across a room.
    static func lead(among cells: [CellView], wordy: Bool = false) -> CellView? {
        guard let first = cells.first(where: { $0.value != nil || $0.isStatus }) else { return nil }
        guard first.isStatus else {
            // A price is what a board of prices is for, wherever its column is: the price
            // itself (Binance's `lastPrice`), not its change or another price of the day.
            let prices = cells.filter { $0.value != nil && $0.memberName.lowercased().contains("price") }
            if wordy { return prices.first { !isAsidePrice($0.memberName) } ?? cells.first(where: \.isStatus) }
            return prices.first { !isAsidePrice($0.memberName) } ?? prices.first ?? first
        }
        func rank(_ cell: CellView) -> Int {
            let tone: Int
            switch cell.statusTone {
            case .bad: tone = 0
            case .busy: tone = 1
            case .good: tone = 2
            case .neutral, nil: tone = 3
            }
            let member = cell.memberName
            return tone * 2 + (ItemShapeDetector.outcomeNames.contains(member) ? 0 : 1)
        }
        return cells.filter(\.isStatus).min { rank($0) < rank($1) }
    }
}

extension CellView {
    /// The member the column shows, by its URL name's last part (`actor.id` → `id`): what
    /// says a cell is an id, a unit or an outcome. No array is made (a tile asks per row).
    var memberName: String { Self.memberName(of: name) }

    /// The last part of a column's URL name (`actor.id` → `id`).
    static func memberName(of name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }

    /// A figure made of several values (a match's score, `87 – 82`): plain, tabular, with no
    /// single value to compare when it changes.
    init(figure text: String, label: String, name: String) {
        self.name = name
        self.label = label
        isNamedByItem = false
        self.text = text
        full = nil
        value = nil
        classes = "cell num"
        isID = false
        tone = nil
        statusTone = nil
        isPlain = true
        isLink = false
        isImage = false
        isTime = false
        isStatus = false
        href = nil
        linksItem = false
        src = nil
        timeMachine = nil
        relative = false
        sparkline = nil
    }

    /// The same cell, not a link to the item (a kiosk has nothing to click).
    init(unlinked cell: CellView) {
        self = cell
        if linksItem {
            href = nil
            linksItem = false
        }
    }
}
