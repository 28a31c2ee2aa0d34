import FeedCore

/// What `/board` is asked to show: its views (`v`, in the order given), the grid (`cols`),
/// the rotation (`rotate`), attention for marked items (`attention`) and the care for the
/// panel (`shift`, `dim`); attention and dim default to `--attention` and `--dim`
/// (``ScreenSettings``), and `dim=` (empty) turns a `--dim` off. Parsed whole, or a ``Problem`` naming the parameter that is
/// wrong (a 400 page, never a blank screen).
///
/// The page script (`Public/board.js`) reads the same values from the page's data
/// attributes; the server checks them first so that a TV never shows half a board.
struct BoardQuery: Equatable, Sendable {
    /// One cell: the view's name (`data-view`: as the URL gave it, or the name of the view
    /// a page's path names, ``spec(ofPath:)``) and the page stream's view it is.
    struct Cell: Equatable, Sendable {
        let name: String
        let channel: PageEventStream.Channel

        /// The view the cell shows of a feed laid out as `layout`: a table feed's `list` is
        /// its table, `list:SECTION` the table filtered to that value, as `/` and
        /// `/?section=` are; every other view is the one named.
        func channel(for layout: ItemProfile.Layout) -> PageEventStream.Channel {
            guard layout == .table, case .list(let section) = channel else { return channel }
            return .table(TableQuery(section: section))
        }
    }

    let cells: [Cell]
    /// Columns of the grid; by default as near a square as the cells allow, wider than tall.
    let columns: Int
    /// Seconds each cell is shown in turn, one per cell (a shorter list repeats its last
    /// time); empty: every cell at once.
    let rotation: [Int]
    /// Seconds an item matching a `--mark` is shown full screen; 0: never.
    let attention: Int
    /// Whether the whole board moves by a few pixels now and then (on by default).
    let shift: Bool
    /// The minutes of the day (the screen's local time) the board is dimmed from and to,
    /// `HH:MM-HH:MM`, or `nil`.
    let dim: String?

    /// The most cells a board shows (the page stream carries at most 64 views).
    static let maxCells = 16
    /// The longest a view is shown in a rotation, or an item for attention: a day.
    static let maxSeconds = 86_400

    /// Why the parameters do not make a board: the parameter and what is wrong.
    struct Problem: Error, Equatable {
        let parameter: String
        let message: String
    }

    /// The view a page's path names, as a person copies it from the address bar: `/` is
    /// `list`, `/?section=World` `list:World`, `/kiosk` and `/kiosk?section=World` the kiosk,
    /// `/items/KEY` `item:KEY` (the key percent-decoded, as the item page decodes it),
    /// `/stats` `stats`; `nil` for anything else (a view's own name among it).
    static func spec(ofPath path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        let (page, query) =
            if let mark = path.firstIndex(of: "?") {
                (path[..<mark], path[path.index(after: mark)...])
            } else {
                (path[...], Substring(""))
            }
        func decoded(_ text: Substring) -> String {
            String(decoding: PercentDecoding.decoded(text.utf8), as: UTF8.self)
        }
        var section: String?
        if !query.isEmpty {
            guard query.hasPrefix("section="), !query.contains("&") else { return nil }
            let value = decoded(query.dropFirst("section=".count).replacing("+", with: " "))
            guard !value.isEmpty else { return nil }
            section = value
        }
        switch page {
        case "/": return section.map { "list:" + $0 } ?? "list"
        case "/kiosk": return section.map { "kiosk:" + $0 } ?? "kiosk"
        case "/stats" where section == nil: return "stats"
        case _ where page.hasPrefix("/items/") && section == nil:
            let raw = page.dropFirst("/items/".count)
            return raw.isEmpty || raw.contains("/") ? nil : "item:" + decoded(raw)
        default: return nil
        }
    }

    /// The board `request` asks for, with `defaults`' attention and dim where it names none.
    init(request: HTTPRequest, defaults: ScreenSettings = ScreenSettings()) throws(Problem) {
        let names = request.queries("v")
        guard !names.isEmpty else {
            throw Problem(
                parameter: "v",
                message: "Name at least one view: /board?v=kiosk&v=stats (list, list:SECTION, table…, kiosk, "
                    + "kiosk:SECTION, item:KEY, stats).")
        }
        guard names.count <= Self.maxCells else {
            throw Problem(parameter: "v", message: "A board shows at most \(Self.maxCells) views, not \(names.count).")
        }
        var cells: [Cell] = []
        for name in names {
            let spec = Self.spec(ofPath: name) ?? name
            guard let channel = PageEventStream.Channel(spec: spec), channel != .inspect else {
                throw Problem(
                    parameter: "v",
                    message: "'\(name)' is not a view: list, list:SECTION, table…, kiosk, kiosk:SECTION, item:KEY "
                        + "or stats, or a page's path (/, /?section=SECTION, /kiosk, /items/KEY, /stats).")
            }
            cells.append(Cell(name: spec, channel: channel))
        }
        self.cells = cells

        if let text = request.query("cols") {
            guard let columns = Int(text), (1...Self.maxCells).contains(columns) else {
                throw Problem(
                    parameter: "cols", message: "cols must be a whole number from 1 to \(Self.maxCells), not '\(text)'."
                )
            }
            self.columns = columns
        } else {
            var columns = 1
            while columns * columns < cells.count { columns += 1 }
            self.columns = columns
        }

        if let text = request.query("rotate") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            var seconds: [Int] = []
            for part in parts {
                guard let value = Int(part), (1...Self.maxSeconds).contains(value) else {
                    throw Problem(
                        parameter: "rotate",
                        message: "rotate is a list of seconds from 1 to \(Self.maxSeconds), one per view "
                            + "(rotate=30,15,20), not '\(text)'.")
                }
                seconds.append(value)
            }
            guard seconds.count <= cells.count else {
                throw Problem(
                    parameter: "rotate",
                    message:
                        "rotate names \(seconds.count) times for \(cells.count) view\(cells.count == 1 ? "" : "s").")
            }
            rotation = cells.indices.map { seconds[min($0, seconds.count - 1)] }
        } else {
            rotation = []
        }

        if let text = request.query("attention") {
            guard let seconds = Int(text), (0...Self.maxSeconds).contains(seconds) else {
                throw Problem(
                    parameter: "attention",
                    message: "attention is the seconds a marked item is shown, 0 to \(Self.maxSeconds), not '\(text)'.")
            }
            attention = seconds
        } else {
            attention = defaults.attention
        }

        switch request.query("shift") {
        case nil, "on": shift = true
        case "off": shift = false
        case let text?: throw Problem(parameter: "shift", message: "shift is on or off, not '\(text)'.")
        }

        switch request.query("dim") {
        case nil: dim = defaults.dim
        case ""?: dim = nil
        case let text?:
            guard Self.dimRange(text) != nil else {
                throw Problem(
                    parameter: "dim",
                    message: "dim is a range of the screen's local time, HH:MM-HH:MM (dim=22:00-07:00), not '\(text)'.")
            }
            dim = text
        }
    }

    /// The minutes of the day `HH:MM-HH:MM` runs from and to (the end may be earlier: the
    /// range runs over midnight); `nil` when it does not parse or is empty.
    static func dimRange(_ text: String) -> (from: Int, to: Int)? {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let from = minutes(ends[0]), let to = minutes(ends[1]), from != to else { return nil }
        return (from, to)
    }

    /// `HH:MM` as minutes of the day.
    private static func minutes(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            let hours = Int(parts[0]), let minutes = Int(parts[1]),
            (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }
}
