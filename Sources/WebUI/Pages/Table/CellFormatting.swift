import FeedCore
import Foundation

/// The formats of ``ItemColumn/Format`` as text: pure functions of a value.
enum CellFormatting {
    /// A number with its digits grouped by thousands: `1,234,567`, `-1,234.5`, `0.000123`.
    /// Whole numbers as whole numbers; others as Swift writes them shortest, to at most
    /// six decimals, or the more a number below a thousandth needs for four significant
    /// digits (`0.00000987`, never `9.87e-06`); very large or very small ones as written
    /// (`1e+16`, `1e-13`: ``NumberDecimals/smallestWithAPoint``). With `decimals`
    /// (a column's, ``ItemColumn/decimals``), padded with zeros to that many, or to as many
    /// as its size warrants (``NumberDecimals/warranted(by:)``) when fewer: `76.20`.
    static func grouped(_ value: JSONValue, _ number: Double, decimals: Int = 0) -> String {
        // A zero has no size of its own: it takes the column's (`0.00000000` among `0.00000700`).
        let padded = min(
            decimals, number == 0 ? NumberDecimals.mostDecimals : NumberDecimals.warranted(by: number.magnitude))
        if case .int(let whole) = value {
            return group(String(whole.magnitude), negative: whole < 0) + fraction("", padded: padded)
        }
        guard number.isFinite else { return String(number) }
        if number.magnitude >= 1e15 || (number != 0 && number.magnitude < NumberDecimals.smallestWithAPoint) {
            return String(number)
        }
        if number == number.rounded() {
            return group(String(Int64(number).magnitude), negative: number < 0) + fraction("", padded: padded)
        }
        var text = String(number.magnitude)
        // Arithmetic's noise (``NumberDecimals/carriesNoise(_:)``): to the decimals the
        // number's size warrants.
        if NumberDecimals.carriesNoise(text) {
            let rounded = NumberDecimals.rounded(number)
            if rounded != number { return grouped(.double(rounded), rounded, decimals: decimals) }
        }
        // At most six decimals, or what a smaller number's four significant digits need; a
        // point, never an exponent (`0.00000987`, not `9.87e-06`).
        let most = max(6, NumberDecimals.warranted(by: number.magnitude))
        if text.contains("e")
            || text.firstIndex(of: ".").map({ text.distance(from: $0, to: text.endIndex) > most + 1 })
                == true
        {
            text = String(format: "%.\(most)f", number.magnitude)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        let dot = text.firstIndex(of: ".") ?? text.endIndex
        return group(String(text[..<dot]), negative: number < 0) + fraction(text[dot...], padded: padded)
    }

    /// `written` (a point and its digits, or nothing) with zeros after it to `padded` digits.
    private static func fraction(_ written: Substring, padded: Int) -> String {
        let digits = max(0, written.count - 1)
        guard padded > digits else { return String(written) }
        return (written.isEmpty ? "." : String(written)) + String(repeating: "0", count: padded - digits)
    }

    /// A number sent as text with more digits than a person reads (CoinCap's
    /// `"43210.1234567890123456"`), to the decimals its size warrants: two from 1,000 up,
    /// four from 1, six below, four significant digits below a thousandth
    /// (``NumberDecimals/warranted(by:)``: `"0.00000987"` as it is); grouped and padded as ``grouped(_:_:decimals:)`` does
    /// (`43,210.12`).
    static func readable(_ number: Double, decimals: Int = 0) -> String {
        let rounded = NumberDecimals.rounded(number)
        return grouped(.double(rounded), rounded, decimals: decimals)
    }

    /// An amount of money as people write it: in `currency` (its sign before the amount,
    /// `$20.15`, `−€3.50`, else its code after it, `12.50 CHF`; without one, the amount
    /// alone), to its minor unit's decimals (`¥2,000`, `$20.00`); `units` says whether
    /// `amount` counts the minor unit (Stripe's `2015` cents) or whole units. Whole units
    /// keep decimals past the minor unit's, up to 8 (`0.00012345 BTC`).
    static func money(_ amount: Double, units: ItemColumn.MoneyUnits, currency: Currency?) -> String {
        guard amount.isFinite else { return String(amount) }
        let digits = currency?.minorDigits ?? 2
        var value = amount
        var decimals = digits
        switch units {
        case .minor:
            value = amount / Double([1, 10, 100, 1000][digits])
        case .whole:
            // The decimals of the number's shortest writing (`20.15`, `0.00012345`).
            let shortest = String(amount.magnitude)
            if shortest.contains("e") {
                decimals = 8
            } else if let dot = shortest.firstIndex(of: ".") {
                decimals = min(8, max(digits, shortest.distance(from: dot, to: shortest.endIndex) - 1))
            }
        }
        guard value.magnitude < 1e15 else { return String(value) }
        let written = String(format: "%.\(decimals)f", value.magnitude)
        let dot = written.firstIndex(of: ".") ?? written.endIndex
        let number = group(String(written[..<dot]), negative: false) + written[dot...]
        let minus = value < 0 && written.contains(where: { $0 != "0" && $0 != "." }) ? "−" : ""
        guard let currency else { return minus + number }
        if let sign = currency.sign { return minus + sign + number }
        return minus + number + " " + currency.code
    }

    /// `digits` with a `,` every three from the right, and a minus sign when `negative`.
    private static func group(_ digits: String, negative: Bool) -> String {
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (negative ? "−" : "") + out
    }

    /// A status word as a person reads it: as `tones` shows it (a Jenkins ball's
    /// `blue_anime` as "building"), else an API's token in words (`in_progress` → "in
    /// progress", `major_outage` → "major outage"); the value itself is unchanged.
    static func statusWords(_ word: String, tones: ItemColumn.StatusTones? = nil) -> String {
        tones?.shown[word.lowercased()] ?? word.replacing("_", with: " ")
    }

    /// A value of the filter `column` as its chip and heading show it: a status's in words
    /// (``statusWords(_:)``), any other as it is.
    static func filterValue(_ value: String, of column: ItemColumn?) -> String {
        guard case .status(let tones) = column?.format else { return value }
        return statusWords(value, tones: tones)
    }

    /// A percentage as given: `1.2345` → `1.23 %`.
    static func percent(_ number: Double) -> String {
        let text = String(format: "%.2f", number.magnitude)
        return (number < 0 && text != "0.00" ? "−" : "") + text + " %"
    }

    /// A share from 0 to 1 as a percentage to a tenth, whole ones without it: `0.371` →
    /// `37.1 %`, `1` → `100 %`.
    static func fraction(_ share: Double) -> String {
        let tenths = (share * 1000).rounded() / 10
        guard tenths.isFinite, tenths.magnitude < 1e15 else { return String(format: "%.0f", share * 100) + " %" }
        let text = tenths == tenths.rounded() ? String(Int64(tenths)) : String(format: "%.1f", tenths)
        return text + " %"
    }

    /// Bytes in binary units: `512 B`, `1.5 KiB`, `230 MiB`.
    static func bytes(_ number: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = number.magnitude
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let sign = number < 0 ? "−" : ""
        if unit == 0 { return sign + String(Int64(value)) + " B" }
        let text = value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
        return sign + text + " " + units[unit]
    }

    /// A length of time in seconds, in its two largest units: `850 ms`, `4.2 s`, `3 min 12 s`,
    /// `1 h 02 min`, `2 d 3 h`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return String(seconds) }
        let sign = seconds < 0 ? "−" : ""
        let value = seconds.magnitude
        if value == 0 { return "0 s" }
        if value < 1 { return sign + String(Int((value * 1000).rounded())) + " ms" }
        if value < 10 && value != value.rounded() { return sign + String(format: "%.1f", value) + " s" }
        let whole = Int64(min(value.rounded(), 1e15))
        if whole < 60 { return sign + "\(whole) s" }
        if whole < 3600 { return sign + "\(whole / 60) min \(whole % 60) s" }
        if whole < 86_400 { return sign + "\(whole / 3600) h " + String(whole % 3600 / 60).leftPadded(to: 2) + " min" }
        return sign + "\(whole / 86_400) d \(whole % 86_400 / 3600) h"
    }

    /// Whether `value` is Go's zero time, `0001-01-01T00:00:00Z` (with or without a
    /// fraction or an offset), which Go's APIs send for a time that has not come (an
    /// alert's `endsAt` while it fires), or a number of seconds since 1970 that is not
    /// past 0 (qBittorrent's `completion_on: -1` for a download not done).
    static func isZeroTime(_ value: JSONValue) -> Bool {
        if let number = value.doubleValue { return number <= 0 }
        return value.stringValue?.hasPrefix("0001-01-01T00:00:00") ?? false
    }

    /// A moment from RFC 3339 text or a number of seconds (or, past 10^11, milliseconds)
    /// since 1970, or, with `localTimeOffset` (seconds east of UTC), a date and time without
    /// a zone read there (``ItemColumn/localTimeOffset``); `nil` for anything else.
    static func date(_ value: JSONValue, localTimeOffset: Int? = nil) -> Date? {
        switch value {
        case .string(let text):
            if let offset = localTimeOffset, let time = WallTime(localTime: text, offsetSeconds: offset) {
                return time.date
            }
            return WallTime(feedTime: text)?.date ?? RelativeTime.parse(text)
        case .int, .double:
            guard let number = value.doubleValue, number.isFinite, number > 0 else { return nil }
            // Seconds, or past 10^11 milliseconds, past 10^14 microseconds, past 10^17
            // nanoseconds (Nomad's `SubmitTime`, Loki's and OpenTelemetry's times).
            let seconds =
                number >= 1e17 ? number / 1e9 : number >= 1e14 ? number / 1e6 : number > 1e11 ? number / 1000 : number
            return seconds < 1e11 ? Date(timeIntervalSince1970: seconds) : nil
        default:
            return nil
        }
    }

    /// What names `item` on a tile and its page: its title, else its key; a long digest
    /// (Docker's 64 hex digits) cut to 12, as its cell shows it (``ItemShapeDetector/shortDigest(_:)``).
    static func itemName(_ item: FeedItem) -> String {
        let name = item.title ?? item.key
        return ItemShapeDetector.shortDigest(name) ?? name
    }

    /// A title that is a moment, as a tile heads it: a date and time without a zone as the
    /// place that sent it keeps time (a forecast's `2026-11-30T17:00`: "30 Nov, 17:00"),
    /// one with a zone in UTC ("30 Nov, 16:00 UTC"), the year only when it is not `now`'s;
    /// `nil` for any other title.
    static func momentTitle(_ text: String, now: Date) -> String? {
        let zoned = WallTime(feedTime: text)
        guard let time = zoned ?? WallTime(localTime: text, offsetSeconds: 0) else { return nil }
        // A time without a zone was read as if at UTC: its parts in UTC are the ones it was written with.
        let parts = DetailView.UTCParts(time.date)
        let year = parts.year == DetailView.UTCParts(now).year ? "" : " \(parts.year)"
        return "\(parts.day) \(parts.month)\(year), \(parts.clock)" + (zoned == nil ? "" : " UTC")
    }

    /// The text an object names itself by (its first member of
    /// ``ItemShapeDetector/referenceNames`` that is non-empty text); `nil` for anything else.
    /// A port mapping as `docker ps` writes one: Docker's `{"PublicPort": 8080,
    /// "PrivatePort": 80, "Type": "tcp"}` as `8080→80/tcp`, one not published as `80/tcp`;
    /// a Kubernetes service's `{"port": 80, "targetPort": 8080, "protocol": "TCP"}` as
    /// `80→8080/TCP`. `nil` for any other value.
    static func portText(_ value: JSONValue) -> String? {
        guard case .object(let members) = value else { return nil }
        func port(_ names: String...) -> String? {
            for name in names {
                switch members[name] {
                case .int(let number)?: return String(number)
                case .string(let text)? where !text.isEmpty && text.count <= 16: return text
                default: continue
                }
            }
            return nil
        }
        let outside = port("PublicPort", "publicPort", "public_port", "port", "hostPort", "published")
        let inside = port("PrivatePort", "privatePort", "private_port", "targetPort", "containerPort", "target")
        let protocolName = ["Type", "protocol", "Protocol"].lazy.compactMap { members[$0]?.stringValue }.first
        // A `port` alone beside a host is an address, not a mapping.
        guard let shown = inside ?? outside, inside != nil || protocolName != nil else { return nil }
        let mapped = if let outside, let inside, outside != inside { outside + "→" + inside } else { shown }
        return protocolName.map { mapped + "/" + $0 } ?? mapped
    }

    private static func reference(_ value: JSONValue) -> String? {
        guard case .object(let members) = value else { return nil }
        for name in ItemShapeDetector.referenceNames {
            if case .string(let text)? = members[name], !text.isEmpty { return text }
        }
        return nil
    }

    /// A link's text: the URL without its scheme, at most 48 characters.
    static func linkText(_ url: String) -> String {
        var text = url
        for scheme in ["https://", "http://"] where text.lowercased().hasPrefix(scheme) {
            text.removeFirst(scheme.count)
        }
        if text.hasSuffix("/") { text.removeLast() }
        return text.count > 48 ? String(text.prefix(47)) + "…" : text
    }

    /// A scalar as text (numbers as JSON writes them); `nil` for an array or object.
    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int, .double: value.serializedString()
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array, .object: nil
        }
    }

    /// An array or object in a few words: `a, b, c` for up to three short scalars or
    /// objects that name themselves (an issue's labels by their `name`, its assignees by
    /// their `login`: ``ItemShapeDetector/referenceNames``), a lone small object's plain
    /// values (`Snow, light snow`); an object by its name, or its few plain values by name
    /// (``namedValues(_:)``); else `12 items`, `4 fields`. An array's `null`s are left out.
    static func summary(_ value: JSONValue) -> String {
        switch value {
        case .array(let all):
            // A `null` among them is no value (Datadog's `unit: [{"name": "percent"}, null]`).
            let elements = all.filter { !$0.isNull }
            if elements.isEmpty { return "none" }
            let texts = elements.compactMap { scalarText($0) ?? portText($0) ?? reference($0) }
            if texts.count == elements.count, elements.count <= 3, texts.allSatisfy({ $0.count <= 24 }) {
                return texts.joined(separator: ", ")
            }
            // More, if short together (an issue's six labels).
            let joined = texts.joined(separator: ", ")
            if texts.count == elements.count, elements.count <= 8, joined.count <= 80 {
                return joined
            }
            if elements.count == 1, case .object(let members) = elements[0],
                let texts = ItemShapeDetector.loneThingTexts(members)
            {
                return texts.joined(separator: ", ")
            }
            return elements.count == 1 ? "1 item" : "\(elements.count) items"
        case .object(let members):
            if let name = reference(value) { return name }
            if let named = namedValues(members) { return named }
            return members.count == 1 ? "1 field" : "\(members.count) fields"
        default:
            return scalarText(value) ?? ""
        }
    }

    /// A small object's plain values, each after its member's label (``ItemShapeDetector/label(for:)``):
    /// `Speed 12 km/h, Dir NW`, `Lat 47.37, Lon 8.54`; one to three of them, numbers grouped,
    /// yes and no for flags, `null`s left out; `nil` when a member is an array or an object,
    /// or a text is empty or longer than 24 characters.
    static func namedValues(_ members: JSONObject) -> String? {
        guard members.count <= 6 else { return nil }
        var parts: [String] = []
        for (name, value) in members {
            let text: String
            switch value {
            case .null: continue
            case .string(let string) where !string.isEmpty && string.count <= 24: text = string
            case .int, .double: text = grouped(value, value.doubleValue ?? 0)
            case .bool(let flag): text = flag ? "yes" : "no"
            default: return nil
            }
            // A unit of measure after the value: `Speed 12 km/h`, not `Speed (km/h) 12`.
            let (words, unit) = ItemShapeDetector.labelWords(for: name)
            parts.append(words + " " + text + (unit.map { " " + $0 } ?? ""))
        }
        return (1...3).contains(parts.count) ? parts.joined(separator: ", ") : nil
    }
}
