import FeedCore
import Foundation

/// One value of one item as a table cell, a kiosk tile's figure or an item page's value
/// shows it: its column's format applied (``ItemColumn/Format``). Every string is raw feed
/// text (the templates escape it); URLs have passed ``URLPolicy``.
///
/// Exactly one of the `is…` flags is set: what the cell holds.
struct CellView {
    /// The column's URL name: the cell's `data-col`, by which the page script finds the
    /// same cell in a row's next version (to mark it changed).
    let name: String
    let label: String
    /// Whether the item's own name says what the value is (a named value's: a tile titled
    /// `db.latency_ms` needs no "Value" above its figure).
    let isNamedByItem: Bool
    /// What the cell shows (shortened on the list: ``maxListCharacters``).
    var text: String
    /// The whole value as text when ``text`` is shortened (a tooltip), else `nil`.
    let full: String?
    /// The number, as the feed sent it, for a numeric value: the cell's `data-value`, which
    /// the page script compares to mark a change up or down.
    let value: String?
    /// The cell's classes: `cell`, `num` for numbers, `lower-better` for a number whose
    /// rise is bad news (``ItemColumn/risesAreBadNews``), `short` for a count of objects
    /// that say yes short of all of them (a pod's `1/2` ready; not once its item has
    /// finished: ``finishing(_:)``), `status status-TONE`,
    /// `missing` (with `num` in a column of figures), `id` for an id (``isID``); in a row,
    /// `lead` for the figure its tile is led by (``RowView/lead``), which a board's narrow
    /// table keeps as long as a status.
    var classes: String
    /// Whether the cell holds an id or a digest (``ItemShapeDetector/isIDName(_:)``: `id`,
    /// `…_id`, `sha`, `commit`, …): for programs, not a figure for a tile or a screen across
    /// a room, which name the item by its title.
    let isID: Bool
    /// A status's tone class (`status-good`, `status-bad`, `status-busy`, `status-neutral`),
    /// else `nil`: a kiosk tile led by a status is coloured by it.
    let tone: String?
    /// A status's tone (``tone``'s), else `nil`.
    let statusTone: ItemColumn.Tone?
    let isPlain: Bool
    let isLink: Bool
    let isImage: Bool
    let isTime: Bool
    let isStatus: Bool
    /// The link's target: the URL (``isLink``), or for the cell that names the item, its
    /// page (``linksItem``).
    var href: String?
    /// Whether the cell's text links to the item's page (the title column's cell).
    var linksItem: Bool
    /// The picture's URL (``isImage``).
    let src: String?
    /// RFC 3339 (``isTime``).
    let timeMachine: String?
    /// Whether the time is shown as time since (`data-relative`), else as a date
    /// (`data-local`).
    let relative: Bool
    /// The points of the sparkline of a series (``ItemColumn/Format/series``), whose latest
    /// value the cell shows as its text; else `nil`.
    let sparkline: String?

    /// The most characters of a text value a list cell shows.
    static let maxListCharacters = 120

    private enum Content {
        case plain(String, full: String?)
        case link(String, url: String)
        case image(String)
        case time(Date, relative: Bool)
        case status(shown: String, ItemColumn.Tone)
        case missing
    }

    /// The cell of `column` for `item`; `itemHref` makes its text a link to the item's page;
    /// `links` resolves a link or picture that is one of feedweb's paths; `shortened`: long
    /// text is cut (a list), else whole (the item page).
    init(
        column: ItemColumn, item: FeedItem, now: Date, links: PageLinks, itemHref: String? = nil,
        shortened: Bool = true
    ) {
        let value = item.raw.value(at: column.pointer)
        name = column.name
        label = column.label
        isNamedByItem = column.formatNamedBy != nil
        var numeric = false
        let format = Self.format(of: column, in: item, value: value)
        var risesAreBadNews = column.risesAreBadNews
        // A named value's rise is bad news by its name (a database's `db.latency_ms`).
        if let namedBy = column.formatNamedBy, let valueName = item.raw.value(at: namedBy)?.stringValue, value != nil {
            risesAreBadNews = ItemShapeDetector.isLowerBetter(
                JSONPointer(tokens: valueName.split(separator: ".").map(String.init)))
        }
        // An amount of money is written in the currency beside it, row by row.
        let currency: Currency? =
            if case .money = format { Currency.beside(column.pointer, in: item.raw) } else { nil }
        var content = Self.content(
            value, format: format, decimals: column.keepsOnePrecision ? column.decimals : 0,
            localTimeOffset: column.localTimeOffset, currency: currency, links: links, numeric: &numeric,
            shortened: shortened)
        // A series shows its latest reading, with its line.
        var latest: String?
        var sparkline: String?
        if format == .series, let series = ItemSeries(at: column.pointer, in: item.raw), let reading = series.latest {
            let number = JSONValue.double(reading)
            content = .plain(CellFormatting.grouped(number, reading), full: nil)
            numeric = true
            latest = number.serializedString()
            sparkline = Sparkline.points(series)
        }
        // A tally across an array's objects (a pod's containers ready, `1/2`); of objects
        // that say yes, short of all of them is marked.
        var isShort = false
        if case .tally(let tally) = format, let (figure, count) = tally.of(value) {
            isShort = tally.kind == .count && figure < Double(count)
            let number = JSONValue.double(figure)
            content = .plain(
                tally.kind == .count ? "\(Int(figure))/\(count)" : CellFormatting.grouped(number, figure), full: nil)
            numeric = true
            latest = Self.numberText(figure)
            if tally.kind == .sum {
                risesAreBadNews = ItemShapeDetector.isLowerBetter(JSONPointer(tokens: [tally.member]))
            }
        }
        self.sparkline = sparkline
        if itemHref != nil, case .link(let text, _) = content { content = .plain(text, full: nil) }
        isID = column.holdsIDs
        // A long digest as people quote one (`4f5a9c0e12ab`), whole in its tooltip (and on
        // the item page).
        if shortened, isID, case .plain(let text, nil) = content, let short = ItemShapeDetector.shortDigest(text) {
            content = .plain(short, full: text)
        }
        var classes = "cell"
        if numeric { classes += " num" }
        // A rise that is bad news (a delay, a latency) is marked in the bad tone.
        if numeric, risesAreBadNews { classes += " lower-better" }
        if isShort { classes += " short" }
        if isID { classes += " id" }
        self.value = latest ?? (numeric ? value.flatMap(Self.numberText) : nil)
        var (isPlain, isLink, isImage, isTime, isStatus) = (false, false, false, false, false)
        var tone: String?
        var statusTone: ItemColumn.Tone?
        var (text, full, href, src, timeMachine, relative): (String, String?, String?, String?, String?, Bool) = (
            "", nil, nil, nil, nil, false
        )
        switch content {
        case .plain(let shown, let whole):
            isPlain = true
            (text, full) = (shown, whole)
        case .link(let shown, let url):
            isLink = true
            (text, href) = (shown, url)
        case .image(let url):
            isImage = true
            src = url
        case .time(let date, let isRelative):
            isTime = true
            timeMachine = RelativeTime.machine(date)
            relative = isRelative
            text = isRelative ? RelativeTime.describe(date, now: now) : DetailView.long(date)
        case .status(let words, let wordTone):
            isStatus = true
            text = words
            tone = "status-" + wordTone.rawValue
            statusTone = wordTone
            classes += " status status-" + wordTone.rawValue
        case .missing:
            isPlain = true
            text = "—"
            // Aligned as the column's figures are, under its header.
            if format.isNumeric, !numeric { classes += " num" }
            classes += " missing"
        }
        if let itemHref, !isImage { href = itemHref }
        self.text = text
        self.full = full
        self.href = href
        self.src = src
        self.timeMachine = timeMachine
        self.relative = relative
        self.classes = classes
        self.tone = tone
        self.statusTone = statusTone
        self.isPlain = isPlain
        self.isLink = isLink
        self.isImage = isImage
        self.isTime = isTime
        self.isStatus = isStatus
        linksItem = itemHref != nil && !isImage
    }

    /// Words of a status that says its item has finished (a job's pod `Succeeded`, a build
    /// `completed`): what it has short of ready no longer matters.
    static let finishedWords: Set<String> = [
        "succeeded", "completed", "complete", "done", "finished", "success", "successful",
    ]

    /// `cells` of one item, with a count short of all (``classes``' `short`) no longer marked
    /// when one of its statuses says the item has finished (a completed job's pod, `0/1`
    /// ready, as every finished one is).
    static func finishing(_ cells: [CellView]) -> [CellView] {
        guard cells.contains(where: { $0.isStatus && finishedWords.contains($0.text.lowercased()) }) else {
            return cells
        }
        return cells.map { cell in
            var cell = cell
            cell.classes = cell.classes.split(separator: " ").filter { $0 != "short" }.joined(separator: " ")
            return cell
        }
    }

    /// The format `column` shows `item`'s `value` in: its own, or for a named value the one
    /// its name says (a device's `uptime` as a duration).
    static func format(of column: ItemColumn, in item: FeedItem, value: JSONValue?) -> ItemColumn.Format {
        guard let namedBy = column.formatNamedBy, let valueName = item.raw.value(at: namedBy)?.stringValue,
            let value
        else { return column.format }
        return ItemShapeDetector.shownFormat(ofValueNamed: valueName, value: value)
    }

    /// The tone of the status `column` shows for `item`, `nil` when the cell shows no status
    /// (a number or a reading in a state's place, no value): whether the item calls for
    /// attention, without making the rest of its cell.
    static func statusTone(of item: FeedItem, column: ItemColumn) -> ItemColumn.Tone? {
        let value = item.raw.value(at: column.pointer)
        guard let value, !value.isNull else { return nil }
        switch format(of: column, in: item, value: value) {
        case .status(let tones):
            guard let word = CellFormatting.scalarText(value),
                isStatusWord(word, number: value.doubleValue, tones: tones)
            else { return nil }
            return tones.tone(of: word)
        case .condition(let type):
            return ItemCondition.status(in: value, type: type).map(conditionTone)
        default:
            return nil
        }
    }

    /// Whether `word` (a value's text, `number` its number if it is one) is shown as a
    /// status by a column with `tones`: a reading in a state's place (a sensor's `78`,
    /// `"21.4"`) is a number, not a word; a flag's `1` (a word `tones` names) is a word, and
    /// so is an HTTP status code (`503`, bad) where `tones` reads them.
    private static func isStatusWord(_ word: String, number: Double?, tones: ItemColumn.StatusTones) -> Bool {
        if tones.readsHTTPCodes && ItemColumn.StatusTones.isHTTPCode(word) { return true }
        return (number == nil || tones.shown[word] != nil) && !ItemShapeDetector.isReading(word)
    }

    /// A condition's tone by its status: `True` good, `False` bad, anything else (`Unknown`)
    /// busy.
    private static func conditionTone(_ status: String) -> ItemColumn.Tone {
        switch status {
        case "True": .good
        case "False": .bad
        default: .busy
        }
    }

    private static func content(
        _ value: JSONValue?, format: ItemColumn.Format, decimals: Int, localTimeOffset: Int?, currency: Currency?,
        links: PageLinks, numeric: inout Bool, shortened: Bool
    ) -> Content {
        guard var value, !value.isNull else { return .missing }
        // A quantity in hexadecimal (Ethereum's `"gasUsed":"0x1c9c380"`) in a column of
        // numbers or times is the number it writes.
        if format.isNumeric || format == .date || format == .relative, let text = value.stringValue,
            let quantity = ItemShapeDetector.hexQuantity(text)
        {
            value = .int(quantity)
        }
        func text(_ whole: String) -> Content {
            guard shortened, whole.count > maxListCharacters else { return .plain(whole, full: nil) }
            return .plain(String(whole.prefix(maxListCharacters - 1)) + "…", full: whole)
        }
        let number = value.doubleValue
        switch format {
        case .number:
            // A number written for people (`12,400`, `$1,234.50`) is shown as it was written;
            // a plain one sent as text (`"43210.1234567890"`) as a number a person reads.
            if number == nil, let text = value.stringValue {
                if ItemShapeDetector.isReading(text), let plain = Double(text) {
                    numeric = true
                    return .plain(CellFormatting.readable(plain, decimals: decimals), full: nil)
                }
                if ItemShapeDetector.formattedNumber(text) != nil {
                    numeric = true
                    return .plain(text, full: nil)
                }
            }
            guard let number else { break }
            numeric = true
            return .plain(CellFormatting.grouped(value, number, decimals: decimals), full: nil)
        case .percent:
            guard let number = number ?? value.stringValue.flatMap(ItemShapeDetector.writtenNumber) else { break }
            numeric = true
            return .plain(CellFormatting.percent(number), full: nil)
        case .fraction:
            guard let number = number ?? value.stringValue.flatMap(ItemShapeDetector.writtenNumber) else { break }
            numeric = true
            return .plain(CellFormatting.fraction(number), full: nil)
        case .money(let units):
            guard let amount = number ?? value.stringValue.flatMap(ItemShapeDetector.writtenNumber) else { break }
            numeric = true
            return .plain(CellFormatting.money(amount, units: units, currency: currency), full: nil)
        case .bytes:
            // A size written for people (`"1.2gb"`) is shown as written.
            if number == nil, let text = value.stringValue, ItemShapeDetector.writtenSize(text) != nil {
                numeric = true
                return .plain(text, full: nil)
            }
            guard let number else { break }
            numeric = true
            return .plain(CellFormatting.bytes(number), full: nil)
        case .duration(let unit):
            guard let number else { break }
            numeric = true
            return .plain(CellFormatting.duration(unit == .seconds ? number : number / 1000), full: nil)
        case .date, .relative:
            // Go's zero time (an alert's `endsAt` while it fires): no time yet.
            if CellFormatting.isZeroTime(value) { return .missing }
            guard let date = CellFormatting.date(value, localTimeOffset: localTimeOffset) else { break }
            return .time(date, relative: format == .relative)
        case .link:
            guard let url = links.safeURL(value.stringValue) else { break }
            return .link(CellFormatting.linkText(url), url: url)
        case .image:
            guard let url = links.safeURL(value.stringValue) else { break }
            return .image(url)
        case .status(let tones):
            guard let word = CellFormatting.scalarText(value) else { break }
            guard isStatusWord(word, number: number, tones: tones) else {
                numeric = true
                if let number, tones.shown[word] == nil {
                    return .plain(CellFormatting.grouped(value, number), full: nil)
                }
                return .plain(word, full: nil)
            }
            return .status(shown: CellFormatting.statusWords(word, tones: tones), tones.tone(of: word))
        case .text:
            return text(CellFormatting.scalarText(value) ?? CellFormatting.summary(value))
        case .condition(let type):
            guard let status = ItemCondition.status(in: value, type: type) else { break }
            let tone = conditionTone(status)
            switch tone {
            case .good: return .status(shown: type, tone)
            case .bad: return .status(shown: "Not " + ItemShapeDetector.label(for: type).lowercased(), tone)
            default: return .status(shown: status, tone)
            }
        case .series, .tally:
            // Shown by the caller when it is one (``ItemSeries``, ``ItemTally``); anything
            // else as it is.
            break
        case .html:
            guard let html = value.stringValue else { break }
            return text(HTMLPlainText.plain(html))
        case .flag:
            switch value {
            case .bool(let flag): return .plain(flag ? "yes" : "no", full: nil)
            case .int(1): return .plain("yes", full: nil)
            case .int(0): return .plain("no", full: nil)
            default: break
            }
        case .automatic:
            break
        }
        // Automatic, or a value the format does not fit: shown for what it is.
        switch value {
        case .int, .double:
            numeric = true
            return .plain(CellFormatting.grouped(value, number ?? 0, decimals: decimals), full: nil)
        case .bool(let flag):
            return .plain(flag ? "yes" : "no", full: nil)
        case .string(let string):
            if ItemShapeDetector.isHTTPURL(string), let url = URLPolicy.safeURL(string) {
                return .link(CellFormatting.linkText(url), url: url)
            }
            return text(string)
        case .array, .object:
            return text(CellFormatting.summary(value))
        case .null:
            return .missing
        }
    }

    /// `number` as `data-value` writes it: a whole one without a fraction (`7`, not `7.0`).
    private static func numberText(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// A number's JSON text, for `data-value`: a JSON number's, or a text that is one (a
    /// reading sent as text, `"21.4"`).
    private static func numberText(_ value: JSONValue) -> String? {
        switch value {
        case .int, .double: value.serializedString()
        case .string(let text):
            ItemShapeDetector.isReading(text)
                ? text
                : (ItemShapeDetector.formattedNumber(text) ?? ItemShapeDetector.writtenSize(text)).map(numberText)
        default: nil
        }
    }
}
