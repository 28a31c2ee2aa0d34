import FeedCore
import Foundation

/// `/stats` as the templates see it: the ticker, the summary tiles, the two charts (their
/// SVG already drawn and escaped by ``SVGChart``) and the notable events. Every string
/// from the feed or upstream is raw here: the templates and ``SVGChart`` escape it.
struct StatsView {
    struct Ticker {
        let label: String
        let title: String
        let href: String
        let timeMachine: String
        let timeText: String
        let clock: String
    }

    struct Tile {
        let label: String
        let value: String
        let note: String
    }

    struct LegendEntry {
        let name: String
        let label: String
    }

    struct Chart {
        let id: String
        let heading: String
        let note: String
        /// Drawn by ``SVGChart``, which escapes every string in it.
        let svg: String
        let legend: [LegendEntry]
    }

    struct Event {
        let kind: String
        let label: String
        let detail: String?
        let timeMachine: String
        let timeText: String
    }

    /// The most recent notable events listed under the charts.
    static let listedEvents = 6

    let ticker: Ticker?
    let tiles: [Tile]
    let rate: Chart
    let bytes: Chart
    let events: [Event]
    /// Stored, not computed: templates read stored values (TemplateValues.swift).
    let hasEvents: Bool

    /// `/stats` of `window`; `layout` says what the items are called (stories, or items of a
    /// table).
    init(window: StatsWindow, ticker: TickerEntry?, now: Date, links: PageLinks, layout: ItemProfile.Layout = .news) {
        self.ticker = ticker.map { Self.ticker($0, now: now, links: links, layout: layout) }
        tiles = Self.tiles(window, layout: layout)
        rate = Self.rateChart(window)
        bytes = Self.bytesChart(window)
        events = window.notable.suffix(Self.listedEvents).reversed().map { event in
            Event(
                kind: event.kind.rawValue, label: Self.label(event), detail: event.detail,
                timeMachine: RelativeTime.machine(event.time), timeText: RelativeTime.describe(event.time, now: now))
        }
        hasEvents = !events.isEmpty
    }

    static func ticker(
        _ entry: TickerEntry, now: Date, links: PageLinks, layout: ItemProfile.Layout = .news
    ) -> Ticker {
        Ticker(
            label: entry.isNew ? (layout == .table ? "New item" : "Latest story") : "Latest update", title: entry.title,
            href: links.item(entry.key),
            timeMachine: RelativeTime.machine(entry.time), timeText: RelativeTime.describe(entry.time, now: now),
            clock: clock(entry.time))
    }

    // MARK: - Tiles

    /// The summary: updates, new items, and the bytes against polling, said as
    /// ``StatsWindow/comparison`` has them (received from upstream, or sent to each screen).
    static func tiles(_ window: StatsWindow, layout: ItemProfile.Layout = .news) -> [Tile] {
        let sum = window.sum
        let peak = window.buckets.compactMap { $0?.changes }.max() ?? 0
        let totals = window.totals
        let saved: String
        let ratio: String
        if let fraction = totals.savedFraction, let times = totals.savingRatio {
            saved = percent(fraction)
            ratio = times >= 1 ? "\(multiple(times)) less than polling" : "streaming cost more than polling"
        } else {
            saved = "–"
            ratio = "nothing received yet"
        }
        let screens = window.comparison == .screens
        return [
            Tile(label: "Updates · 10 min", value: "\(sum.changes)", note: "at most \(peak) in 5 s"),
            Tile(
                label: layout == .table ? "New items · 10 min" : "New stories · 10 min", value: "\(sum.added)",
                note: "\(sum.updated) updated · \(sum.removed) removed"),
            screens
                ? Tile(
                    label: "Sent to each screen", value: bytes(totals.bytesReceived),
                    note: "the document, then its changes, since start")
                : Tile(label: "Received", value: bytes(totals.bytesReceived), note: "from upstream, since start"),
            Tile(
                label: screens ? "Each screen polling" : "Polling would cost", value: bytes(totals.pollingBytes),
                note: plural(Int(clamping: totals.polls), "full download")),
            Tile(label: "Saved", value: saved, note: ratio),
        ]
    }

    // MARK: - Charts

    /// Ticks every two minutes, "−10" on the left to "now" on the right (the axis says
    /// "minutes ago").
    static let timeTicks: [SVGChart.Tick] = (0...5).map { step in
        let minutesAgo = 10 - 2 * step
        return SVGChart.Tick(position: Double(step) / 5, label: minutesAgo == 0 ? "now" : "−\(minutesAgo)")
    }

    static func rateChart(_ window: StatsWindow) -> Chart {
        let values = window.buckets.map { $0.map { Double($0.changes) } }
        let span = window.end.timeIntervalSince(window.start)
        let markers = window.notable.map { event in
            SVGChart.Marker(
                position: span > 0 ? event.time.timeIntervalSince(window.start) / span : 1, kind: event.kind.rawValue,
                title: "\(label(event)) at \(clock(event.time))" + (event.detail.map { ": \($0)" } ?? ""))
        }
        let sum = window.sum
        let chart = SVGChart(
            id: "stats-rate-chart", title: "Updates per 5 seconds, last 10 minutes",
            summary: "\(plural(sum.changes, "update")) in the last 10 minutes, at most "
                + "\(values.compactMap { $0 }.max().map { Int($0) } ?? 0) in 5 seconds; "
                + "\(plural(window.notable.count, "notable event")).",
            series: [SVGChart.Series(name: "updates", values: values, filled: true)],
            markers: markers, xTicks: timeTicks, xLabel: "minutes ago", yLabel: "updates per 5 s",
            yFormat: { String(Int($0.rounded())) }, minimumTop: 4)
        var legend = [LegendEntry(name: "updates", label: "accepted changes")]
        // Leader changes (cluster mode) only when the window has one.
        let hasLeaderChange = window.notable.contains { $0.kind == .leaderChange }
        legend += NotableEvent.Kind.allCases.filter { $0 != .mark && ($0 != .leaderChange || hasLeaderChange) }.map {
            LegendEntry(name: "marker-" + $0.rawValue, label: label($0))
        }
        // Chart marks (--mark) are named by the user: one entry per label in the window.
        var markLabels: [String] = []
        for event in window.notable where event.kind == .mark && !markLabels.contains(label(event)) {
            markLabels.append(label(event))
        }
        legend += markLabels.map { LegendEntry(name: "marker-mark", label: $0) }
        return Chart(
            id: "stats-rate", heading: "Updates per 5 seconds",
            note: "changes accepted from upstream; a marker for each notable event (hover for details)",
            svg: chart.render(), legend: legend)
    }

    static func bytesChart(_ window: StatsWindow) -> Chart {
        var received: [Double?] = []
        var polling: [Double?] = []
        var receivedSum: UInt64 = 0
        var pollingSum: UInt64 = 0
        for bucket in window.buckets {
            guard let bucket else {
                received.append(nil)
                polling.append(nil)
                continue
            }
            receivedSum += bucket.bytesReceived
            pollingSum += bucket.pollingBytes
            received.append(Double(receivedSum))
            polling.append(Double(pollingSum))
        }
        let every = seconds(window.pollInterval)
        let screens = window.comparison == .screens
        let chart = SVGChart(
            id: "stats-bytes-chart", title: "Bytes over the last 10 minutes, received against polling",
            summary: (screens
                ? "Each screen got \(bytes(receivedSum)) through feedweb's stream; polling the API"
                : "Received \(bytes(receivedSum)) through the stream; polling the full document")
                + " every \(every) would have downloaded \(bytes(pollingSum)).",
            series: [
                SVGChart.Series(name: "polling", values: polling),
                SVGChart.Series(name: "received", values: received, filled: true),
            ],
            xTicks: timeTicks, xLabel: "minutes ago", yLabel: "bytes, cumulative", yFormat: { bytes(UInt64($0)) },
            minimumTop: 1000)
        return Chart(
            id: "stats-bytes", heading: "Bandwidth: stream against polling",
            note: "cumulative over the last 10 minutes", svg: chart.render(),
            legend: [
                LegendEntry(
                    name: "received",
                    label: screens ? "each screen: the document, then patches" : "received: snapshot, then patches"),
                LegendEntry(
                    name: "polling",
                    label: screens
                        ? "each screen polling the API every \(every)" : "polling the full document every \(every)"),
            ])
    }

    // MARK: - Words and numbers

    static func label(_ kind: NotableEvent.Kind) -> String {
        switch kind {
        case .reconnect: return "Reconnect"
        case .rejectedPatch: return "Rejected patch"
        case .newSection: return "New section"
        case .guardRegression: return "Older version held back"
        case .mark: return "Mark"
        case .leaderChange: return "Leader change"
        }
    }

    /// What `event` is called: a chart mark by its label, the others by their kind.
    static func label(_ event: NotableEvent) -> String {
        event.kind == .mark ? (event.label ?? label(event.kind)) : label(event.kind)
    }

    /// "1 update", "2 updates".
    static func plural(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    /// "14:03:05 UTC".
    static func clock(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle().time(includingFractionalSeconds: false)).prefix(8) + " UTC"
    }

    /// "0 B", "950 B", "10 kB", "12.3 kB", "4.56 MB" (powers of 1000; no trailing zeros).
    static func bytes(_ count: UInt64) -> String {
        if count < 1000 { return "\(count) B" }
        var value = Double(count)
        for unit in ["kB", "MB", "GB", "TB"] {
            value /= 1000
            if value < 999.5 || unit == "TB" {
                let digits = value < 9.995 ? 2 : (value < 99.95 ? 1 : 0)
                var text = String(format: "%.\(digits)f", value)
                if text.contains(".") {
                    while text.hasSuffix("0") { text.removeLast() }
                    if text.hasSuffix(".") { text.removeLast() }
                }
                return text + " " + unit
            }
        }
        return "\(count) B"
    }

    /// "94%" (never "100%" unless nothing was needed at all).
    static func percent(_ fraction: Double) -> String {
        let value = (fraction * 100).rounded(.down)
        guard value.isFinite else { return "–" }
        let percent = Int(max(-999, min(100, value)))
        return percent < 0 ? "−\(-percent)%" : "\(percent)%"
    }

    /// "16×", "2.5×".
    static func multiple(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "–" }
        return ratio < 10 ? String(format: "%.1f×", ratio) : "\(Int(min(ratio, 1e9).rounded()))×"
    }

    /// "5 s", "2.5 s", "2 min".
    static func seconds(_ interval: TimeInterval) -> String {
        if interval >= 60, interval.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(interval / 60)) min" }
        if interval == interval.rounded() { return "\(Int(interval)) s" }
        return String(format: "%.1f s", interval)
    }
}
