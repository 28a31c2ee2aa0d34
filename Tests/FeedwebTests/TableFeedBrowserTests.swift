import FeedCore
import Foundation
import TestSupport
import Testing

/// A feed that is not news, end to end in headless Chromium: the real binary started with
/// nothing but the upstream's URL finds the items, shows their values on `/`, `/kiosk` and
/// the item page, and each page shows a changed price within 1 s of the change reaching
/// feedweb, its cell marked up or down.
@Suite(
    .serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn,
    .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
struct TableFeedBrowserTests {
    static let document: JSONValue = .object([
        "quotes": .array([
            quote("ACME", "Acme Corporation", 182.52, 1_204_300),
            quote("GLBX", "Globex", 41.07, 8_930_112),
            quote("INIT", "Initech", 12.88, 310_554),
        ])
    ])

    static func quote(_ symbol: String, _ name: String, _ price: Double, _ volume: Int64) -> JSONValue {
        .object([
            "symbol": .string(symbol), "name": .string(name), "price": .double(price), "change_pct": .double(0),
            "volume": .int(volume),
        ])
    }

    /// The cell (or tile figure, or item page value) showing ACME's price.
    static let priceCell = "document.querySelector('#item-ACME [data-col=price], #detail [data-col=price]')"

    @Test("values on /, /kiosk and the item page; a changed price within 1 s, its cell marked up or down")
    func changedPriceShownAndMarked() async throws {
        let upstream = try await LiveFeedUpstream(document: Self.document)
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--title", "Market"])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        let browser = try await WebDriver(windowWidth: 1280, windowHeight: 900)
        var price = 182.52
        for (step, path) in ["/", "/kiosk", "/items/ACME"].enumerated() {
            try await browser.open("http://127.0.0.1:\(feedweb.port)\(path)")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            let shown = try await browser.execute("var c = \(Self.priceCell); return c ? c.textContent : null")
            #expect(shown.stringValue?.contains(Self.text(price)) == true, "\(path) shows \(shown)")
            #expect(
                try await browser.execute("return document.body.textContent.indexOf('Acme Corporation') >= 0")
                    == .bool(true))
            #expect(try await browser.execute("return document.title.indexOf('Market') >= 0") == .bool(true), "\(path)")

            // Up on the even steps, down on the odd ones.
            let up = step % 2 == 0
            price = ((up ? price + 3.25 : price - 1.5) * 100).rounded() / 100
            let pushed = Date().timeIntervalSince1970 * 1000
            try await upstream.change([Patch.replace("/quotes/0/price", .double(price))], bumpVersion: false)
            let updated = try await browser.waitFor(
                """
                var c = \(Self.priceCell);
                return !!c && c.textContent.indexOf('\(Self.text(price))') >= 0
                  && c.classList.contains('\(up ? "cell-up" : "cell-down")');
                """, seconds: 5)
            if !updated {
                let html = try await browser.execute("var c = \(Self.priceCell); return c ? c.outerHTML : 'none'")
                Issue.record("\(path): \(html)\nlog: \(feedweb.log.suffix(800))")
            }
            #expect(updated, "\(path) shows \(Self.text(price)), marked \(up ? "up" : "down")")
            let frames = try await browser.execute("return window.feedweb.applied()").arrayValue ?? []
            let first = frames.compactMap { frame -> Double? in
                guard frame["type"]?.stringValue != "status",
                    let at = frame["at"]?.doubleValue ?? frame["at"]?.int64Value.map(Double.init), at >= pushed
                else { return nil }
                return at
            }.min()
            let shownAfter = try #require(first, "\(path) applied no frame after the change") - pushed
            #expect(shownAfter < 1000, "\(path) showed the change \(shownAfter) ms after it was sent")
        }
        let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
        #expect(severe.isEmpty, "console errors: \(severe)")
        await browser.quit()
        await upstream.server.shutdown()
    }

    @Test("a rise in a delay is marked in the bad tone, a rise in a price in the good one, on / and /kiosk")
    func aDelayRisingIsBadNews() async throws {
        func departure(_ line: String, delay: Int, fare: Double) -> JSONValue {
            .object([
                "line": .string(line), "delay_minutes": .int(Int64(delay)), "fare": .double(fare),
                "direction": .string("Zoo"),
            ])
        }
        let upstream = try await LiveFeedUpstream(
            document: .object([
                "departures": .array([
                    departure("S1", delay: 0, fare: 3.2), departure("U4", delay: 2, fare: 2.9),
                    departure("RE7", delay: 5, fare: 7.5),
                ])
            ]))
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--title", "Departures"])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        let browser = try await WebDriver(windowWidth: 1280, windowHeight: 900)
        var (delay, fare) = (0, 3.2)
        for path in ["/", "/kiosk"] {
            try await browser.open("http://127.0.0.1:\(feedweb.port)\(path)")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            (delay, fare) = (delay + 4, fare + 0.5)
            try await upstream.change(
                [
                    Patch.replace("/departures/0/delay_minutes", .int(Int64(delay))),
                    Patch.replace("/departures/0/fare", .double(fare)),
                ],
                bumpVersion: false)
            // Each cell's highlight colour, against the page's good and bad tones.
            let tones = """
                var root = getComputedStyle(document.body);
                function flash(col) {
                  var c = document.querySelector('#item-S1 [data-col=' + col + ']');
                  return c && c.classList.contains('cell-up') ? getComputedStyle(c).getPropertyValue('--flash').trim() : null;
                }
                var d = flash('delay_minutes'), f = flash('fare');
                return d && f ? [d, f, root.getPropertyValue('--stale').trim(), root.getPropertyValue('--live').trim()] : null;
                """
            #expect(try await browser.waitFor("return (function () { \(tones) })() !== null", seconds: 5), "\(path)")
            let shown = try await browser.execute(tones).arrayValue?.compactMap(\.stringValue) ?? []
            #expect(
                shown.count == 4 && shown[0] == shown[2] && shown[1] == shown[3],
                "\(path): delay, fare, bad, good: \(shown)")
        }
        await browser.quit()
        await upstream.server.shutdown()
    }

    @Test("a kiosk tile led by a figure whose status is a failure (a train cancelled) is tinted as a failure's tile")
    func aCancelledDepartureIsTinted() async throws {
        func departure(_ train: String, delay: Int, status: String) -> JSONValue {
            .object([
                "train": .string(train), "to": .string("Chur"), "delay_min": .int(Int64(delay)),
                "status": .string(status),
            ])
        }
        let upstream = try await LiveFeedUpstream(
            document: .object([
                "departures": .array([
                    departure("IC 700", delay: 0, status: "on time"), departure("IC 702", delay: 4, status: "delayed"),
                    departure("IC 704", delay: 0, status: "on time"),
                ])
            ]))
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/kiosk")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            // Each tile: what leads it, its background, its band on top.
            let tiles = """
                return Array.from(document.querySelectorAll('.board-tiles > .tile')).map(function (tile) {
                  var lead = tile.querySelector('.tile-lead');
                  return [lead ? lead.dataset.col : '', getComputedStyle(tile).backgroundColor,
                    getComputedStyle(tile, '::before').content].join(';');
                });
                """
            try await upstream.change([Patch.replace("/departures/2/status", .string("cancelled"))], bumpVersion: false)
            #expect(
                try await browser.waitFor(
                    "return !!document.querySelector('.board-tiles > .tile .tile-facts > .status-bad')", seconds: 5))
            let shown = try await browser.execute(tiles).arrayValue?.compactMap(\.stringValue) ?? []
            let parts = shown.map { $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }
            try #require(parts.count == 3 && parts.allSatisfy { $0.count == 3 }, "\(shown)")
            #expect(parts.allSatisfy { $0[0] == "delay_min" }, "each led by its delay: \(shown)")
            #expect(
                parts[2][1] != parts[0][1] && parts[2][2] != "none", "the cancelled one tinted and banded: \(shown)")
            #expect(parts[0][1] == parts[1][1] && parts[0][2] == "none", "a delay is no failure: \(shown)")
        }
        await upstream.server.shutdown()
    }

    @Test("a series of readings: its line drawn on / and /kiosk, and a new reading moves it and its number")
    func aSeriesIsDrawnAndFollowed() async throws {
        func series(_ instance: String, _ readings: [Double]) -> JSONValue {
            .object([
                "metric": .object(["instance": .string(instance)]),
                "values": .array(
                    readings.enumerated().map {
                        .array([.int(Int64(1_796_065_200 + 15 * $0.offset)), .double($0.element)])
                    }),
            ])
        }
        let upstream = try await LiveFeedUpstream(
            document: .object([
                "data": .object([
                    "result": .array([series("web-1", [0.5, 0.75, 1.25]), series("web-2", [2, 1, 1.5])])
                ])
            ]))
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--title", "Load"])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        let browser = try await WebDriver(windowWidth: 1280, windowHeight: 900)
        var reading = 1.25
        for path in ["/", "/kiosk"] {
            try await browser.open("http://127.0.0.1:\(feedweb.port)\(path)")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            // Drawn: a box of its own and a visible stroke, under the page's Content-Security-Policy.
            let drawn = """
                var line = document.querySelector('[data-col=values] .spark polyline');
                if (!line) return null;
                var box = line.ownerSVGElement.getBoundingClientRect(), style = getComputedStyle(line);
                return [box.width, box.height, style.stroke, line.getAttribute('points').split(' ').length];
                """
            let shown = try await browser.execute(drawn).arrayValue ?? []
            #expect(shown.count == 4, "\(path): \(shown)")
            if shown.count == 4 {
                #expect((shown[0].doubleValue ?? 0) >= 40 && (shown[1].doubleValue ?? 0) >= 10, "\(path): \(shown)")
                #expect(shown[2].stringValue != "none" && shown[2].stringValue != "rgba(0, 0, 0, 0)", "\(path)")
                #expect(shown[3].doubleValue == Double(3 + (path == "/" ? 0 : 1)), "\(path): \(shown)")
            }
            reading += 1
            try await upstream.change(
                [Patch.add("/data/result/0/values/-", .array([.int(1_796_066_000), .double(reading)]))],
                bumpVersion: false)
            let moved = """
                var cell = document.querySelector('[data-col=values][data-value="\(reading)"]');
                return !!cell && cell.querySelector('.spark polyline').getAttribute('points').split(' ').length
                """
            #expect(
                try await browser.waitFor(
                    "return (function () { \(moved) })() === \(4 + (path == "/" ? 0 : 1))", seconds: 5),
                "\(path): the new reading shown and drawn")
        }
        await browser.quit()
        await upstream.server.shutdown()
    }

    /// A price API's shape: the coins are an object's members, not an array's elements.
    static let prices: JSONValue = .object([
        "as_of": .int(1),
        "prices": .object([
            "bitcoin": .object(["usd": .double(67012.5), "usd_24h_change": .double(1.2)]),
            "ether": .object(["usd": .double(351.25), "usd_24h_change": .double(-0.4)]),
        ]),
    ])

    @Test(
        "an object's members are the items: named on /, live in the browser, added, changed and removed on /events/items"
    )
    func membersOfAnObjectAreShownAndFollowed() async throws {
        let upstream = try await LiveFeedUpstream(document: Self.prices)
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--title", "Coins"])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        let items = try await FeedwebProbe.items(port: feedweb.port)
        #expect(items.map { $0["key"]?.stringValue } == ["bitcoin", "ether"])
        #expect(
            items.last?["item"]
                == .object(["name": .string("ether"), "usd": .double(351.25), "usd_24h_change": .double(-0.4)]))
        let detail = try await HTTPTestClient.get(port: feedweb.port, "/items/ether")
        #expect(detail.status == 200)
        #expect(detail.text.contains("351.25"))
        let stream = try await SSETestClient(port: feedweb.port, path: "/events/items")
        #expect(try await stream.expectNext("snapshot").data.contains("bitcoin"))

        let browser = try await WebDriver(windowWidth: 1280, windowHeight: 900)
        try await browser.open("http://127.0.0.1:\(feedweb.port)/")
        #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
        let cell = "document.querySelector('#item-ether [data-col=usd]')"
        let names = try await browser.execute(
            "return Array.from(document.querySelectorAll('#item-bitcoin, #item-ether')).map(r => r.textContent)")
        #expect(names.arrayValue?.count == 2, "a row per member: \(names)")
        #expect(names.arrayValue?.first?.stringValue?.contains("bitcoin") == true, "\(names)")
        #expect(
            try await browser.execute("var c = \(cell); return c ? c.textContent : null").stringValue?
                .contains("351.25") == true)

        // A member's value changes: the page shows it without a reload; /events/items says
        // which item changed.
        try await upstream.change([Patch.replace("/prices/ether/usd", .double(360.5))], bumpVersion: false)
        #expect(
            try await browser.waitFor(
                "var c = \(cell); return !!c && c.textContent.indexOf('360.5') >= 0 && c.classList.contains('cell-up')",
                seconds: 5))
        let updated = try JSONValue(parsing: try await stream.expectNext("updated").data)
        #expect(updated["key"] == .string("ether"))
        #expect(updated["item"]?["usd"] == .double(360.5))

        // A member added and one removed: a row each way, and item events for them.
        try await upstream.change(
            [Patch.add("/prices/solana", .object(["usd": .double(150.5)])), Patch.remove("/prices/bitcoin")],
            bumpVersion: false)
        #expect(
            try await browser.waitFor(
                "return !!document.querySelector('#item-solana') && !document.querySelector('#item-bitcoin')",
                seconds: 5))
        var kinds: [String: String] = [:]
        for _ in 0..<2 {
            let event = try await stream.next(before: Date().addingTimeInterval(5))
            kinds[try JSONValue(parsing: event.data)["key"]?.stringValue ?? ""] = event.type
        }
        #expect(kinds == ["solana": "added", "bitcoin": "removed"])
        #expect(try await FeedwebProbe.items(port: feedweb.port).map { $0["key"]?.stringValue } == ["ether", "solana"])
        let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
        #expect(severe.isEmpty, "console errors: \(severe)")
        await browser.quit()
        await upstream.server.shutdown()
    }

    @Test("a member the items gain is a column: the open page reloads once and shows it; no other item changes")
    func aGainedMemberBecomesAColumn() async throws {
        let upstream = try await LiveFeedUpstream(document: Self.document)
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--title", "Market"])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        let stream = try await SSETestClient(port: feedweb.port, path: "/events/items")
        #expect(try await stream.expectNext("snapshot").data.contains("ACME"))
        let browser = try await WebDriver(windowWidth: 1280, windowHeight: 900)
        try await browser.open("http://127.0.0.1:\(feedweb.port)/")
        #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
        let cell = "document.querySelector('#item-ACME [data-col=dividend_yield]')"
        #expect(try await browser.execute("return \(cell) === null") == .bool(true))
        // Marks this page: a reloaded one has no mark.
        _ = try await browser.execute("window.beforeGain = true; return true")

        try await upstream.change([Patch.add("/quotes/0/dividend_yield", .double(0.96))], bumpVersion: false)
        let shown = try await browser.waitFor(
            """
            var c = \(cell);
            return !window.beforeGain && document.body.dataset.streamState === 'open' && !!c
              && c.textContent.indexOf('0.96') >= 0;
            """, seconds: 10)
        if !shown {
            let html = try await browser.execute("return document.querySelector('main').outerHTML.slice(0, 3000)")
            Issue.record("no dividend column: \(html)\nlog: \(feedweb.log.suffix(1200))")
        }
        #expect(shown)
        let headings = try await browser.execute(
            "return Array.from(document.querySelectorAll('thead th')).map(h => h.textContent.trim())")
        #expect(headings.arrayValue?.contains { $0.stringValue?.contains("Dividend") == true } == true, "\(headings)")
        let other = try await browser.execute(
            "var c = document.querySelector('#item-GLBX [data-col=dividend_yield]'); return c ? c.textContent : null")
        #expect(other.stringValue != nil && other.stringValue?.contains("0.96") == false, "GLBX's cell: \(other)")
        #expect(feedweb.log.contains("columns gained"), "the log says why the columns changed")

        // Only ACME changed: the next item event is ACME's, then GLBX's after its own change.
        let first = try JSONValue(parsing: try await stream.expectNext("updated").data)
        #expect(first["key"] == .string("ACME"))
        #expect(first["item"]?["dividend_yield"] == .double(0.96))
        try await upstream.change([Patch.replace("/quotes/1/price", .double(42.5))], bumpVersion: false)
        let second = try JSONValue(parsing: try await stream.expectNext("updated").data)
        #expect(second["key"] == .string("GLBX"))
        let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
        #expect(severe.isEmpty, "console errors: \(severe)")
        await browser.quit()
        await upstream.server.shutdown()
    }

    /// `price` as the table shows it (under 1,000 with two decimals at most: as Swift
    /// writes it).
    static func text(_ price: Double) -> String {
        String(price)
    }
}
