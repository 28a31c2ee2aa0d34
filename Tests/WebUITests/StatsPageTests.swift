import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// `/stats`: the SVG charts drawn from known windows, the page, `/api/stats` and the page
/// stream's `stats` channel.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct StatsPageTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let hostile = "<script>alert(1)</script> \"quoted\" & 'single' \u{1}\u{7}bell ]]> {{title}}"

    /// Changes in window `k` of the ten minutes from t0: an irregular but known pattern.
    static func changes(inWindow k: Int) -> Int { (k * 7) % 11 }
    static func receivedBytes(inWindow k: Int) -> UInt64 { UInt64(100 + (k * 37) % 500) }

    /// Ten full minutes of windows with known counts, a reconnect with a hostile reason at
    /// 100 s and a new section at 300 s.
    static func window() -> StatsWindow {
        var stats = FeedStatistics(startedAt: t0, pollInterval: 5)
        stats.record(
            .accepted(AcceptedChange(documentBytes: 2000, published: true, sections: ["World"])), at: t0)
        for k in 0..<FeedStatistics.windowBuckets {
            let time = t0.addingTimeInterval(Double(k) * 5 + 1)
            stats.record(.received(bytes: receivedBytes(inWindow: k)), at: time)
            for _ in 0..<changes(inWindow: k) {
                stats.record(.accepted(AcceptedChange(documentBytes: 2000, published: false)), at: time)
            }
        }
        stats.record(.reconnect(reason: hostile), at: t0.addingTimeInterval(100))
        stats.record(
            .accepted(AcceptedChange(documentBytes: 2000, published: true, sections: ["World", "Arts & <b>"])),
            at: t0.addingTimeInterval(300))
        return stats.window(at: t0.addingTimeInterval(600.5))
    }

    /// Reads the value of a point's y from the chart's own y axis: the lowest and highest
    /// grid labels (`data-value`) at their heights.
    static func valueReader(_ svg: SVGDocument) throws -> (Double) -> Double {
        let ticks = svg.all("text").filter { $0.has(class: "tick-y") }.compactMap { tick -> (y: Double, v: Double)? in
            guard let y = tick.attributes["y"].flatMap(Double.init),
                let v = tick.attributes["data-value"].flatMap(Double.init)
            else { return nil }
            return (y, v)
        }
        let bottom = try #require(ticks.min { $0.v < $1.v })
        let top = try #require(ticks.max { $0.v < $1.v })
        #expect(bottom.v == 0)
        #expect(top.y < bottom.y)
        return { y in bottom.v + (y - bottom.y) * (top.v - bottom.v) / (top.y - bottom.y) }
    }

    static func line(_ svg: SVGDocument, series: String) throws -> [(x: Double, y: Double)] {
        let lines = svg.all("polyline").filter { $0.inside(class: "series-" + series) }
        #expect(lines.count == 1, "one unbroken line for \(series)")
        return SVGDocument.points(try #require(lines.first?.attributes["points"]))
    }

    @Test func chartsAreWellFormedXML() throws {
        let window = Self.window()
        for chart in [StatsView.rateChart(window), StatsView.bytesChart(window)] {
            let svg = try SVGDocument(chart.svg)
            #expect(svg.elements.first?.name == "svg")
            #expect(svg.elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
            // Only drawing elements: nothing that runs or links.
            let allowed: Set<String> = ["svg", "title", "desc", "g", "line", "text", "polyline", "polygon", "circle"]
            #expect(svg.elements.allSatisfy { allowed.contains($0.name) }, "\(Set(svg.elements.map(\.name)))")
            #expect(
                svg.elements.allSatisfy { element in
                    !element.attributes.keys.contains { $0.lowercased().hasPrefix("on") }
                })
            #expect(svg.elements.allSatisfy { $0.attributes["style"] == nil }, "no inline style under the CSP")
        }
    }

    @Test func ratePointsMatchTheBucketValues() throws {
        let window = Self.window()
        let svg = try SVGDocument(StatsView.rateChart(window).svg)
        let value = try Self.valueReader(svg)
        let points = try Self.line(svg, series: "updates")
        let expected = window.buckets.map { $0?.changes ?? -1 }
        #expect(points.count == FeedStatistics.windowBuckets)
        // The first window also holds the first document, window 60 (300 s) the new section.
        #expect(
            expected
                == (0..<FeedStatistics.windowBuckets).map { Self.changes(inWindow: $0) + ($0 == 0 || $0 == 60 ? 1 : 0) }
        )
        for (index, point) in points.enumerated() {
            #expect(abs(value(point.y) - Double(expected[index])) < 0.05, "window \(index): \(point)")
        }
        // Evenly spaced, left to right.
        let steps = zip(points.dropFirst(), points).map { $0.x - $1.x }
        #expect(steps.allSatisfy { abs($0 - steps[0]) < 0.11 && $0 > 0 })
        // The axis is topped just above the largest value.
        let top = try #require(
            svg.all("text").filter { $0.has(class: "tick-y") }.compactMap {
                $0.attributes["data-value"].flatMap(Double.init)
            }.max())
        #expect(top >= Double(expected.max() ?? 0))
    }

    @Test func bytePointsAreTheCumulativeSums() throws {
        let window = Self.window()
        let svg = try SVGDocument(StatsView.bytesChart(window).svg)
        let value = try Self.valueReader(svg)
        let received = try Self.line(svg, series: "received")
        let polling = try Self.line(svg, series: "polling")
        var receivedSum = 0.0
        var pollingSum = 0.0
        // One poll of the 2000-byte document per window from the first bytes on (t0 + 1 s).
        for k in 0..<FeedStatistics.windowBuckets {
            receivedSum += Double(Self.receivedBytes(inWindow: k))
            pollingSum += 2000
            let tolerance = value(0) - value(0.1)  // a tenth of a unit of height, in bytes
            #expect(abs(value(received[k].y) - receivedSum) <= abs(tolerance) + 1e-6, "received, window \(k)")
            #expect(abs(value(polling[k].y) - pollingSum) <= abs(tolerance) + 1e-6, "polling, window \(k)")
        }
        #expect(window.sum.pollingBytes == UInt64(pollingSum))
    }

    @Test func markersSitAtTheirTimeWithEscapedTooltips() throws {
        let window = Self.window()
        let chart = StatsView.rateChart(window)
        #expect(!chart.svg.contains("<script>"))
        let svg = try SVGDocument(chart.svg)
        let markers = svg.all("g").filter { $0.has(class: "marker") }
        #expect(markers.count == 2)
        let titles = svg.all("title").filter { $0.inside(class: "marker") }.map(\.text)
        let sanitized = Self.hostile.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
            .replacingOccurrences(of: "\u{7}", with: "\u{FFFD}")
        #expect(titles == ["Reconnect at 08:01:40 UTC: " + sanitized, "New section at 08:05:00 UTC: Arts & <b>"])
        // The reconnect at 100 s of the 600 shown sits a sixth of the way along the plot.
        let lines = svg.all("line").filter { $0.has(class: "marker-line") }
        let x = try #require(lines.first?.attributes["x1"].flatMap(Double.init))
        let plot = SVGChart(
            id: "", title: "", summary: "", series: [], xTicks: [], xLabel: "", yLabel: "", yFormat: { _ in "" }
        ).plot
        #expect(abs(x - (plot.left + plot.width * 100 / 600)) < 0.11)
    }

    @Test func numbersReadWell() {
        #expect(StatsView.bytes(0) == "0 B")
        #expect(StatsView.bytes(999) == "999 B")
        #expect(StatsView.bytes(10_000) == "10 kB")
        #expect(StatsView.bytes(35_512) == "35.5 kB")
        #expect(StatsView.bytes(4_560_000) == "4.56 MB")
        #expect(StatsView.bytes(999_999) == "1 MB")
        #expect(StatsView.percent(0.9449) == "94%")
        #expect(StatsView.percent(-0.013) == "−2%")
        #expect(StatsView.multiple(16.4) == "16×")
        #expect(StatsView.multiple(2.54) == "2.5×")
        #expect(SVGChart.niceStep(0.9) == 1)
        #expect(SVGChart.niceStep(1.1) == 2)
        #expect(SVGChart.niceStep(2.5) == 5)
        #expect(SVGChart.niceStep(60_000) == 100_000)
    }

    // MARK: - Served

    @Test func statsPageIsWellFormedAndKeepsHostileTextAsText() async throws {
        let server = try TestServer(document: HostileFeed.document)
        let response = try await HTTPTestClient.get(port: server.port, "/stats")
        #expect(response.status == 200)
        #expect(response.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        let page = try await HTMLChecker.parse(response.text)
        #expect(page.errors.isEmpty, "not well-formed HTML5: \(page.errors.prefix(3))")
        let scripts = page.elements.filter { $0.tag == "script" }
        #expect(
            scripts.map { ($0.attributes["src"] ?? "").prefix { $0 != "?" } } == ["/static/times.js", "/static/app.js"])
        for element in page.elements {
            #expect(!element.attributes.keys.contains { $0.lowercased().hasPrefix("on") }, "<\(element.tag)>")
            #expect(element.attributes["style"] == nil, "<\(element.tag) style> is blocked by the CSP")
            let forbidden = ["iframe", "object", "embed", "base", "form", "foreignobject", "image", "use", "script"]
            #expect(!forbidden.contains(element.tag.lowercased()) || element.tag == "script", "<\(element.tag)>")
        }
        #expect(page.elements.filter { $0.tag.hasSuffix("svg") }.count == 2)
        #expect(page.values(of: "href").allSatisfy { SafeURL.isSafe($0) })
        // The ticker shows the newest story's hostile title as text.
        let title = try #require(HostileFeed.story(0)["title"]?.stringValue)
        #expect(page.text.contains(title))
        #expect(!response.text.contains(HostileFeed.markup[0]))
        // The nav links the pages to each other.
        #expect(
            page.elements.contains {
                $0.tag == "a" && $0.attributes["href"] == "/stats" && $0.attributes["aria-current"] == "page"
            })
        let list = try await HTMLChecker.parse(try await HTTPTestClient.get(port: server.port, "/").text)
        #expect(list.elements.contains { $0.tag == "a" && $0.attributes["href"] == "/stats" })
    }

    @Test func apiStatsHasTheFigures() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 5, version: 5))
        server.store.replaceDocument(NewswireFeed.document(count: 6, version: 6))
        server.handlers.fanout.drain()
        let response = try await HTTPTestClient.get(port: server.port, "/api/stats")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        let json = try JSONValue(parsing: response.body)
        #expect(json["bucket_seconds"]?.doubleValue == 5)
        #expect(json["poll_interval_seconds"]?.doubleValue == 5)
        #expect(json["totals"]?["changes"]?.int64Value == 1)
        #expect(json["totals"]?["items_added"]?.int64Value == 1)
        #expect(json["totals"]?["saving_ratio"]?.isNull == true)
        #expect(json["ticker"]?["title"]?.stringValue == "Story number 5")
        #expect(json["ticker"]?["new"] == .bool(true))
        // The buckets are the completed five-second windows (the change may still be in the
        // one filling now): never more than the totals, consecutive, each with every figure.
        let buckets = try #require(json["buckets"]?.arrayValue)
        #expect(buckets.compactMap { $0["changes"]?.int64Value }.reduce(0, +) <= 1)
        #expect(buckets.compactMap { $0["added"]?.int64Value }.reduce(0, +) <= 1)
        let fields = ["start", "changes", "added", "updated", "removed", "bytes_received", "polling_bytes"]
        #expect(buckets.allSatisfy { bucket in fields.allSatisfy { bucket[$0] != nil } })
        let starts = buckets.compactMap { $0["start"]?.stringValue }.compactMap {
            ISO8601DateFormatter().date(from: $0)
        }
        #expect(starts.count == buckets.count)
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 5 }, "\(starts)")
        // Nothing went wrong: no reconnect or rejected patch among the notable events.
        let kinds = try #require(json["events"]?.arrayValue).compactMap { $0["kind"]?.stringValue }
        #expect(!kinds.contains { $0.contains("reconnect") || $0.contains("reject") }, "\(kinds)")
    }

    @Test func pageStreamSendsTheStatsFragmentsAndANewTicker() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 5, version: 5))
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=stats")
        #expect(page.status == 200)
        let first = try await page.next(type: "stats", within: 5)
        let html = try #require(try JSONValue(parsing: first.data)["html"]?.objectValue)
        #expect(Set(html.keys) == ["stats-summary", "stats-rate", "stats-bytes", "stats-events", "stats-ticker"])
        for (id, fragment) in html {
            let parsed = try await HTMLChecker.parse(fragment.stringValue ?? "")
            // A fragment has no doctype; nothing else may be wrong with it.
            let errors = parsed.errors.filter { $0.code != "expected-doctype-but-got-start-tag" }
            #expect(errors.isEmpty, "\(id): \(errors.prefix(2))")
            #expect(parsed.elements.contains { $0.attributes["id"] == id }, "\(id) carries its id")
        }
        _ = try await page.next(type: "status", within: 5)

        // A newly published story: the ticker follows at once.
        server.store.replaceDocument(NewswireFeed.document(count: 6, version: 6))
        server.handlers.fanout.drain()
        server.handlers.pageStreams.refresh()
        let next = try await page.next(type: "stats", within: 5)
        let ticker = try #require(try JSONValue(parsing: next.data)["html"]?["stats-ticker"]?.stringValue)
        #expect(ticker.contains("Story number 5"))
    }
}
