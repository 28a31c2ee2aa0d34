import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// `/kiosk`: a dark, large-type board with nothing to click, a `?section=` filter, a
/// highlighted story that cycles, and a stale indicator nobody can miss.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct KioskPageTests {
    let server: TestServer

    init() throws {
        // Stories 11…0: sections cycle World, Arts, Science, Business.
        server = try TestServer(document: NewswireFeed.document(count: 12))
    }

    func kiosk(_ path: String = "/kiosk") async throws -> String {
        let response = try await HTTPTestClient.get(port: server.port, path)
        #expect(response.status == 200, "\(path)")
        return response.text
    }

    @Test func isADarkBoardWithNothingToClick() async throws {
        let html = try await kiosk()
        let page = try await HTMLChecker.parse(html)
        #expect(page.errors.isEmpty, "\(page.errors.prefix(3))")
        let root = try #require(page.elements.first { $0.tag == "html" })
        #expect(root.attributes["class"]?.split(separator: " ").contains("kiosk") == true)
        #expect(
            page.elements.contains {
                $0.tag == "meta" && $0.attributes["name"] == "color-scheme" && $0.attributes["content"] == "dark"
            })
        #expect(page.values(of: "href").contains { $0.hasPrefix("/static/kiosk.css") })
        // Nothing to click, tab to or type into: no links, buttons or form fields anywhere.
        for tag in ["a", "button", "input", "select", "textarea", "form", "details", "summary", "iframe"] {
            #expect(!page.elements.contains { $0.tag == tag }, "a <\(tag)> on the kiosk")
        }
        #expect(
            !page.elements.contains {
                $0.attributes["tabindex"] != nil || ($0.attributes["href"] != nil && $0.tag != "link")
            })
        // The board shows the stories, newest first.
        let entries = StoryEntry.all(in: html)
        #expect(entries.first?.title == "Story number 11")
        #expect(!entries.isEmpty)
    }

    @Test func exactlyOneStoryIsHighlightedAndItIsTheNewest() async throws {
        let entries = StoryEntry.all(in: try await kiosk())
        let featured = entries.filter { $0.classes.contains("is-featured") }
        #expect(featured.count == 1, "\(entries)")
        #expect(featured.first?.title == "Story number 11")
        #expect(featured.first?.id == entries.first?.id)
        // Every entry carries the key the page script and the page stream use.
        #expect(entries.allSatisfy { !$0.key.isEmpty && $0.id.hasSuffix($0.key) })
        // The page script that cycles the highlight is on the page.
        let page = try await HTMLChecker.parse(try await kiosk())
        #expect(
            page.elements.contains { $0.tag == "script" && ($0.attributes["src"] ?? "").hasPrefix("/static/app.js") })
        #expect(page.elements.contains { $0.tag == "body" && $0.attributes["data-stream"] == "kiosk" })
    }

    @Test func sectionFilterShowsOnlyThatSection() async throws {
        let html = try await kiosk("/kiosk?section=Arts")
        // Arts stories of 11…0 (n % 4 == 1), newest first.
        #expect(StoryEntry.all(in: html).map(\.title) == ["Story number 9", "Story number 5", "Story number 1"])
        #expect(
            try await HTMLChecker.parse(html).elements.contains {
                $0.tag == "body" && $0.attributes["data-section"] == "Arts"
            }, "the page script asks for the same filter")
        // The page stream of the filtered kiosk carries only those stories too.
        let stream = try await SSETestClient(port: server.port, path: "/events/page?view=kiosk&section=Arts")
        let event = try JSONValue(parsing: try await stream.expectNext("items").data)
        let order = try #require(event["order"]?.arrayValue).compactMap(\.stringValue)
        #expect(order == StoryEntry.all(in: html).map(\.id))
        let fragments = try #require(event["html"]?.objectValue)
        let titles = order.compactMap { fragments[$0]?.stringValue }.compactMap { StoryEntry.all(in: $0).first?.title }
        #expect(titles == ["Story number 9", "Story number 5", "Story number 1"])
        // A section with no stories: an empty board, not the whole feed.
        #expect(StoryEntry.all(in: try await kiosk("/kiosk?section=Nowhere")).isEmpty)
    }

    @Test func staleIndicatorIsInvisibleWhileLiveAndUnmissableWhenStale() async throws {
        var status = try #require(HTMLText.element(withID: "status", in: try await kiosk()))
        var classes = (status.attributes["class"] ?? "").split(separator: " ")
        #expect(classes.contains("board-status-live"), "\(status)")

        let lastEvent = Date().addingTimeInterval(-(StatusBadge.staleAfter + 50))
        server.setStatus {
            $0.phase = .backingOff(until: Date().addingTimeInterval(30))
            $0.lastEventAt = lastEvent
        }
        status = try #require(HTMLText.element(withID: "status", in: try await kiosk()))
        classes = (status.attributes["class"] ?? "").split(separator: " ")
        #expect(classes.contains("board-status-stale"), "\(status)")
        #expect(status.attributes["role"] == "status")
        #expect(status.text.lowercased().hasPrefix("stale since \(UTCClock.hoursMinutes(lastEvent))"), "\(status)")

    }

    @Test("a tile's facts leave out a column of one value in every item while others are left to show")
    func tileFactsSkipWhatSaysLittle() async throws {
        let incidents = (0..<4).map { index in
            JSONValue.object([
                "id": .string("PT4KHL\(index)"), "type": .string("incident"), "title": .string("Fire \(index)"),
                "status": .string(["triggered", "acknowledged", "resolved", "triggered"][index]),
                "urgency": .string(index.isMultiple(of: 2) ? "high" : "low"),
                "incident_number": .int(Int64(1234 + index)), "service": .string("Mail \(index % 2)"),
                "assignee": .string(["ana", "bo"][index % 2]),
            ])
        }
        let board = try TestServer(document: .object(["incidents": .array(incidents)]), detection: .init())
        let type = try #require(board.store.itemReading.profile.columns.first { $0.name == "type" })
        #expect(type.saysLittle, "\(board.store.itemReading.notes)")
        let page = try await HTTPTestClient.get(port: board.port, "/kiosk").text
        let facts = page.matches(of: /<dl class="tile-facts">(.*?)<\/dl>/).map { tile in
            tile.output.1.matches(of: /data-col="([^"]+)"/).map { String($0.output.1) }
        }
        #expect(facts.count == incidents.count, "\(facts)")
        #expect(facts.allSatisfy { $0.count == RowView.maxFacts && !$0.contains("type") }, "\(facts)")
        // The table still shows it.
        let table = try await HTTPTestClient.get(port: board.port, "/").text
        #expect(table.contains(#"data-col="type""#))
    }

    @Test("a post's tile is its words, when and who, not led by its count of replies; a build's still by its status")
    func postsAreWordsToRead() async throws {
        let posts = (0..<3).map { index in
            JSONValue.object([
                "id": .string("1130\(index)"), "created_at": .string("2026-12-04T17:0\(index):00.000Z"),
                "content": .string("<p>Post \(index): the deploy went out <b>fine</b> &amp; the queue drained</p>"),
                "replies_count": .int(Int64(index)), "reblogs_count": .int(Int64(10 + index)),
                "account": .string("user\(index)"),
            ])
        }
        let board = try TestServer(document: .object(["items": .array(posts)]), detection: .init())
        let page = try await HTTPTestClient.get(port: board.port, "/kiosk").text
        let tiles = page.matches(of: /<li class="(tile[^"]*)"[^>]*>(.*?)<\/li>/.dotMatchesNewlines()).map {
            (classes: String($0.output.1), html: String($0.output.2))
        }
        #expect(tiles.count == posts.count, "\(page)")
        for tile in tiles {
            #expect(tile.classes.split(separator: " ").contains("wordy"), "\(tile.classes)")
            #expect(!tile.html.contains("tile-lead"), "no count leads a post: \(tile.html)")
            let facts = tile.html.matches(of: /data-col="([^"]+)"/).map { String($0.output.1) }
            #expect(Array(facts.prefix(2)) == ["created_at", "account"], "when, then who: \(facts)")
            #expect(tile.html.contains("&amp; the queue drained") && !tile.html.contains("<b>fine"))
        }

        // A build named by a long commit message is still led by its status.
        let builds = (0..<3).map { index in
            JSONValue.object([
                "id": .int(Int64(900 + index)),
                "message": .string(
                    String(repeating: "Make the fan-out cheaper per client at ten thousand clients; ", count: 3)
                        + "\(index)"),
                "state": .string(["passed", "failed", "running"][index]), "duration": .int(Int64(60 * index)),
            ])
        }
        let ci = try TestServer(document: .object(["builds": .array(builds)]), detection: .init())
        let kiosk = try await HTTPTestClient.get(port: ci.port, "/kiosk").text
        let leads = kiosk.matches(of: /<p class="tile-lead[^"]*" data-col="([^"]+)"/).map { String($0.output.1) }
        #expect(leads == ["state", "state", "state"], "\(leads)")
        // A short name is no post: a quote's price leads as before.
        let quotes = try TestServer(document: TablePageTests.quotes, detection: .init())
        let quoteKiosk = try await HTTPTestClient.get(port: quotes.port, "/kiosk").text
        #expect(!quoteKiosk.contains("wordy") && quoteKiosk.contains("tile-lead"))
    }

    @Test("a delayed train's tile keeps its platform beside the status that came first among its facts")
    func pressingStatusLeavesRoomForThePlatform() async throws {
        let departures = (0..<3).map { index in
            JSONValue.object([
                "train": .string("IC \(700 + index)"), "to": .string(["Chur", "Basel SBB", "Lugano"][index]),
                "dep": .string("2026-12-03T10:0\(index):00+01:00"), "platform": .string("\(3 + index)"),
                "delay_min": .int(Int64(index * 4)), "status": .string(index == 0 ? "on time" : "delayed"),
            ])
        }
        let board = try TestServer(
            document: .object(["station": .string("Zürich HB"), "departures": .array(departures)]),
            detection: .init())
        let page = try await HTTPTestClient.get(port: board.port, "/kiosk").text
        let tiles = page.matches(of: /<li class="tile[^"]*"[^>]*>(.*?)<\/li>/.dotMatchesNewlines()).map {
            String($0.output.1)
        }
        for train in ["IC 701", "IC 702"] {
            let tile = try #require(tiles.first { $0.contains(">\(train)<") }, "\(tiles)")
            let columns = tile.matches(of: /<div class="[^"]*" data-col="([^"]+)"/).map { String($0.output.1) }
            #expect(columns.first == "status" && columns.contains("platform"), "\(train): \(columns)")
        }
        // On the table, whose status comes before the delay, the row's cell of the tiles'
        // lead is the delay all the same (a board's narrow table keeps it).
        let leads = try await HTTPTestClient.get(port: board.port, "/").text
            .matches(of: /<td class="[^"]* lead" data-col="([^"]+)"/).map { String($0.output.1) }
        #expect(leads == ["delay_min", "delay_min", "delay_min"], "\(leads)")
    }

    @Test(
        "in a browser: a tile shows the facts that fit below its lead whole, none cut off at its foot",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func tilesShowWholeFacts() async throws {
        func departure(_ flight: String, _ destination: String, _ status: String) -> JSONValue {
            .object([
                "flight": .string(flight), "destination": .string(destination),
                "scheduled": .string("2026-11-30T11:20:00Z"), "estimated": .string("2026-11-30T11:40:00Z"),
                "gate": .string("B32"), "terminal": .string("5"), "status": .string(status),
            ])
        }
        let board = try TestServer(
            document: .object([
                "departures": .array([
                    departure("BA 117", "New York JFK", "Boarding"), departure("LH 903", "Frankfurt", "Delayed"),
                    departure("AF 1381", "Paris CDG", "Cancelled"), departure("EI 159", "Dublin", "On time"),
                    departure("KL 1008", "Amsterdam", "Boarding"),
                ])
            ]), detection: .init())
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(board.port)/kiosk")
            #expect(try await browser.waitFor("return document.querySelectorAll('.tile').length === 5", seconds: 10))
            // Each fact shown lies whole inside its tile's padding; some did not fit.
            let facts = try await browser.execute(
                """
                var cut = [], hidden = 0, shown = 0;
                document.querySelectorAll('.tile').forEach(function (tile) {
                  var foot = tile.getBoundingClientRect().bottom - parseFloat(getComputedStyle(tile).paddingBottom);
                  tile.querySelectorAll('.tile-facts > div').forEach(function (fact) {
                    if (fact.hidden) { hidden += 1; return; }
                    shown += 1;
                    if (fact.getBoundingClientRect().bottom > foot + 1) cut.push(tile.id + ' ' + fact.dataset.col);
                  });
                });
                return cut.join(',') + '|' + shown + '|' + hidden;
                """)
            let parts = (facts.stringValue ?? "").split(separator: "|", omittingEmptySubsequences: false)
            #expect(parts.count == 3 && parts[0].isEmpty, "facts cut off at a tile's foot: \(facts)")
            #expect(parts.count == 3 && Int(parts[1]) ?? 0 >= 5, "a fact or more in every tile: \(facts)")
            #expect(parts.count == 3 && Int(parts[2]) ?? 0 > 0, "some facts did not fit at 1280×720: \(facts)")
        }
    }

    @Test(.enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func inABrowserTheHighlightCyclesAndTheBoardFitsTheScreen() async throws {
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(server.port)/kiosk")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 10))
            let ids =
                try await browser.execute(
                    "return Array.from(document.querySelectorAll('#stories > li')).map(function (li) { return li.id; })"
                ).arrayValue?.compactMap(\.stringValue) ?? []
            #expect(ids.count >= 2)
            let featured = "((document.querySelector('#stories > .is-featured') || {}).id || '')"
            #expect(try await browser.execute("return " + featured).stringValue == ids.first)
            // The script moves the highlight to the next story by itself, then the next.
            for next in ids.dropFirst().prefix(2) {
                #expect(try await browser.waitFor("return \(featured) === '\(next)'", seconds: 20), "\(next)")
            }
            #expect(
                try await browser.execute("return document.querySelectorAll('#stories > .is-featured').length")
                    == .int(1))

            // Dark, no scrollbars, large type, nothing focusable.
            let dark = try await browser.execute(
                """
                var c = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
                return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255 < 0.2;
                """)
            #expect(dark == .bool(true))
            #expect(
                try await browser.execute(
                    "return document.documentElement.scrollHeight <= window.innerHeight && document.documentElement.scrollWidth <= window.innerWidth"
                ) == .bool(true))
            let titleSize = try await browser.execute(
                "return parseFloat(getComputedStyle(document.querySelector('.is-featured .board-title')).fontSize)")
            #expect((titleSize.doubleValue ?? titleSize.int64Value.map(Double.init) ?? 0) >= 32, "\(titleSize)")
            #expect(
                try await browser.execute(
                    "return document.querySelectorAll('a, button, input, select, textarea, [tabindex]').length")
                    == .int(0))
            // Live: the banner takes no space on screen.
            #expect(
                try await browser.execute("return getComputedStyle(document.getElementById('status')).display")
                    == .string("none"))

            // Stale: the banner the page stream pushes is on screen, across the board.
            server.setStatus {
                $0.phase = .backingOff(until: Date().addingTimeInterval(30))
                $0.lastEventAt = Date().addingTimeInterval(-(StatusBadge.staleAfter + 50))
            }
            server.handlers.pageStreams.refresh()
            #expect(
                try await browser.waitFor(
                    """
                    var s = document.getElementById('status');
                    var r = s.getBoundingClientRect();
                    return s.classList.contains('board-status-stale') && getComputedStyle(s).display !== 'none'
                      && r.width >= window.innerWidth * 0.9 && r.height > 20 && r.bottom <= window.innerHeight + 1;
                    """, seconds: 10))
        }
    }
}
