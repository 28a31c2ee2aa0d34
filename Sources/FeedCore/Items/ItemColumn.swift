/// One column of the table that shows items that are not news (`--column
/// 'LABEL=/pointer[:FORMAT]'`, or one found in the items themselves): what it is called,
/// where an item keeps its value, and how the value is shown.
public struct ItemColumn: Sendable, Equatable {
    /// How a value is shown. The value itself is never changed: sorting, the item page and
    /// the API use it as the feed sent it.
    public enum Format: Sendable, Equatable {
        /// From the value: numbers grouped, `true`/`false` as yes/no, http(s) URLs as links,
        /// the rest as text.
        case automatic
        /// As the feed wrote it.
        case text
        /// Digits grouped by thousands (`1,234,567.5`).
        case number
        /// A number that is already a percentage: `1.234` shows as `1.23 %`.
        case percent
        /// A share from 0 to 1 (Transmission's `percentDone`, qBittorrent's `progress`):
        /// `0.37` shows as `37 %`.
        case fraction
        /// A count of bytes in binary units (`1.5 MiB`).
        case bytes
        /// A length of time in ``DurationUnit`` (`3 min 12 s`).
        case duration(DurationUnit)
        /// A moment (RFC 3339 text, or seconds or milliseconds since 1970), shown as a date.
        case date
        /// A moment shown as the time since it (`3 min ago`), kept current on the page.
        case relative
        /// An http(s) URL, shown as a link.
        case link
        /// An http(s) URL of a picture, shown as a small picture.
        case image
        /// A word whose tone (good, bad, busy, neutral) colours it: `passed`, `failed`,
        /// `running`.
        case status(StatusTones)
        /// A yes or no sent as `true`/`false` or `1`/`0` (GBFS's `is_renting`), shown as
        /// yes/no.
        case flag
        /// Text sent as HTML (WordPress' `content.rendered`), shown as its text
        /// (``HTMLPlainText/plain(_:)``).
        case html
        /// A series of readings (``ItemSeries``: numbers, or `[time, value]` pairs as
        /// Prometheus sends them, or `[value, time]` as Graphite does), shown as its latest
        /// value and a sparkline.
        case series
        /// An amount of money in the currency named beside it (``Currency/beside(_:in:)``:
        /// Stripe's `currency`, PayPal's `currency_code`), in whole units (`199.00`) or in
        /// the currency's minor unit (Stripe's, Adyen's and Square's `2000` cents), shown as
        /// people write it (`$20.00`, `¥2,000`, `12.50 CHF`).
        case money(MoneyUnits)
        /// One value read across the objects of an array (``ItemTally``): how many say yes,
        /// of how many (`1/2`), or the sum of their numbers.
        case tally(ItemTally)
        /// The condition of the type named, in an array of conditions (``ItemCondition``: a
        /// Kubernetes node's `Ready`): `True` shows the type's name, good; `False` `Not ready`,
        /// bad; anything else as it is, busy.
        case condition(String)

        /// The names `--column` takes after the pointer (`:number`); `status` may carry its own
        /// words (`status(passed=good,failed=bad)`).
        public static let names = [
            "text", "number", "percent", "fraction", "bytes", "duration", "duration-ms", "date", "relative", "link",
            "image",
            "status", "flag", "series", "html", "money", "money-minor", "count(MEMBER)", "sum(MEMBER)",
            "condition(TYPE)",
        ]

        /// The format named `name` (one of ``names``; `status(WORD=TONE,…)` too), or `nil`.
        public init?(name: String) {
            switch name {
            case "text": self = .text
            case "number": self = .number
            case "percent": self = .percent
            case "fraction": self = .fraction
            case "bytes": self = .bytes
            case "duration": self = .duration(.seconds)
            case "duration-ms": self = .duration(.milliseconds)
            case "date": self = .date
            case "relative": self = .relative
            case "link": self = .link
            case "image": self = .image
            case "status": self = .status(StatusTones())
            case "flag": self = .flag
            case "series": self = .series
            case "html": self = .html
            case "money": self = .money(.whole)
            case "money-minor": self = .money(.minor)
            default:
                if let tally = ItemTally(name: name) {
                    self = .tally(tally)
                    return
                }
                if name.hasPrefix("condition("), name.hasSuffix(")"), name.count > 11 {
                    let type = String(name.dropFirst(10).dropLast())
                    guard !type.contains("("), !type.contains(")") else { return nil }
                    self = .condition(type)
                    return
                }
                guard name.hasPrefix("status("), name.hasSuffix(")"),
                    let tones = StatusTones(words: String(name.dropFirst(7).dropLast()))
                else { return nil }
                self = .status(tones)
            }
        }

        /// The format's name as `--column` takes it; `nil` for ``automatic``.
        public var name: String? {
            switch self {
            case .automatic: nil
            case .text: "text"
            case .number: "number"
            case .percent: "percent"
            case .fraction: "fraction"
            case .bytes: "bytes"
            case .duration(.seconds): "duration"
            case .duration(.milliseconds): "duration-ms"
            case .date: "date"
            case .relative: "relative"
            case .link: "link"
            case .image: "image"
            case .status: "status"
            case .flag: "flag"
            case .series: "series"
            case .html: "html"
            case .money(.whole): "money"
            case .money(.minor): "money-minor"
            case .tally(let tally): tally.name
            case .condition(let type): "condition(\(type))"
            }
        }

        /// Whether values of this format are numbers, right-aligned in tabular figures.
        public var isNumeric: Bool {
            switch self {
            case .number, .percent, .fraction, .bytes, .duration, .series, .money, .tally: true
            default: false
            }
        }
    }

    /// What one of a ``Format/money(_:)`` value counts.
    public enum MoneyUnits: Sendable, Equatable {
        /// The currency's units: `20.5` dollars.
        case whole
        /// Its minor unit (``Currency/minorDigits``): `2050` cents, `2000` yen.
        case minor
    }

    /// The unit of a ``Format/duration(_:)`` value.
    public enum DurationUnit: Sendable, Equatable {
        case seconds, milliseconds
    }

    /// The tone a status word is shown in.
    public enum Tone: String, Sendable, Equatable, CaseIterable {
        case good, bad, busy, neutral
    }

    /// Which status words are good, bad or busy (compared without case; any other word is
    /// neutral). The built-in words cover CI systems, health checks and queues; words given
    /// with the format (`status(green=good,red=bad)`) come first.
    public struct StatusTones: Sendable, Equatable {
        /// The words given, lower-cased, and their tones.
        public private(set) var given: [String: Tone] = [:]
        /// What a word (lower-cased) is shown as, when not as itself in words (a Jenkins
        /// ball's `blue_anime` as "building"); the value itself is unchanged.
        public var shown: [String: String] = [:]
        /// Whether its words are HTTP status codes (an uptime check's `status_code`):
        /// `2xx` good, `3xx` neutral, `4xx` busy, `5xx` bad, shown as the code.
        public var readsHTTPCodes = false

        public init() {}

        /// The tones of HTTP status codes (``readsHTTPCodes``).
        public static var httpCodes: StatusTones {
            var tones = StatusTones()
            tones.readsHTTPCodes = true
            return tones
        }

        /// Whether `code` is an HTTP status code, `100` to `599`.
        public static func isHTTPCode(_ code: String) -> Bool {
            code.utf8.count == 3 && Int(code).map { (100...599).contains($0) } == true
        }

        /// Reads `WORD=TONE,WORD=TONE`; `nil` when a pair is not one or a tone is unknown.
        public init?(words: String) {
            for pair in words.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let tone = Tone(rawValue: parts[1].trimmed.lowercased()),
                    !parts[0].trimmed.isEmpty
                else { return nil }
                given[parts[0].trimmed.lowercased()] = tone
            }
            if given.isEmpty { return nil }
        }

        static let good: Set<String> = [
            "passed", "pass", "passing", "success", "succeeded", "successful", "ok", "healthy", "up", "green", "done",
            "completed", "complete", "active", "online", "ready", "open", "merged", "approved", "available",
            "resolved", "operational", "fixed", "on time", "on_time", "landed", "arrived", "on track", "on_track",
        ]
        /// Also an alert that is `firing` (Prometheus), an incident `triggered` (PagerDuty), a
        /// goal `off track` (good: `on track`; busy: `at risk`) and a weather alert `severe` or
        /// `extreme` (the National Weather Service's; busy: `moderate`).
        static let bad: Set<String> = [
            "failed", "fail", "failure", "failing", "error", "errored", "broken", "down", "red", "critical",
            "unhealthy", "offline", "rejected", "cancelled", "canceled", "timed_out", "timeout", "outage", "fatal",
            "major_outage", "degraded", "unavailable", "unreachable", "firing", "triggered", "off track", "off_track",
            "severe", "extreme",
        ]
        /// Also an issue `In Progress` or `In Review` (Jira's words), an incident
        /// `acknowledged` (PagerDuty), a flight `boarding` or `delayed`, a status page's
        /// milder states (Atlassian Statuspage: `degraded_performance`,
        /// `under_maintenance`, an incident `investigating` … `monitoring`) and a build that is
        /// `unstable` (Jenkins) or held for a person (`on_hold`, `blocked`), and a container
        /// `restarting`, `paused` or being removed (Docker).
        static let busy: Set<String> = [
            "running", "pending", "queued", "in_progress", "in-progress", "in progress", "in review", "building",
            "started", "starting", "waiting", "scheduled", "deploying", "yellow", "warning", "warn", "partial_outage",
            "maintenance", "created", "degraded_performance", "under_maintenance", "investigating", "identified",
            "monitoring", "unstable", "on_hold", "blocked", "acknowledged", "boarding", "delayed", "at risk", "at_risk",
            "restarting", "paused", "removing", "moderate",
        ]

        /// The tones of a flag (`true`, `false`) whose name says a state (a host's `up`, a
        /// departure's `cancelled`, `is_online`, `isHealthy`), shown as "yes" and "no"; `nil`
        /// for any other name, whose flag says nothing good or bad (`enabled`, `open`).
        /// - A state that is well when true (``flagGood``): true is good, false bad.
        /// - One that is wrong when true (``flagBad``): true is bad, false neutral.
        /// - One that is under way or waiting when true (``flagBusy``): true is busy.
        public init?(flagNamed name: String) {
            var state = name.lowercased()
            if state.hasPrefix("is_") {
                state.removeFirst(3)
            } else if name.hasPrefix("is"), name.dropFirst(2).first?.isUppercase == true {
                state.removeFirst(2)
            }
            let whenTrue: Tone
            if Self.flagGood.contains(state) {
                whenTrue = .good
                given["false"] = .bad
            } else if Self.flagBad.contains(state) {
                whenTrue = .bad
            } else if Self.flagBusy.contains(state) {
                whenTrue = .busy
            } else {
                return nil
            }
            given["true"] = whenTrue
            shown = ["true": "yes", "false": "no"]
        }

        /// The same tones for a flag sent as `1` and `0` (GBFS's `is_renting`), shown as yes
        /// and no too.
        public func forDigits() -> StatusTones {
            var digits = StatusTones()
            digits.given["1"] = given["true"]
            digits.given["0"] = given["false"]
            digits.shown = ["1": "yes", "0": "no"]
            return digits
        }

        /// Names of a flag that is well when true.
        static let flagGood: Set<String> = [
            "up", "online", "healthy", "ok", "available", "reachable", "alive", "connected", "ready", "operational",
            "passing", "passed", "success", "successful", "in_service",
        ]
        /// Names of a flag that is wrong when true.
        static let flagBad: Set<String> = [
            "down", "offline", "failed", "failing", "error", "errored", "broken", "cancelled", "canceled", "degraded",
            "unhealthy", "unavailable", "unreachable", "outage", "critical", "firing", "alerting", "timed_out",
            "stale",
        ]
        /// Names of a flag that is under way or waiting when true.
        static let flagBusy: Set<String> = ["maintenance", "under_maintenance", "delayed", "pending", "building"]

        /// The tone of `word`.
        public func tone(of word: String) -> Tone {
            let lower = word.lowercased()
            if let tone = given[lower] { return tone }
            if readsHTTPCodes, Self.isHTTPCode(lower) {
                switch lower.first {
                case "2": return .good
                case "4": return .busy
                case "5": return .bad
                default: return .neutral
                }
            }
            if Self.good.contains(lower) { return .good }
            if Self.bad.contains(lower) { return .bad }
            if Self.busy.contains(lower) { return .busy }
            return .neutral
        }

        /// Whether `word` is one of the built-in status words.
        static func isStatusWord(_ word: String) -> Bool {
            let lower = word.lowercased()
            return good.contains(lower) || bad.contains(lower) || busy.contains(lower)
        }
    }

    /// The column's heading.
    public var label: String
    /// Its name in URLs (`?sort=NAME`): lower-case letters, digits, `-`, `_` and `.`.
    public var name: String {
        didSet { holdsIDs = Self.namesIDs(name) }
    }
    /// Whether it holds ids or digests, by its name's last part (`actor.id` → `id`:
    /// ``ItemShapeDetector/isIDName(_:)``), worked out once from ``name``.
    public private(set) var holdsIDs: Bool
    /// Where an item keeps the value.
    public var pointer: JSONPointer {
        didSet { risesAreBadNews = ItemShapeDetector.isLowerBetter(pointer) }
    }
    public var format: Format
    /// Whether a rise in its numbers is bad news (a delay, a latency, what is used:
    /// ``ItemShapeDetector/isLowerBetter(_:)``), worked out once from ``pointer``.
    public private(set) var risesAreBadNews: Bool
    /// For a ``Format/date`` or ``Format/relative`` column of a feed whose items were found
    /// in it (a `--column`'s too): where its times without a zone are (`2026-11-30T00:00`,
    /// Open-Meteo's), in seconds east of UTC (the document's `utc_offset_seconds`, else 0).
    /// `nil`: such a text is no time (a column of a built-in or named profile).
    public var localTimeOffset: Int?
    /// For the value column of named values (``ItemsForm/values(nameMember:valueMember:)``:
    /// a device's `uptime`, `unixtime`, `temperature`): where each item keeps its value's
    /// name, which decides that value's format as it would a found column's
    /// (``ItemShapeDetector/shownFormat(named:samples:)``: `uptime` a duration, `unixtime` a
    /// time). `nil`: ``format`` for every value.
    public var formatNamedBy: JSONPointer?
    /// Whether the items the column was found in (three or more) held one value here, the
    /// same in each, that is no status (PagerDuty's `type: incident`): it tells one item
    /// from another by nothing, and a kiosk tile shows it only when nothing else is left.
    public var saysLittle = false
    /// The fewest decimals a number of a column that keeps one precision
    /// (``keepsOnePrecision``) is shown with (``NumberDecimals``): the most that its items'
    /// numbers were written with when the column was found, raised when a change brings
    /// more (``ColumnDecimalsWatch``), so that the points line up down the column (`76.20`
    /// above `50.52`). A number is never shown with fewer than it was written with, nor
    /// padded past what its size warrants. 0: as written.
    public var decimals = 0

    /// Whether the column keeps one precision down its numbers (``decimals``): a
    /// ``Format/number`` or ``Format/automatic`` column of values of one kind (not a named
    /// value's, ``formatNamedBy``).
    public var keepsOnePrecision: Bool {
        formatNamedBy == nil && (format == .number || format == .automatic)
    }

    /// A column named after its label (``slug(_:)``), unless `name` is given.
    public init(
        label: String, pointer: JSONPointer, format: Format = .automatic, name: String? = nil,
        localTimeOffset: Int? = nil
    ) {
        self.label = label
        self.pointer = pointer
        self.format = format
        self.name = name ?? Self.slug(label)
        self.localTimeOffset = localTimeOffset
        risesAreBadNews = ItemShapeDetector.isLowerBetter(pointer)
        holdsIDs = Self.namesIDs(self.name)
    }

    /// Whether a column's URL name says ids, by its last part (a qualified `actor.id` too).
    private static func namesIDs(_ name: String) -> Bool {
        let member = name.lastIndex(of: ".").map { name[name.index(after: $0)...] } ?? name[...]
        return ItemShapeDetector.isIDName(String(member))
    }

    /// Why a `--column` value is not `LABEL=/pointer[:FORMAT]`.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case noPointer
        case emptyLabel
        case invalidPointer(String)
        case unknownFormat(String)

        public var description: String {
            switch self {
            case .noPointer: return "has no '=/pointer' after the label"
            case .emptyLabel: return "has an empty label"
            case .invalidPointer(let reason): return "has a pointer that is not a JSON Pointer (\(reason))"
            case .unknownFormat(let name):
                return "has an unknown format '\(name)'; formats are \(Format.names.joined(separator: ", "))"
                    + " (status may name its words: status(passed=good,failed=bad,running=busy))"
            }
        }
    }

    /// Parses `LABEL=/pointer` or `LABEL=/pointer:FORMAT`: the label runs to the first `=`,
    /// the pointer to the last `:` that is followed by a word (a format's name), the format
    /// is the rest. A pointer whose last token holds `:WORD` cannot be given this way.
    public init(parsing text: String) throws(ParseError) {
        guard let equals = text.firstIndex(of: "=") else { throw .noPointer }
        let label = text[..<equals].trimmed
        guard !label.isEmpty else { throw .emptyLabel }
        var pointerText = String(text[text.index(after: equals)...])
        var format = Format.automatic
        if let colon = Self.formatColon(in: pointerText) {
            let name = String(pointerText[pointerText.index(after: colon)...])
            guard let named = Format(name: name) else { throw .unknownFormat(name) }
            format = named
            pointerText = String(pointerText[..<colon])
        }
        guard pointerText.hasPrefix("/") else {
            if pointerText.isEmpty { throw .noPointer }
            throw .invalidPointer(JSONPointerError.missingLeadingSlash.description)
        }
        let pointer: JSONPointer
        do {
            pointer = try JSONPointer(pointerText)
        } catch {
            throw .invalidPointer(error.description)
        }
        self.init(label: label, pointer: pointer, format: format)
    }

    /// The `:` that starts a format: the last one in the pointer's last token that is
    /// followed by a lower-case word (and, for `status(…)`, its words).
    private static func formatColon(in text: String) -> String.Index? {
        let lastToken = text.lastIndex(of: "/").map { text[$0...] } ?? text[...]
        // `status(a=good,b:c=bad)`: a colon inside the parentheses is not the format's.
        let searched = lastToken.firstIndex(of: "(").map { lastToken[..<$0] } ?? lastToken
        guard let colon = searched.lastIndex(of: ":") else { return nil }
        let word = text[text.index(after: colon)...].prefix { $0 != "(" }
        guard !word.isEmpty, word.allSatisfy({ ($0 >= "a" && $0 <= "z") || $0 == "-" || ($0 >= "A" && $0 <= "Z") })
        else { return nil }
        return colon
    }

    /// A URL name for `label`: lower case, runs of anything but letters and digits as one
    /// `-` (`Change %` → `change`, `duration_s` → `duration_s`).
    public static func slug(_ label: String) -> String {
        var out = ""
        var pendingDash = false
        for scalar in label.lowercased().unicodeScalars {
            let keep =
                (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "_" || scalar == "."
            if keep {
                if pendingDash && !out.isEmpty { out += "-" }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return out.isEmpty ? "column" : out
    }
}

/// How a table is sorted: by a column's value, ascending or descending.
public struct ItemSort: Sendable, Equatable, Hashable {
    /// The column's ``ItemColumn/name`` (or the last token of its pointer).
    public var column: String
    public var descending: Bool

    public init(column: String, descending: Bool) {
        self.column = column
        self.descending = descending
    }

    /// Reads `NAME`, `NAME:asc`, `NAME:desc` or `-NAME` (descending); `nil` for an empty name.
    public init?(parsing text: String) {
        var name = text.trimmed
        var descending = false
        if name.hasPrefix("-") {
            descending = true
            name.removeFirst()
        } else if name.hasSuffix(":desc") {
            descending = true
            name.removeLast(5)
        } else if name.hasSuffix(":asc") {
            name.removeLast(4)
        }
        guard !name.isEmpty, !name.contains(":") else { return nil }
        self.init(column: name, descending: descending)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces.
    var trimmed: String {
        var view = self[...]
        while view.first == " " { view.removeFirst() }
        while view.last == " " { view.removeLast() }
        return String(view)
    }
}
