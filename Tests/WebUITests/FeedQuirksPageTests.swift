import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Quirks of real APIs as the table and the item's page show them, over HTTP: Go's zero
/// time for a time not come, text sent escaped for HTML.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct FeedQuirksPageTests {
    /// Each cell of `column` in `page`, its contents as the page writes them.
    private func cells(_ column: String, in page: String) -> [String] {
        page.matches(of: /<td class="[^"]*" data-col="([^"]+)"[^>]*>(.*?)<\/td>/).filter { $0.output.1 == column }.map {
            String($0.output.2)
        }
    }

    @Test("Grafana's alerts: an endsAt of Go's zero time is no time yet, a dash; a real one is a time")
    func goZeroTime() async throws {
        let alerts = (0..<4).map { index in
            let ends = index == 3 ? "2026-12-01T05:00:00Z" : "0001-01-01T00:00:00Z"
            return #"""
                {"labels": {"alertname": "HighLatency\#(index)", "severity": "critical"},
                 "startsAt": "2026-12-01T0\#(index):00:00Z", "endsAt": "\#(ends)", "fingerprint": "f\#(index)",
                 "status": {"state": "\#(index == 3 ? "resolved" : "active")"}}
                """#
        }
        let server = try TestServer(
            document: try JSONValue(parsing: "[\(alerts.joined(separator: ","))]"), detection: .init())
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        let ends = cells("endsAt", in: page)
        #expect(ends.count == 4, "\(ends)")
        #expect(ends.prefix(3).allSatisfy { $0 == "—" }, "\(ends)")
        #expect(ends.last?.contains(#"<time datetime="2026-12-01T05:00:00Z""#) == true, "\(ends)")
        #expect(!page.contains("0001-01"), "Go's zero time is shown nowhere")
    }

    @Test("Stack Exchange's questions: a title sent escaped is read, and escaped once on the page")
    func escapedTitles() async throws {
        let questions = (0..<4).map { index in
            #"""
            {"question_id": \#(79_000_000 + index), "title": "Using &quot;Sendable&quot; closures &amp; actors \#(index)",
             "score": \#(index), "link": "https://stackoverflow.com/q/\#(79_000_000 + index)",
             "owner": {"display_name": "user&#39;\#(index)"}}
            """#
        }
        let server = try TestServer(
            document: try JSONValue(parsing: #"{"items": [\#(questions.joined(separator: ","))], "has_more": true}"#),
            detection: .init())
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        let titles = cells("title", in: page)
        #expect(titles.count == 4, "\(titles)")
        #expect(titles.first?.contains("Using &quot;Sendable&quot; closures &amp; actors 0<") == true, "\(titles)")
        #expect(!page.contains("&amp;quot;") && !page.contains("&amp;amp;"), "nothing escaped twice")
        let item = try #require(page.firstMatch(of: /href="(\/items\/[^"]+)"/)?.output.1)
        let detail = try await HTTPTestClient.get(port: server.port, String(item)).text
        #expect(
            detail.contains(#"<h1 class="detail-title">Using &quot;Sendable&quot; closures &amp; actors 0</h1>"#),
            "the item's page's title")
        // The item's own members below it are shown as the feed sent them.
        #expect(detail.contains("<dd>Using &amp;quot;Sendable&amp;quot;"))
    }

    @Test("qBittorrent's torrents: seconds since 1970 named …_on are times, and -1 (not done yet) a dash")
    func secondsSince1970AndNotYet() async throws {
        let added = 1_764_500_000
        let torrents = (0..<3).map { index in
            #"""
            {"hash": "\#(String(repeating: String(index), count: 40))", "name": "debian-13.\#(index).0.iso",
             "state": "\#(index == 0 ? "uploading" : "downloading")", "added_on": \#(added + index * 60),
             "completion_on": \#(index == 0 ? added + 3600 : -1)}
            """#
        }
        let server = try TestServer(
            document: try JSONValue(parsing: "[\(torrents.joined(separator: ","))]"), detection: .init())
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        let addedCells = cells("added_on", in: page)
        #expect(addedCells.count == 3, "\(addedCells)")
        let machine = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(added)))
        #expect(addedCells.first?.contains(#"<time datetime="\#(machine)""#) == true, "\(addedCells)")
        let done = cells("completion_on", in: page)
        #expect(done.count == 3 && done.dropFirst().allSatisfy { $0 == "—" }, "\(done)")
        #expect(done.first?.contains("<time datetime=") == true, "\(done)")
    }

    @Test("Jenkins' jobs: a duration beside moments in milliseconds is in milliseconds")
    func millisecondDurations() async throws {
        let jobs = (0..<3).map { index in
            #"""
            {"name": "service-\#(index)", "color": "blue",
             "lastBuild": {"number": \#(100 + index), "timestamp": \#(1_764_570_000_000 + index * 60_000),
                           "duration": \#(120_000 + index * 1_000)}}
            """#
        }
        let server = try TestServer(
            document: try JSONValue(parsing: #"{"jobs": [\#(jobs.joined(separator: ","))]}"#), detection: .init())
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        let durations = cells("duration", in: page)
        #expect(durations == ["2 min 0 s", "2 min 1 s", "2 min 2 s"], "\(durations)")
    }

    @Test("an uptime check's HTTP status codes: words in the tones of their class, not figures")
    func httpStatusCodes() async throws {
        let codes = [200, 503, 301, 404]
        let checks = codes.enumerated().map { index, code in
            #"{"url": "https://example.com/\#(index)", "status_code": \#(code), "response_ms": \#(index * 10)}"#
        }
        let server = try TestServer(
            document: try JSONValue(parsing: "[\(checks.joined(separator: ","))]"), detection: .init())
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        let shown = page.matches(
            of:
                /<td class="cell status status-([a-z]+)(?: lead)?" data-col="status_code"><span class="status-word">([0-9]+)<\/span>/
        ).map { "\($0.output.2)=\($0.output.1)" }
        #expect(shown == ["200=good", "503=bad", "301=neutral", "404=busy"], "\(shown)")
        // A status of small numbers (UptimeRobot's `2`) is no HTTP code: a number.
        let tones = ItemColumn.StatusTones.httpCodes
        #expect(tones.tone(of: "2") == .neutral && tones.tone(of: "502") == .bad)
    }
}
