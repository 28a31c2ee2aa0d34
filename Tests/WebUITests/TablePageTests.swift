import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Items that are not news, as a table: their own values formatted on `/`, the kiosk's
/// tiles and the item page; sorted, filtered and paged from the URL; hostile values kept
/// as text in every one of them and in the page stream's fragments.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct TablePageTests {
    static let quotes: JSONValue = .object([
        "quotes": .array([
            quote("ACME", "Acme Corporation", 182.52, 1_204_300, -0.4),
            quote("GLBX", "Globex", 41.07, 8_930_112, 1.25),
            quote("INIT", "Initech", 12.88, 310_554, 0),
        ])
    ])

    static func quote(_ symbol: String, _ name: String, _ price: Double, _ volume: Int64, _ change: Double)
        -> JSONValue
    {
        .object([
            "symbol": .string(symbol), "name": .string(name), "price": .double(price),
            "change_pct": .double(change), "volume": .int(volume),
        ])
    }

    /// The column and `data-value` of the lead of the tile of item `key` on a kiosk page.
    static func tileLead(of key: String, in kiosk: String) throws -> (column: String, value: String)? {
        let lead = try Regex(
            #"id="item-\#(key)"[\s\S]*?<p class="tile-lead[^"]*" data-col="([^"]+)"[^>]*data-value="([^"]+)""#)
        guard let match = kiosk.firstMatch(of: lead), let column = match.output[1].substring,
            let value = match.output[2].substring
        else { return nil }
        return (String(column), String(value))
    }

    @Test("/ is a table of the items' own values, formatted; no picture, words for items")
    func tableOfValues() async throws {
        let server = try TestServer(document: Self.quotes, detection: .init())
        let response = try await HTTPTestClient.get(port: server.port, "/")
        #expect(response.status == 200)
        let text = response.text
        let page = try await HTMLChecker.parse(text)
        #expect(page.errors.isEmpty, "\(page.errors.prefix(3))")
        #expect(page.text.contains("3 items"))
        #expect(!page.text.contains("stories"))
        #expect(!page.elements.contains { $0.tag == "img" }, "no placeholder picture")
        let headings = page.elements.filter { $0.tag == "th" }.compactMap { $0.attributes["data-col"] }
        #expect(headings == ["symbol", "name", "price", "change_pct", "volume"])
        for shown in ["Acme Corporation", "182.52", "1,204,300", "−0.40 %", "1.25 %", "8,930,112"] {
            #expect(page.text.contains(shown), "\(shown) on the page")
        }
        let prices = page.elements.filter { $0.attributes["data-col"] == "price" && $0.tag == "td" }
        #expect(prices.map { $0.attributes["data-value"] } == ["182.52", "41.07", "12.88"])
        #expect(prices.allSatisfy { ($0.attributes["class"] ?? "").contains("num") }, "numbers right-aligned")
        let links = page.elements.filter { $0.attributes["class"] == "row-link" }.compactMap { $0.attributes["href"] }
        #expect(links == ["/items/ACME", "/items/GLBX", "/items/INIT"])
        #expect(text.contains("data-stream=\"table\""))
    }

    @Test("an item without a figure shows a dash aligned as the column's figures and its header are")
    func missingFigure() async throws {
        var document = Self.quotes
        try JSONPatch(json: .array([Patch.replace("/quotes/1/price", .null)])).apply(to: &document)
        let server = try TestServer(document: document, detection: .init())
        let text = try await HTTPTestClient.get(port: server.port, "/").text
        let page = try await HTMLChecker.parse(text)
        let classes = { (element: ParsedHTML.Element) in Set(element.attributes["class"]?.split(separator: " ") ?? []) }
        let header = try #require(page.elements.first { $0.tag == "th" && $0.attributes["data-col"] == "price" })
        #expect(classes(header).contains("num"))
        let prices = page.elements.filter { $0.tag == "td" && $0.attributes["data-col"] == "price" }
        #expect(prices.count == 3)
        #expect(prices.allSatisfy { classes($0).contains("num") }, "\(prices)")
        let missing = try #require(prices.first { classes($0).contains("missing") }, "\(prices)")
        #expect(missing.attributes["data-value"] == nil)
        #expect(text.contains(#"<td class="cell num missing" data-col="price">—</td>"#))
        let names = page.elements.filter { $0.tag == "td" && $0.attributes["data-col"] == "name" }
        #expect(names.allSatisfy { !classes($0).contains("num") }, "text stays left")
    }

    @Test("error pages speak of items on a table's feed, of stories on a news feed")
    func errorPagesInTheFeedsWords() async throws {
        let table = try TestServer(document: Self.quotes, detection: .init())
        let news = try TestServer(document: NewswireFeed.document(count: 2))
        for (server, home, gone, nav) in [
            (table, "Back to all items", "The item may have left the feed.", "Items"),
            (news, "Back to the latest stories", "The story may have left the feed.", "Latest"),
        ] {
            let missing = try await HTTPTestClient.get(port: server.port, "/items/NOPE")
            #expect(missing.status == 404)
            #expect(missing.text.contains(">\(home)</a>") && missing.text.contains(gone), "\(missing.text)")
            #expect(missing.text.contains(">\(nav)</a>"), "the navigation's first link")
            let board = try await HTTPTestClient.get(port: server.port, "/board?v=nothing")
            #expect(board.status == 400)
            #expect(board.text.contains(">\(home)</a>"))
        }
        let paged = try await HTTPTestClient.get(port: table.port, "/?page=0")
        #expect(paged.status == 400)
        #expect(paged.text.contains(">Back to all items</a>"))
    }

    @Test("sorted and paged from the URL; a bad parameter is a 400 page naming it")
    func sortedFromTheURL() async throws {
        let server = try TestServer(document: Self.quotes, detection: .init())
        let sorted = try await HTTPTestClient.get(port: server.port, "/?sort=price&order=desc")
        let page = try await HTMLChecker.parse(sorted.text)
        let keys = page.elements.filter { $0.tag == "tr" }.compactMap { $0.attributes["data-key"] }
        #expect(keys == ["ACME", "GLBX", "INIT"])
        let ascending = try await HTMLChecker.parse(
            try await HTTPTestClient.get(port: server.port, "/?sort=price").text)
        #expect(
            ascending.elements.filter { $0.tag == "tr" }.compactMap { $0.attributes["data-key"] } == [
                "INIT", "GLBX", "ACME",
            ])
        let price = page.elements.first { $0.tag == "th" && $0.attributes["data-col"] == "price" }
        #expect(price?.attributes["aria-sort"] == "descending")
        #expect(sorted.text.contains("data-stream=\"table+sort=price+desc\""))

        let unknown = try await HTTPTestClient.get(port: server.port, "/?sort=pricee")
        #expect(unknown.status == 400)
        #expect(unknown.text.contains("sort") && unknown.text.contains("pricee"))
        #expect(try await HTTPTestClient.get(port: server.port, "/?sort=price&order=up").status == 400)
        #expect(try await HTTPTestClient.get(port: server.port, "/?page=0").status == 400)
    }

    @Test("100,000 items: one page of rows, and how many there are")
    func paged() async throws {
        let rows = (0..<100_000).map { index -> JSONValue in
            .object(["id": .string("r\(index)"), "value": .int(Int64(index))])
        }
        let server = try TestServer(document: .object(["rows": .array(rows)]), detection: .init())
        let response = try await HTTPTestClient.get(port: server.port, "/?page=3")
        #expect(response.status == 200)
        #expect(response.body.count < 1_000_000, "\(response.body.count) bytes")
        #expect(response.text.contains("100,000 items"))
        #expect(response.text.contains("Rows 2,001–3,000 of 100,000, page 3 of 100"))
        #expect(response.text.contains("id=\"item-r2000\"") && !response.text.contains("id=\"item-r3000\""))
    }

    @Test("the kiosk shows tiles of the values; the item page every field, nested ones folded")
    func kioskAndItemPage() async throws {
        var document = Self.quotes
        try JSONPatch(
            json: .array([
                Patch.add("/quotes/0/owner", .object(["login": .string("wile"), "since": .int(1949)])),
                Patch.add("/quotes/0/history", .array((0..<50).map { .int(Int64($0)) })),
                Patch.add("/quotes/0/site", .string("https://acme.example/ir")),
            ])
        ).apply(to: &document)
        let server = try TestServer(document: document, detection: .init())
        let kiosk = try await HTMLChecker.parse(try await HTTPTestClient.get(port: server.port, "/kiosk").text)
        let tiles = kiosk.elements.filter { $0.tag == "li" && ($0.attributes["class"] ?? "").hasPrefix("tile") }
        #expect(tiles.count == 3)
        #expect(kiosk.text.contains("Acme Corporation") && kiosk.text.contains("182.52"))
        #expect(!kiosk.elements.contains { $0.tag == "img" })

        let item = try await HTTPTestClient.get(port: server.port, "/items/ACME")
        #expect(item.status == 200)
        let detail = try await HTMLChecker.parse(item.text)
        #expect(detail.errors.isEmpty)
        for shown in ["Acme Corporation", "182.52", "1,204,300", "wile", "1949", "and 30 more"] {
            #expect(detail.text.contains(shown), "\(shown) on the item page")
        }
        #expect(detail.values(of: "href").contains("https://acme.example/ir"), "a link in a field is clickable")
        #expect(detail.elements.contains { $0.tag == "details" }, "nested values fold")
    }

    @Test(
        "a kiosk tile is led and coloured by its item's most pressing status: a finished run's failure, not its 'completed'"
    )
    func tileLedByTheMostPressingStatus() async throws {
        func run(_ id: Int64, _ status: String, _ conclusion: String?) -> JSONValue {
            .object([
                "id": .int(id), "name": .string("build-\(id)"), "status": .string(status),
                "conclusion": conclusion.map(JSONValue.string) ?? .null, "head_branch": .string("main"),
            ])
        }
        let document: JSONValue = .object([
            "total_count": .int(4),
            "workflow_runs": .array([
                run(1, "completed", "failure"), run(2, "in_progress", nil), run(3, "completed", "success"),
                run(4, "completed", "cancelled"),
            ]),
        ])
        let server = try TestServer(document: document, detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        /// The tile of run `id`: its tone class, and its lead's column and text.
        func tile(_ id: Int) throws -> (tone: String?, leadColumn: String?, lead: String?) {
            let element = try #require(HTMLText.element(withID: "item-\(id)", in: html), "tile \(id)")
            let classes = (element.attributes["class"] ?? "").split(separator: " ").map(String.init)
            let start = try #require(html.range(of: " id=\"item-\(id)\""))
            let end = try #require(html[start.upperBound...].range(of: "</li>"))
            let inner = html[start.upperBound..<end.lowerBound]
            let lead = inner.firstMatch(of: /<p class="tile-lead[^"]*" data-col="([a-z_.]+)"[^>]*>(.*?)<\/p>/)
            let leadText = lead.map {
                String($0.output.2).replacing(/<[^>]*>/, with: " ").split(separator: " ").joined(separator: " ")
            }
            return (classes.first { $0.hasPrefix("status-") }, lead.map { String($0.output.1) }, leadText)
        }
        let failed = try tile(1)
        #expect(failed.tone == "status-bad" && failed.leadColumn == "conclusion", "\(failed)")
        #expect(failed.lead?.hasSuffix("failure") == true, "\(failed)")
        let running = try tile(2)
        #expect(running.tone == "status-busy" && running.leadColumn == "status", "no outcome yet: \(running)")
        let passed = try tile(3)
        #expect(
            passed.tone == "status-good" && passed.leadColumn == "conclusion", "the outcome among equals: \(passed)")
        let cancelled = try tile(4)
        #expect(cancelled.tone == "status-bad" && cancelled.lead?.hasSuffix("cancelled") == true, "\(cancelled)")
        #expect(running.lead?.hasSuffix("in progress") == true, "a status in words: \(running)")
        let firstTile = try #require(HTMLText.element(withID: "item-1", in: html))
        #expect(
            firstTile.text.contains("main") && !firstTile.text.contains("ID"), "no id among the facts: \(firstTile)")

        // The API's token in words on the table too: the cell, the filter's chip and heading;
        // the filter's URL keeps the value as the feed sends it.
        let tableHTML = try await HTTPTestClient.get(port: server.port, "/").text
        let table = try await HTMLChecker.parse(tableHTML)
        #expect(table.errors.isEmpty)
        #expect(tableHTML.contains(#"<a href="/?section=in_progress">in progress</a>"#), "the filter's chip")
        #expect(tableHTML.contains(#"<span class="status-word">in progress</span>"#), "the cell")
        #expect(!table.text.contains("in_progress"))
        let filtered = try await HTTPTestClient.get(port: server.port, "/?section=in_progress").text
        #expect(filtered.firstMatch(of: /<h1[^>]*>([^<]*)</)?.output.1 == "in progress")
        #expect(filtered.firstMatch(of: /<title>([^<]*)</)?.output.1.hasPrefix("in progress ·") == true)
        // The item page's breadcrumb, and the kiosk of that value, say it in words too.
        let itemHTML = try await HTTPTestClient.get(port: server.port, "/items/2").text
        #expect(try await HTMLChecker.parse(itemHTML).errors.isEmpty)
        let crumbs = try #require(itemHTML.firstMatch(of: /<nav class="crumbs"[^>]*>(.*?)<\/nav>/)?.output.1)
        #expect(crumbs.contains(#"<a href="/?section=in_progress">in progress</a>"#), "\(crumbs)")
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk?section=in_progress").text
        #expect(kiosk.firstMatch(of: /<title>([^<]*)</)?.output.1.hasPrefix("in progress ·") == true)
        #expect(kiosk.contains(#"data-section="in_progress""#), "the script's filter as the URL has it")
        #expect(try await HTMLChecker.parse(kiosk).text.contains("feedweb · in progress"))
    }

    @Test("on a board, a table feed's list is its table, and list:SECTION the table filtered, as on /")
    func boardListOfATableFeed() async throws {
        func run(_ id: Int64, _ status: String, _ conclusion: String?) -> JSONValue {
            .object([
                "id": .int(id), "name": .string("build-\(id)"), "status": .string(status),
                "conclusion": conclusion.map(JSONValue.string) ?? .null,
            ])
        }
        let document: JSONValue = .object([
            "workflow_runs": .array([
                run(1, "completed", "failure"), run(2, "in_progress", nil), run(3, "completed", "success"),
                run(4, "in_progress", nil),
            ])
        ])
        let server = try TestServer(document: document, detection: .init())
        let response = try await HTTPTestClient.get(port: server.port, "/board?v=list&v=list:in_progress&v=kiosk")
        #expect(response.status == 200)
        let html = response.text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        /// Each cell's view, the page stream's view it is, and the rows of its `<main>`.
        let cells = html.split(separator: "<section class=\"bd-cell\"").dropFirst().map { cell in
            let names = cell.firstMatch(of: /data-view="([^"]*)" data-spec="([^"]*)"/)
            let rows = cell.matches(of: /<tr[^>]* data-key="([^"]*)"/).map { String($0.output.1) }
            return (
                view: names.map { String($0.output.1) }, spec: names.map { String($0.output.2) }, rows: rows,
                hasTable: cell.contains("<table"), page: cell.firstMatch(of: /class="bd-page ([^"]*)"/)?.output.1
            )
        }
        try #require(cells.count == 3)
        #expect(cells[0].view == "list" && cells[0].spec == "table", "\(cells[0])")
        #expect(cells[0].hasTable && cells[0].rows == ["1", "2", "3", "4"], "every run: \(cells[0].rows)")
        #expect(cells[0].page == "page-list page-table")
        #expect(cells[1].view == "list:in_progress" && cells[1].spec == "table:in_progress", "\(cells[1])")
        #expect(cells[1].hasTable && cells[1].rows == ["2", "4"], "the runs in progress: \(cells[1].rows)")
        #expect(cells[2].spec == "kiosk" && !cells[2].hasTable)
        #expect(!html.contains("story"), "no news cards on a board of runs")

        // A news feed's list stays its list.
        let news = try TestServer(document: NewswireFeed.document(count: 3, version: 1))
        let newsBoard = try await HTTPTestClient.get(port: news.port, "/board?v=list").text
        #expect(newsBoard.contains(#"data-view="list" data-spec="list""#))
    }

    @Test("a spreadsheet's numbers sent as text are numbers: right-aligned as written, sorted by value, a tile's lead")
    func sheetNumbersAreNumbers() async throws {
        let sheet: JSONValue = .object([
            "range": .string("KPIs!A1:C5"),
            "values": .array([
                .array([.string("Region"), .string("Revenue"), .string("Status"), .string("Margin")]),
                .array([.string("North"), .string("12,400"), .string("on track"), .string("12%")]),
                .array([.string("South"), .string("9,870"), .string("at risk"), .string("8.5%")]),
                .array([.string("East"), .string("$15,020.50"), .string("on track"), .string("-2%")]),
                .array([.string("West"), .string("731"), .string("off track"), .string("30%")]),
            ]),
        ])
        let server = try TestServer(document: sheet, detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/?sort=Revenue&order=desc").text
        let page = try await HTMLChecker.parse(html)
        #expect(page.errors.isEmpty)
        let cells = page.elements.filter { $0.tag == "td" && $0.attributes["data-col"] == "Revenue" }
        let shown = html.matches(of: /<td class="[^"]*" data-col="Revenue"[^>]*>([^<]*)<\/td>/).map {
            String($0.output.1)
        }
        #expect(shown == ["$15,020.50", "12,400", "9,870", "731"], "by value, as written")
        #expect(cells.map { $0.attributes["data-value"] } == ["15020.5", "12400", "9870", "731"])
        #expect(cells.allSatisfy { ($0.attributes["class"] ?? "").contains("num") })
        let margins = page.elements.filter { $0.tag == "td" && $0.attributes["data-col"] == "Margin" }
        #expect(margins.map { $0.attributes["data-value"] } == ["-2", "12", "8.5", "30"], "a percent is a number")
        let statuses = page.elements.filter { $0.tag == "td" && $0.attributes["data-col"] == "Status" }
        #expect(statuses.map { ($0.attributes["class"] ?? "").contains("status-good") } == [true, true, false, false])

        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let lead = try #require(try Self.tileLead(of: "North", in: kiosk))
        #expect(lead.column == "Revenue" && lead.value == "12400", "\(lead)")
    }

    @Test("exchange rates sent as an object of values: a row and a tile each, numbers, following patches")
    func namedValues() async throws {
        let rates: JSONValue = .object([
            "base": .string("EUR"), "date": .string("2026-11-30"),
            "rates": .object(["AUD": .double(1.6521), "CHF": .double(0.9312), "JPY": .double(161.52)]),
        ])
        let server = try TestServer(document: rates, detection: .init())
        func rows(_ path: String) async throws -> [(name: String, rate: String)] {
            let html = try await HTTPTestClient.get(port: server.port, path).text
            let page = try await HTMLChecker.parse(html)
            #expect(page.errors.isEmpty)
            let names = page.elements.compactMap { $0.tag == "tr" ? $0.attributes["data-key"] : nil }
            let values = page.elements.filter { $0.tag == "td" && $0.attributes["data-col"] == "rates" }
            #expect(values.allSatisfy { ($0.attributes["class"] ?? "").contains("num") }, "right-aligned numbers")
            #expect(html.contains(#"data-col="name"><a class="row-link" href="/items/CHF">CHF</a>"#))
            return zip(names, values).map { ($0, $1.attributes["data-value"] ?? "") }
        }
        var shown = try await rows("/?sort=rates&order=desc")
        #expect(shown.map(\.name) == ["JPY", "AUD", "CHF"], "sorted by value")
        #expect(shown.map(\.rate) == ["161.52", "1.6521", "0.9312"])

        try server.store.apply(
            JSONPatch(
                json: .array([Patch.replace("/rates/CHF", .double(1.75)), Patch.add("/rates/USD", .double(1.06))])))
        shown = try await rows("/?sort=rates&order=desc")
        #expect(shown.map(\.name) == ["JPY", "CHF", "AUD", "USD"])
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let lead = try #require(try Self.tileLead(of: "CHF", in: kiosk))
        #expect(lead.column == "rates" && lead.value == "1.75", "\(lead)")
    }

    @Test("prices sent as text with every digit (CoinCap): shown grouped, to the decimals their size warrants")
    func numbersSentAsText() async throws {
        func coin(_ id: String, _ price: String, _ change: String) -> JSONValue {
            .object([
                "id": .string(id), "supply": .string("19576543.0000000000000000"), "priceUsd": .string(price),
                "changePercent24Hr": .string(change),
                // A product of two prices, with the arithmetic's noise in its last digits.
                "marketCap": .double(43_563_019_499.99999),
            ])
        }
        let server = try TestServer(
            document: .object([
                "data": .array([
                    coin("bitcoin", "43210.1234567890123456", "-1.2345000000000000"),
                    coin("tether", "1.0004123000000000", "0.0100000000000000"),
                    coin("ethereum", "2290.5512300000000000", "0.5100000000000000"),
                ])
            ]), detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/?sort=priceUsd&order=desc").text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        func shown(_ column: String) throws -> [String] {
            html.matches(of: try Regex(#"<td class="[^"]*" data-col="\#(column)"[^>]*>([^<]*)</td>"#)).compactMap {
                $0.output[1].substring.map(String.init)
            }
        }
        let prices = try shown("priceUsd")
        #expect(prices == ["43,210.12", "2,290.55", "1.0004"], "\(prices)")
        #expect(try shown("changePercent24Hr") == ["−1.23 %", "0.51 %", "0.01 %"])
        #expect(try shown("supply").first == "19,576,543")
        #expect(try shown("marketCap").first == "43,563,019,500", "no digits past what a double holds")
        #expect(html.contains(#"data-col="priceUsd" data-value="43210.1234567890123456""#), "the value as sent")
        // A tile is led by its price, not by the supply before it.
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let lead = try #require(try Self.tileLead(of: "tether", in: kiosk))
        #expect(lead.column == "priceUsd" && lead.value == "1.0004123000000000", "\(lead)")
    }

    @Test("a column of prices shows one precision, so the points line up: 76.20 above 50.52, live and on tiles")
    func onePrecisionDownAColumn() async throws {
        // Prices as a JSON writer sends them: trailing zeros dropped (`76.2`), a whole
        // price as an integer (`12`); beside them a count, and readings of another size.
        func stock(_ name: String, _ price: JSONValue, _ trades: Int64, _ load: Double) -> JSONValue {
            .object(["name": .string(name), "price": price, "trades": .int(trades), "load": .double(load)])
        }
        let server = try TestServer(
            document: .object([
                "prices": .object([
                    "a/b": stock("a/b", .double(76.2), 1200, 0.5),
                    "c~d": stock("c~d", .double(50.52), 7, 2),
                    "<b>bold</b>": stock("<b>bold</b>", .int(12), 31, 1.25),
                    "big": stock("big", .double(1234.5), 5, 0.000123),
                ])
            ]), detection: .init())
        func column(_ name: String) async throws -> [String] {
            try await Self.cells(of: name, port: server.port, path: "/?sort=name")
        }
        // Sorted by name: `&lt;b&gt;…`, `a/b`, `big`, `c~d`.
        var prices = try await column("price")
        #expect(prices == ["12.00", "76.20", "1,234.50", "50.52"], "\(prices)")
        let decimals = prices.map { $0.split(separator: ".").last?.count ?? 0 }
        #expect(Set(decimals).count == 1, "one precision down the column: \(prices)")
        #expect(try await column("trades") == ["31", "1,200", "5", "7"], "counts stay whole")
        // Padded to the column's decimals, but no number past what its size warrants: four
        // from 1, six below.
        #expect(try await column("load") == ["1.2500", "0.500000", "0.000123", "2.0000"], "padded to the column's")
        // A patch's price is shown at the column's precision, as the rows already are.
        try server.store.apply(
            JSONPatch(
                json: .array([
                    Patch.replace("/prices/a~1b/price", .int(80)), Patch.replace("/prices/c~0d/price", .double(50.5)),
                ])))
        prices = try await column("price")
        #expect(prices == ["12.00", "80.00", "1,234.50", "50.50"], "\(prices)")
        var html = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(html.contains(#"data-value="80""#), "the value as sent, for the page script to compare")
        // A change that brings more decimals than the column shows raises the column's: the
        // points line up again, every row at three, the price past 1,000 at the two it warrants.
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/prices/c~0d/price", .double(50.525))])))
        prices = try await column("price")
        #expect(prices == ["12.000", "80.000", "1,234.50", "50.525"], "\(prices)")
        // A column of whole numbers (a change of 0 everywhere) that comes to hold a fraction.
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/prices/big/trades", .double(5.5))])))
        #expect(try await column("trades") == ["31.0", "1,200.0", "5.5", "7.0"])
        html = try await HTTPTestClient.get(port: server.port, "/api/state").text
        #expect(html.contains("50.525") && html.contains(#""price":12,"#), "the document as sent")
        // A tile's figure as the table's cell shows it.
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(kiosk.contains("Price</span> 80.000</p>") && kiosk.contains("Price</span> 12.000</p>"), "led at three")
    }

    /// The texts of the column `name`'s plain cells on the page at `path`, top to bottom.
    static func cells(of name: String, port: UInt16, path: String) async throws -> [String] {
        let html = try await HTTPTestClient.get(port: port, path).text
        return html.matches(of: try Regex(#"<td class="[^"]*" data-col="\#(name)"[^>]*>([^<]*)</td>"#))
            .compactMap { $0.output[1].substring.map(String.init) }
    }

    @Test("an item's page does not say its name twice: the heading, then the other values")
    func itemPageNamesOnce() async throws {
        func pod(_ name: String, _ phase: String) -> JSONValue {
            .object([
                "metadata": .object(["name": .string(name), "namespace": .string("default")]),
                "status": .object(["phase": .string(phase)]),
            ])
        }
        let server = try TestServer(
            document: .object([
                "items": .array([pod("web-1", "Running"), pod("db-1", "Pending"), pod("<b>api</b>-1", "Failed")])
            ]), detection: .init())
        let key = try #require(
            try await JSONValue(parsing: HTTPTestClient.get(port: server.port, "/api/items").body)
                .arrayValue?.first { $0["title"]?.stringValue == "web-1" }?["key"]?.stringValue)
        let page = try await HTTPTestClient.get(port: server.port, "/items/" + key).text
        let facts = page.matches(of: /<div class="detail-value"><dt>([^<]*)<\/dt><dd[^>]*>([^<]*)<\/dd>/)
            .map { "\($0.output.1)=\($0.output.2)" }
        #expect(page.contains(#"<h1 class="detail-title">web-1</h1>"#))
        #expect(facts.contains("Namespace=default"), "\(facts)")
        #expect(!facts.contains { $0.hasSuffix("=web-1") }, "the name once, as the heading: \(facts)")
        // The table still has the name's column, each name linking to its page.
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(table.contains(#"<th scope="col" class="col" data-col="name""#))
        #expect(table.contains(#"href="/items/\#(key)">web-1</a>"#), "the name's cell links to the page")
    }

    @Test("an item named by nothing but a long digest is headed by its first 12 digits, as its cell shows it")
    func digestNamesShortened() async throws {
        // Docker's events: each keyed by a container's 64 hex digits, titled by nothing.
        let ids = (1...4).map { n in String(repeating: "\(n)f0a9c", count: 13).prefix(64) }.map(String.init)
        let events = ids.enumerated().map { index, id in
            JSONValue.object([
                "status": .string(index % 2 == 0 ? "start" : "die"), "id": .string(id),
                "from": .string(index % 2 == 0 ? "nginx:1.25" : "redis:7"), "Type": .string("container"),
            ])
        }
        let server = try TestServer(document: .array(events), detection: .init())
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let heads = kiosk.matches(of: /<h2 class="tile-title">([^<]*)<\/h2>/).map { String($0.output.1) }
        #expect(Set(heads) == Set(ids.map { String($0.prefix(12)) }), "\(heads)")
        let page = try await HTTPTestClient.get(port: server.port, "/items/" + ids[0]).text
        #expect(page.contains(#"<h1 class="detail-title">\#(ids[0].prefix(12))</h1>"#))
        #expect(page.contains(ids[0]), "the whole id on its page, among its values")
    }

    @Test("a token's price below a thousandth keeps four significant digits, written with a point")
    func tinyPricesKeepTheirDigits() async throws {
        // An exchange's 24-hour tickers: prices as text with eight decimals (Binance's
        // `"0.00000987"`), a change as a number a JSON writer shortens to `7e-06`.
        func ticker(_ symbol: String, _ price: String, _ change: JSONValue) -> JSONValue {
            .object(["symbol": .string(symbol), "lastPrice": .string(price), "change": change])
        }
        let server = try TestServer(
            document: .array([
                ticker("BTCUSDT", "43164.60393628", .double(-210.6774)),
                ticker("SHIBUSDT", "0.00000987", .double(-2e-08)),
                ticker("<i>PEPE</i>USDT", "0.00000123", .int(0)),
                ticker("DOGEUSDT", "0.09412700", .double(7e-06)),
            ]), detection: .init())
        func column(_ name: String) async throws -> [String] {
            try await Self.cells(of: name, port: server.port, path: "/?sort=symbol")
        }
        // Sorted by symbol: `&lt;i&gt;PEPE…`, BTC, DOGE, SHIB.
        #expect(try await column("lastPrice") == ["0.00000123", "43,164.60", "0.094127", "0.00000987"])
        // The zero lines up with the tiny changes beside it.
        #expect(try await column("change") == ["0.00000000", "−210.6774", "0.00000700", "−0.00000002"])
        // A patch's price of more digits: four of them significant, and the column's
        // precision raised to its nine decimals.
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/1/lastPrice", .string("0.0000098712"))])))
        #expect(try await column("lastPrice") == ["0.000001230", "43,164.60", "0.094127", "0.000009871"])
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(kiosk.contains(">0.000009871<") || kiosk.contains("> 0.000009871<"), "a tile's figure as the cell's")
        #expect(kiosk.firstMatch(of: /(?m)>[^<]*\de-\d/) == nil, "no exponent in a tile's text")
    }

    @Test("a sheet's rows of readings keep one precision, raised by a cell's patch or a row's")
    func onePrecisionDownASheetsColumn() async throws {
        let server = try TestServer(
            document: .object([
                "range": .string("Weather!A1:B3"),
                "values": .array([
                    .array([.string("City"), .string("Temp")]), .array([.string("Bern"), .string("21.5")]),
                    .array([.string("Oslo"), .string("3.25")]),
                ]),
            ]), detection: .init())
        func temps() async throws -> [String] {
            let html = try await HTTPTestClient.get(port: server.port, "/").text
            return html.matches(of: /<td class="[^"]*" data-col="Temp"[^>]*>([^<]*)<\/td>/).map { String($0.output.1) }
        }
        #expect(try await temps() == ["21.50", "3.25"])
        try server.store.apply(JSONPatch(json: .array([Patch.replace("/values/1/1", .string("21.125"))])))
        #expect(try await temps() == ["21.125", "3.250"], "a cell's patch, at its position's column")
        try server.store.apply(
            JSONPatch(json: .array([Patch.replace("/values/2", .array([.string("Oslo"), .string("3.0625")]))])))
        #expect(try await temps() == ["21.1250", "3.0625"], "a row given anew")
    }

    @Test("a forecast's times without a zone (Open-Meteo) are moments at its utc_offset_seconds: 'in 3 h'")
    func forecastTimesWithoutAZone() async throws {
        // Whole hours from now, written as Open-Meteo writes them for a place an hour east.
        let hour = (Date().timeIntervalSince1970 / 3600).rounded(.down) * 3600
        let instants = [3.0, 6.0, 9.0].map { Date(timeIntervalSince1970: hour + $0 * 3600) }
        let local = instants.map { instant in
            String(WallTime(instant.addingTimeInterval(3600)).description.prefix(16))
        }
        let server = try TestServer(
            document: .object([
                "utc_offset_seconds": .int(3600), "timezone": .string("Europe/Berlin"),
                "hourly_units": .object(["time": .string("iso8601"), "temperature_2m": .string("°C")]),
                "hourly": .object([
                    "time": .array(local.map { .string($0) }),
                    "temperature_2m": .array([.double(2.1), .double(1.8), .double(1.5)]),
                ]),
            ]), detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/").text
        let times = html.matches(of: /<time datetime="([^"]+)" data-relative>([^<]*)<\/time>/).map {
            (String($0.output.1), String($0.output.2))
        }
        #expect(times.map(\.0) == instants.map { RelativeTime.machine($0) }, "\(times), from \(local)")
        #expect(times.map(\.1).allSatisfy { $0.hasPrefix("in ") }, "\(times)")
        #expect(html.contains("Temperature 2m (°C)"))
        // A tile is headed by its hour as the place keeps time, as people write one.
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let titles = kiosk.matches(of: /<h2 class="tile-title">([^<]*)<\/h2>/).map { String($0.output.1) }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let thisYear = String(WallTime(Date()).description.prefix(4))
        let written = local.map { text -> String in
            let characters = Array(text)
            let (year, month, day) = (
                String(characters[0..<4]), Int(String(characters[5..<7])) ?? 1, String(characters[8..<10])
            )
            let dayText = day.hasPrefix("0") ? String(day.dropFirst()) : day
            return
                "\(dayText) \(months[month - 1])\(year == thisYear ? "" : " " + year), \(String(characters[11..<16]))"
        }
        #expect(titles == written, "\(titles), from \(local)")
    }

    @Test("a Jenkins job list: each ball shows as Jenkins says it, coloured by its tone, the value kept in the API")
    func jenkinsBalls() async throws {
        func job(_ name: String, _ color: String) -> JSONValue {
            .object([
                "_class": .string("hudson.model.FreeStyleProject"), "name": .string(name),
                "url": .string("http://jenkins.local/job/\(name)/"), "color": .string(color),
            ])
        }
        let server = try TestServer(
            document: .object([
                "_class": .string("hudson.model.Hudson"),
                "jobs": .array([job("build", "blue"), job("deploy", "red_anime"), job("e2e", "red")]),
            ]), detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/").text
        let shown = html.matches(
            of:
                /<td class="cell status status-([a-z]+)(?: lead)?" data-col="color"><span class="status-word">([^<]*)<\/span>/
        ).map { "\($0.output.2) (\($0.output.1))" }
        #expect(shown == ["success (good)", "building (busy)", "failed (bad)"], "\(shown)")
        #expect(!html.contains("hudson.model"), "the API's own class is no column")
        let api = try await HTTPTestClient.get(port: server.port, "/api/items").text
        #expect(api.contains(#""color":"red_anime""#), "the value as sent: \(api)")
    }

    @Test("the table is headed by what its items are called, when their member says: Departures, not All items")
    func headedByTheItemsName() async throws {
        func flight(_ number: String, _ status: String) -> JSONValue {
            .object(["flight": .string(number), "gate": .string("B7"), "status": .string(status)])
        }
        let flights: [JSONValue] = [
            flight("BA117", "Boarding"), flight("LH903", "Delayed"), flight("AF1381", "On time"),
        ]
        for (document, heading, title) in [
            (
                JSONValue.object(["airport": .string("LHR"), "departures": .array(flights)]), "Departures",
                "Departures · feedweb"
            ),
            (
                .object(["data": .object(["workflow_runs": .array(flights)])]), "Workflow runs",
                "Workflow runs · feedweb"
            ),
            (.object(["data": .object(["items": .array(flights)])]), "All items", "feedweb"),
            (.array(flights), "All items", "feedweb"),
        ] {
            let server = try TestServer(document: document, detection: .init())
            let html = try await HTTPTestClient.get(port: server.port, "/").text
            let h1 = html.firstMatch(of: /<h1>([^<]*)<\/h1>/).map { String($0.output.1) }
            let shownTitle = html.firstMatch(of: /<title>([^<]*)<\/title>/).map { String($0.output.1) }
            #expect(
                h1 == heading && shownTitle == title, "\(document): <h1>\(h1 ?? "none"), <title>\(shownTitle ?? "none")"
            )
            #expect(html.contains("<td class=\"cell\" data-col=\"gate\">B7</td>"), "the rows are the table's")
        }
    }

    @Test("a host list: a host that is down shows so in the bad tone, on the table and its tile; headings say what")
    func hostsUpAndDown() async throws {
        func host(_ name: String, up: Bool, user: Double) -> JSONValue {
            .object([
                "hostname": .string(name), "up": .bool(up),
                "cpu": .object(["user": .double(user), "system": .double(user / 4)]),
                "memory": .object(["total_bytes": .int(17_179_869_184), "used_bytes": .int(2_147_483_648)]),
            ])
        }
        let server = try TestServer(
            document: .object([
                "hosts": .array([
                    host("web-1", up: true, user: 41.5), host("db-1", up: false, user: 0),
                    host("web-2", up: true, user: 12),
                ])
            ]), detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        let shown = html.matches(
            of:
                /<td class="cell status status-([a-z]+)(?: lead)?" data-col="up"><span class="status-word">([^<]*)<\/span>/
        ).map { "\($0.output.2) (\($0.output.1))" }
        #expect(shown == ["yes (good)", "no (bad)", "yes (good)"], "\(shown)")
        let headings = html.matches(of: /<th[^>]*>(?:<a[^>]*>)?([^<]+)</).map { String($0.output.1) }
        for heading in ["CPU user", "CPU system", "Memory total", "Memory used"] {
            #expect(headings.contains(heading), "\(heading) in \(headings)")
        }
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(kiosk.contains("status-bad"), "the host that is down has the bad tone on its tile")
        let api = try await HTTPTestClient.get(port: server.port, "/api/items").text
        #expect(api.contains(#""up":false"#), "the value as sent: \(api)")
    }

    @Test("a bike-share station list (GBFS): seconds since 1970 are a time, a 1 or 0 a yes or no, on tiles too")
    func bikeShareStations() async throws {
        let now = Int64(Date().timeIntervalSince1970)
        func station(_ id: String, bikes: Int64, renting: Int64, reported: Int64) -> JSONValue {
            .object([
                "station_id": .string(id), "name": .string("Station " + id), "address": .string("Main St " + id),
                "num_bikes_available": .int(bikes),
                "num_docks_available": .int(20 - bikes), "is_renting": .int(renting), "last_reported": .int(reported),
            ])
        }
        let server = try TestServer(
            document: .object([
                "last_updated": .int(now),
                "data": .object([
                    "stations": .array([
                        station("72", bikes: 13, renting: 1, reported: now - 30),
                        station("83", bikes: 2, renting: 0, reported: now - 7_200),
                        station("94", bikes: 7, renting: 1, reported: now - 90),
                    ])
                ]),
            ]), detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        let renting = html.matches(of: /<td class="cell" data-col="is_renting">([^<]*)</).map { String($0.output.1) }
        #expect(renting == ["yes", "no", "yes"], "\(renting)")
        let reported = html.matches(of: /data-col="last_reported"[^>]*><time datetime="([^"]+)"[^>]*>([^<]*)</)
            .map { String($0.output.2) }
        #expect(reported.count == 3 && reported[1] == "2 h ago", "\(reported)")
        #expect(!html.contains(String(now - 7_200)) && !html.contains("1,796"), "no count of seconds shown")
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let tile = try #require(kiosk.firstMatch(of: />Station 83<\/h2>[\s\S]*?<\/dl>/))
        let facts = String(tile.output).matches(of: /data-col="([a-z_]+)"[^>]*><dt>[^<]*<\/dt><dd>([^<]*)</)
            .map { "\($0.output.1)=\($0.output.2)" }
        #expect(facts.contains("is_renting=no"), "a station not renting says so on its tile: \(facts)")
    }

    @Test("a ticker's tile is led by the price now, not its change; Consul's passing check is well, no empty fact")
    func tickersAndHealthChecks() async throws {
        func ticker(_ symbol: String, _ last: String, _ change: String) -> JSONValue {
            .object([
                "symbol": .string(symbol), "priceChange": .string(change), "weightedAvgPrice": .string("100.0"),
                "openPrice": .string("99.5"), "lastPrice": .string(last), "volume": .string("12345.678"),
            ])
        }
        let tickers = try TestServer(
            document: .array([ticker("BTCUSDT", "43339.75", "129.63"), ticker("ETHUSDT", "2283.68", "-6.87")]),
            detection: .init())
        let kiosk = try await HTTPTestClient.get(port: tickers.port, "/kiosk").text
        #expect(try Self.tileLead(of: "BTCUSDT", in: kiosk)?.column == "lastPrice", "\(kiosk)")
        #expect(try Self.tileLead(of: "ETHUSDT", in: kiosk)?.value == "2283.68")
        func check(_ service: String, _ status: String) -> JSONValue {
            .object([
                "CheckID": .string("service:" + service), "Name": .string("Service '\(service)' check"),
                "Status": .string(status), "Notes": .string(""), "ServiceName": .string(service),
            ])
        }
        let checks = try TestServer(
            document: .array([check("web", "passing"), check("db", "critical"), check("api", "warning")]),
            detection: .init())
        let table = try await HTTPTestClient.get(port: checks.port, "/").text
        let tones = table.matches(of: /<td class="cell status status-([a-z]+)(?: lead)?" data-col="Status">/)
            .map { String($0.output.1) }
        #expect(tones == ["good", "bad", "busy"], "\(tones)")
        let tiles = try await HTTPTestClient.get(port: checks.port, "/kiosk").text
        #expect(tiles.contains("status-good") && !tiles.contains(#"data-col="Notes""#), "no empty Notes on a tile")
    }

    @Test("a Prometheus range: each series its latest reading and a sparkline, sorted by it, live on a tile")
    func seriesOfReadings() async throws {
        let start = 1_796_065_200
        func series(_ instance: String, _ readings: [String]) -> JSONValue {
            .object([
                "metric": .object(["__name__": .string("node_load1"), "instance": .string(instance)]),
                "values": .array(
                    readings.enumerated().map { .array([.int(Int64(start + 15 * $0.offset)), .string($0.element)]) }),
            ])
        }
        let server = try TestServer(
            document: .object([
                "status": .string("success"),
                "data": .object([
                    "resultType": .string("matrix"),
                    "result": .array([
                        series("web-1:9100", ["0.5", "0.75", "1.25"]), series("web-2:9100", ["2", "1", "NaN"]),
                        series("db-1:9100", ["0.25", "0.25"]),
                    ]),
                ]),
            ]), detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/?sort=values&order=desc").text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        let cells = html.matches(
            of: /data-col="values" data-value="([^"]+)">([^<]*)<svg class="spark"[^>]*><polyline points="([^"]+)"/
        ).map { (value: String($0.output.1), text: String($0.output.2), points: String($0.output.3)) }
        #expect(cells.map(\.text) == ["1.25", "1", "0.25"], "sorted by the latest reading, a gap skipped: \(cells)")
        #expect(cells.map(\.value) == ["1.25", "1.0", "0.25"])
        // Oldest at the left, the highest reading at the top: web-1 rises to the right.
        #expect(cells.first?.points == "0.0,22.0 50.0,15.3 100.0,2.0", "\(cells)")
        #expect(cells.last?.points == "0.0,12.0 100.0,12.0", "a flat line at mid-height")
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(
            kiosk.contains(try Regex(#"<p class="tile-lead cell num" data-col="values" data-value="1.25">"#)),
            "a tile led by the latest reading")
        #expect(kiosk.matches(of: /<svg class="spark"/).count == 3, "each tile with its line")
    }

    @Test(
        "one device's status, --items-path '': its named values, a small object's too, each formatted by its own name")
    func oneDevicesStatus() async throws {
        let now = Int64(Date().timeIntervalSince1970)
        var overrides = ItemProfile.Overrides()
        overrides.itemsPath = .root
        let server = try TestServer(
            document: .object([
                "wifi_sta": .object(["connected": .bool(true), "rssi": .int(-61)]),
                "relays": .array([.object(["ison": .bool(true)])]),
                "unixtime": .int(now - 7_200), "serial": .int(2313), "uptime": .int(90_000),
                "temperature": .double(38.2),
            ]), detection: overrides)
        let html = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        let rows = html.matches(
            of: /<tr class="row"[^>]*><td[^>]*>(?:<a[^>]*>)?([a-z_.]+)<[\s\S]*?data-col="value"[^>]*>(.*?)<\/td>/
        )
        .map { "\($0.output.1)=\($0.output.2)" }
        #expect(rows.count == 6, "the plain members and the wifi's, not the relays: \(rows)")
        #expect(rows.contains("wifi_sta.rssi=\u{2212}61"), "a minus sign: \(rows)")
        #expect(rows.contains("serial=2313") && rows.contains("temperature=38.2"), "\(rows)")
        #expect(rows.contains("uptime=1 d 1 h"), "a duration by its name: \(rows)")
        #expect(rows.contains { $0.hasPrefix("unixtime=<time") && $0.hasSuffix(">2 h ago</time>") }, "\(rows)")
        // On the kiosk each value leads its tile, a time as much as a number.
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(kiosk.matches(of: /<p class="tile-lead [^"]*" data-col="value"/).count == 6, "\(kiosk)")
    }

    @Test("WordPress' posts: their rendered HTML shown as text, escaped, on the table, the tiles and the item page")
    func wordpressPosts() async throws {
        func post(_ id: Int64, _ title: String, _ content: String) -> JSONValue {
            .object([
                "id": .int(id), "date_gmt": .string("2026-11-30T09:00:00"),
                "title": .object(["rendered": .string(title)]),
                "content": .object(["rendered": .string(content), "protected": .bool(false)]),
            ])
        }
        let server = try TestServer(
            document: .array([
                post(100, "Caf&eacute; news &#8211; part 0", "<p>Body of <strong>post 0</strong>.</p>\n<p>Two.</p>"),
                post(101, "&lt;script&gt;alert(1)&lt;/script&gt;", "<script>alert(2)</script><p>Safe &amp; sound</p>"),
            ]), detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        let contents = html.matches(of: /data-col="content">([^<]*)</).map { String($0.output.1) }
        #expect(contents == ["Body of post 0. Two.", "Safe &amp; sound"], "\(contents)")
        #expect(html.contains(">Café news – part 0<"), "the title's text")
        #expect(!html.contains("<script>alert") && !html.contains("alert(2)"), "no script from the feed")
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "a title that reads as a tag is text")
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let titles = kiosk.matches(of: /<h2 class="tile-title">([^<]*)<\/h2>/).map { String($0.output.1) }
        #expect(titles == ["Café news – part 0", "&lt;script&gt;alert(1)&lt;/script&gt;"], "\(titles)")
        let detail = try await HTTPTestClient.get(port: server.port, "/items/100").text
        #expect(detail.contains("Body of post 0. Two.") && !detail.contains("<strong>post 0"), "whole, as text")
    }

    @Test("a scoreboard's tiles and item pages are titled by both sides of each match, its tiles led by the score")
    func scoreboard() async throws {
        func game(_ id: String, _ home: String, _ away: String) -> JSONValue {
            .object([
                "id": .string(id), "home": .object(["team": .string(home), "score": .int(7)]),
                "away": .object(["team": .string(away), "score": .int(5)]),
            ])
        }
        let server = try TestServer(
            document: .object(["events": .array([game("g1", "Lakers", "Celtics"), game("g2", "Bulls", "<Knicks>")])]),
            detection: .init())
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let titles = kiosk.matches(of: /<h2 class="tile-title">([^<]*)<\/h2>/).map { String($0.output.1) }
        #expect(titles == ["Lakers – Celtics", "Bulls – &lt;Knicks&gt;"], "\(titles)")
        // Each tile led by its score, whose two columns are then no facts.
        let leads = kiosk.matches(
            of: /<p class="tile-lead cell num" data-col="match-score"><span class="tile-label">Score<\/span> ([^<]*)</
        )
        .map { String($0.output.1) }
        #expect(leads == ["7 – 5", "7 – 5"], "\(leads)")
        #expect(!kiosk.contains(#"data-col="score"><dt>"#) && !kiosk.contains(#"data-col="away.score""#))
        let detail = try await HTTPTestClient.get(port: server.port, "/items/g1").text
        #expect(detail.contains("Lakers – Celtics"), "the item page's heading")
    }

    @Test("Docker's containers: a digest as people quote it, whole in its tooltip; a tile named by the first name")
    func dockerContainers() async throws {
        let document = ContainerList.document(states: ["running", "exited", "running"])
        let server = try TestServer(document: document, detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(try await HTMLChecker.parse(html).errors.isEmpty)
        let id = try #require(document.arrayValue?.first?["Id"]?.stringValue)
        let cells = html.matches(of: /<td class="cell id" data-col="Id" title="([^"]*)">(?:<a[^>]*>)?([^<]*)</)
            .map { (String($0.output.1), String($0.output.2)) }
        #expect(cells.first?.0 == id && cells.first?.1 == String(id.prefix(12)), "\(cells)")
        #expect(
            html.contains(">" + String(id.prefix(12)) + "<") && !html.contains(">sha256:"), "the image's digest too")
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let titles = kiosk.matches(of: /<h2 class="tile-title">([^<]*)<\/h2>/).map { String($0.output.1) }
        #expect(titles == ["/web", "/db", "/worker"], "\(titles)")
        #expect(!kiosk.contains(#"data-col="Names""#), "the name is the title, not a fact again")
        #expect(!kiosk.contains(#"data-col="ImageID""#), "a digest is no figure for a screen")
        #expect(kiosk.contains("status-good") && kiosk.contains("status-bad"), "running well, exited not")
        let key = try #require(document.arrayValue?.first?["Id"]?.stringValue)
        let detail = try await HTTPTestClient.get(port: server.port, "/items/" + key).text
        #expect(detail.contains(">" + id + "<"), "whole on the item page")
    }

    @Test("a reading in a state's place is a number: a Home Assistant sensor's state on the table and the kiosk")
    func readingsInAStatesPlace() async throws {
        func entity(_ id: String, _ state: JSONValue, _ name: String, unit: String? = nil) -> JSONValue {
            var attributes: JSONObject = ["friendly_name": .string(name)]
            if let unit { attributes["unit_of_measurement"] = .string(unit) }
            return .object(["entity_id": .string(id), "state": state, "attributes": .object(attributes)])
        }
        let document: JSONValue = .array([
            entity("sensor.temperature", .string("21.4"), "Temperature", unit: "°C"),
            entity("sensor.humidity", .int(78), "Humidity", unit: "%"),
            entity("light.kitchen", .string("on"), "Kitchen"),
            entity("switch.heater", .string("unavailable"), "Heater"),
        ])
        let server = try TestServer(document: document, detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(try await HTMLChecker.parse(table).errors.isEmpty)
        /// The `<td>` of `column` in the row of `key`, from its opening tag to its end.
        func cell(_ key: String, _ column: String) throws -> String {
            let row = try #require(table.range(of: "data-key=\"\(key)\""), "row \(key)")
            let rest = table[row.upperBound...]
            let start = try #require(rest.range(of: "data-col=\"\(column)\""))
            let end = try #require(rest[start.upperBound...].range(of: "</td>"))
            return String(rest[start.lowerBound..<end.lowerBound])
        }
        let temperature = try cell("sensor.temperature", "state")
        #expect(temperature.contains("data-value=\"21.4\"") && !temperature.contains("status-word"), "\(temperature)")
        #expect(try cell("sensor.humidity", "state").contains("data-value=\"78\""))
        #expect(try cell("switch.heater", "state").contains("status-word"))
        #expect(table.contains(/class="cell status status-bad(?: lead)?" data-col="state"/), "unavailable is bad")
        #expect(table.contains(">Temperature<"), "named by its friendly name")

        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let tile = try #require(HTMLText.element(withID: "item-sensor.temperature", in: kiosk))
        #expect(tile.text.contains("21.4"), "\(tile)")
        #expect(kiosk.contains(#"class="tile-lead cell num" data-col="state" data-value="21.4""#), "the reading leads")
        #expect(tile.text.contains("21.4 °C"), "with its unit: \(tile)")
        #expect(!tile.text.lowercased().contains("unit of measurement"), "the unit is not a fact of its own: \(tile)")
        let kitchen = try #require(HTMLText.element(withID: "item-light.kitchen", in: kiosk))
        #expect(!kitchen.text.contains("°") && !kitchen.text.contains("%"), "a word has no unit: \(kitchen)")
    }

    @Test("nested values in a few words: who by their login, labels by their names, a moment to come as such")
    func nestedValuesInAFewWords() async throws {
        let now = Date()
        func moment(_ offset: TimeInterval) -> JSONValue {
            .string(now.addingTimeInterval(offset).formatted(Date.ISO8601FormatStyle()))
        }
        func issue(_ number: Int64, _ login: String, labels: [String], due: TimeInterval) -> JSONValue {
            .object([
                "number": .int(number), "title": .string("Issue \(number)"),
                "user": .object([
                    "login": .string(login), "id": .int(number * 100),
                    "avatar_url": .string("https://avatars.example/\(login)"), "site_admin": .bool(false),
                    "type": .string("User"), "url": .string("https://api.example/users/\(login)"),
                    "plan": .object(["name": .string("free")]),
                ]),
                "labels": .array(labels.map { .object(["name": .string($0), "color": .string("d73a4a")]) }),
                "weather": .array([.object(["main": .string("Snow"), "description": .string("light snow")])]),
                "due_at": moment(due), "created_at": moment(-2 * 3600 - 60),
            ])
        }
        let document: JSONValue = .object([
            "issues": .array([
                issue(7, "ada", labels: ["bug", "ui"], due: 3 * 3600 + 300),
                issue(8, "ken", labels: [], due: 2 * 86_400 + 300),
                issue(9, "<img src=x onerror=alert(1)>", labels: ["<b>hot</b>"], due: 60),
            ])
        ])
        let server = try TestServer(document: document, detection: .init())
        let html = try await HTTPTestClient.get(port: server.port, "/").text
        let page = try await HTMLChecker.parse(html)
        #expect(page.errors.isEmpty, "\(page.errors.prefix(3))")
        /// The text of each cell of `column`, its tags left out.
        func cells(_ column: String) -> [String] {
            html.components(separatedBy: "<td ").dropFirst().compactMap { cell -> String? in
                guard cell.contains("data-col=\"\(column)\""), let open = cell.firstIndex(of: ">"),
                    let close = cell.range(of: "</td>")
                else { return nil }
                let inner = cell[cell.index(after: open)..<close.lowerBound]
                return inner.replacing(/<[^>]*>/, with: "").trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        #expect(cells("user") == ["ada", "ken", "&lt;img src=x onerror=alert(1)&gt;"], "a user by their login")
        #expect(cells("labels") == ["bug, ui", "none", "&lt;b&gt;hot&lt;/b&gt;"], "labels by their names")
        #expect(cells("weather") == Array(repeating: "Snow, light snow", count: 3), "a lone small object's values")
        #expect(cells("due_at") == ["in 3 h", "in 2 d", "in 1 min"], "a moment to come")
        #expect(cells("created_at") == ["2 h ago", "2 h ago", "2 h ago"])
        #expect(!html.contains("<b>hot") && !html.contains("<img src=x"), "names from the feed stay text")
    }

    @Test("hostile values stay text in cells, tiles, the item page and the page stream's fragments")
    func hostileValues() async throws {
        let markup = HostileFeed.markup
        let urls = HostileFeed.urls
        let items: [JSONValue] = (0..<12).map { index in
            .object([
                "id": .string("k\(index)"),
                "name": .string("Name \(index) " + markup[index % markup.count]),
                "status": .string(markup[(index + 1) % markup.count]),
                "link": .string(urls[index % urls.count]),
                "image": .string(urls[(index + 1) % urls.count]),
                "note": .string(String(repeating: markup[index % markup.count], count: 40)),
                markup[index % markup.count]: .object([markup[0]: .string(markup[1])]),
            ])
        }
        var overrides = ItemProfile.Overrides()
        overrides.columns = [
            try ItemColumn(parsing: "Name=/name"), try ItemColumn(parsing: "Status=/status:status"),
            try ItemColumn(parsing: "Link=/link:link"), try ItemColumn(parsing: "Image=/image:image"),
            try ItemColumn(parsing: "Note=/note"),
        ]
        let server = try TestServer(document: .array(items), detection: overrides)
        for path in ["/", "/kiosk", "/items/k0", "/items/k1", "/items/k5"] {
            let response = try await HTTPTestClient.get(port: server.port, path)
            #expect(response.status == 200, "\(path)")
            let page = try await HTMLChecker.parse(response.text)
            #expect(page.errors.isEmpty, "\(path) is not well-formed HTML5: \(page.errors.prefix(3))")
            let scripts = page.elements.filter { $0.tag == "script" }.compactMap { $0.attributes["src"] }
            #expect(
                scripts.allSatisfy {
                    $0.hasPrefix("/static/cells.js") || $0.hasPrefix("/static/times.js")
                        || $0.hasPrefix("/static/app.js")
                        || $0.hasPrefix("/static/attention.js") || $0.hasPrefix("/static/showings.js")
                })
            for tag in ["iframe", "svg", "object", "embed", "base", "form"] {
                #expect(!page.elements.contains { $0.tag == tag }, "\(path) has an injected <\(tag)>")
            }
            for element in page.elements {
                for name in element.attributes.keys {
                    #expect(!name.lowercased().hasPrefix("on"), "\(path): <\(element.tag) \(name)>")
                }
            }
            for name in ["href", "src"] {
                for value in page.values(of: name) { #expect(SafeURL.isSafe(value), "\(path): \(name)=\(value)") }
            }
            for raw in markup.prefix(5) { #expect(!response.text.contains(raw), "\(path): raw \(raw)") }
        }
        let list = try await HTMLChecker.parse(try await HTTPTestClient.get(port: server.port, "/").text)
        #expect(list.text.contains("Name 0 " + markup[0]), "shown literally")
        // A long value is shortened on the list, whole on the item page.
        let notes = list.elements.filter { $0.attributes["data-col"] == "note" && $0.tag == "td" }
        #expect(notes.allSatisfy { ($0.attributes["title"]?.count ?? 0) > 120 })
        let item = try await HTMLChecker.parse(try await HTTPTestClient.get(port: server.port, "/items/k0").text)
        #expect(item.text.contains(String(repeating: markup[0], count: 40)))

        // The page stream: each fragment parses to the same safe markup.
        let stream = try await SSETestClient(port: server.port, path: "/events/page?v=table&v=kiosk&v=item:k1")
        var fragments: [String] = []
        while fragments.count < 12 + 12 + 1 {
            let event = try await stream.next(before: Date().addingTimeInterval(10))
            guard event.type == "items" || event.type == "item" else { continue }
            let data = try JSONValue(parsing: event.data)
            if let html = data["html"]?.stringValue { fragments.append(html) }
            for (_, value) in data["html"]?.objectValue ?? [:] { fragments.append(value.stringValue ?? "") }
        }
        stream.close()
        for fragment in fragments {
            let wrapped = fragment.hasPrefix("<tr") ? "<table><tbody>" + fragment + "</tbody></table>" : fragment
            let page = try await HTMLChecker.parse("<!DOCTYPE html><title>x</title>" + wrapped)
            #expect(page.errors.isEmpty, "\(page.errors.prefix(2)) in \(fragment.prefix(200))")
            for raw in markup.prefix(5) { #expect(!fragment.contains(raw)) }
            for element in page.elements {
                for name in element.attributes.keys { #expect(!name.lowercased().hasPrefix("on")) }
            }
            for value in page.values(of: "href") + page.values(of: "src") { #expect(SafeURL.isSafe(value), "\(value)") }
        }
    }

    @Test("a document that loses its items says so on the page, not a blank table")
    func lostShape() async throws {
        let server = try TestServer(document: Self.quotes, detection: .init())
        try server.store.apply(
            JSONPatch(json: .array([Patch.replace("/quotes", .object(["error": .string("rate limited")]))])))
        let response = try await HTTPTestClient.get(port: server.port, "/")
        let page = try await HTMLChecker.parse(response.text)
        let problem = page.elements.first { $0.attributes["id"] == "problem" }
        #expect(problem != nil && problem?.attributes["hidden"] == nil)
        #expect(page.text.contains("/quotes") && page.text.contains("\"error\""), "\(page.text.prefix(600))")
    }

    @Test("before any document with items: the page says what the document holds")
    func undecided() async throws {
        let server = try TestServer(
            document: .object(["status": .string("ok"), "uptime": .int(5)]), detection: .init())
        let page = try await HTMLChecker.parse(try await HTTPTestClient.get(port: server.port, "/").text)
        #expect(page.text.contains("no array of objects"), "\(page.text.prefix(600))")
        #expect(page.text.contains("\"uptime\""))
    }
}
