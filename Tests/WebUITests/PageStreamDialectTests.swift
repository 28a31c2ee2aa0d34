import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// `/events/page?…&dialect=htmx|datastar` on a real socket: the same fragments as feedweb's
/// own events, as htmx 2's SSE extension and Datastar v1 read them; whole state first;
/// Datastar resumes by `Last-Event-ID`; rendered once per change whatever the dialects.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct PageStreamDialectTests {
    let server: TestServer

    init() throws {
        // Stories 4…0, newest first.
        server = try TestServer(document: NewswireFeed.document(count: 5, version: 5))
    }

    /// One Datastar event's data lines: `selector`, `mode`, and the `elements` lines joined
    /// with LF, as Datastar's client reads them.
    struct Patch: Equatable {
        var selector: String?
        var mode: String?
        var elements: String?

        init(selector: String?, mode: String?, elements: String?) {
            self.selector = selector
            self.mode = mode
            self.elements = elements
        }

        init(_ event: SSEEvent) {
            var elements: [String] = []
            for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) {
                let (name, value) = (line.prefix { $0 != " " }, String(line.drop { $0 != " " }.dropFirst()))
                switch name {
                case "selector": selector = value
                case "mode": mode = value
                case "elements": elements.append(value)
                default: Issue.record("unexpected data line \(line)")
                }
            }
            self.elements = elements.isEmpty ? nil : elements.joined(separator: "\n")
        }
    }

    /// Reads a Datastar stream frame by frame.
    struct DatastarReader {
        let client: SSETestClient
        /// The events read so far.
        private var read = 0

        init(_ client: SSETestClient) { self.client = client }

        /// The next frame's events as patches, up to the one whose own block carries an
        /// `id:` line (a frame's last), and that id.
        mutating func frame() async throws -> (patches: [Patch], id: String) {
            var patches: [Patch] = []
            while true {
                let event = try await client.expectNext("datastar-patch-elements")
                let blocks = String(decoding: client.received, as: UTF8.self).components(separatedBy: "\n\n")
                    .filter { $0.contains("event: ") }
                let block = blocks[read]
                read += 1
                patches.append(Patch(event))
                if block.contains("\nid: ") { return (patches, event.id) }
            }
        }
    }

    /// The fields of every event written so far, each block's field names in order.
    static func fieldOrders(_ client: SSETestClient) -> [[String]] {
        String(decoding: client.received, as: UTF8.self).components(separatedBy: "\n\n").map { block in
            block.split(separator: "\n").map { String($0.prefix { $0 != ":" }) }
        }.filter { !$0.isEmpty }
    }

    /// The story entries of the list as feedweb's own stream's first frame has them.
    func feedwebWholeState() async throws -> (order: [String], html: [String: String]) {
        let client = try await SSETestClient(port: server.port, path: "/events/page?v=list")
        defer { client.close() }
        let data = try JSONValue(parsing: try await client.expectNext("items").data)
        var html: [String: String] = [:]
        for (id, fragment) in try #require(data["html"]?.objectValue) { html[id] = fragment.stringValue }
        return (try #require(data["order"]?.arrayValue).compactMap(\.stringValue), html)
    }

    @Test("htmx: one `feedweb` event per frame; the first is every entry, then out-of-band swaps of what changed")
    func htmxStream() async throws {
        let whole = try await feedwebWholeState()
        let page = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=htmx")
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        let first = try await page.expectNext("feedweb")
        let stories = whole.order.compactMap { whole.html[$0] }.joined()
        #expect(first.data.hasPrefix("<div hx-swap-oob=\"innerHTML:#stories\">" + stories + "</div>\n"))
        #expect(first.data.contains("<span id=\"count\" hx-swap-oob=\"innerHTML\">5 stories</span>"))
        #expect(first.data.contains("hx-swap-oob=\"true\" class=\"badge"))
        #expect(Self.fieldOrders(page).first == ["retry"])

        // Story 2 retitled: its element alone, replacing itself, and the badge.
        let story2 = whole.order[2]
        server.store.replaceDocument(
            NewswireFeed.document(
                [4, 3, 2, 1, 0].map { $0 == 2 ? NewswireFeed.story(2, title: "Two, revised") : NewswireFeed.story($0) },
                version: 6))
        server.handlers.pageStreams.refresh()
        let change = try await page.expectNext("feedweb")
        #expect(change.data.hasPrefix("<li hx-swap-oob=\"true\" class=\"story"))
        #expect(change.data.contains("id=\"\(story2)\""))
        #expect(change.data.contains("Two, revised"))
        #expect(!change.data.contains("#stories"), "nothing else of the list")
        #expect(change.id != first.id)

        // Story 9 on top, story 0 gone.
        server.store.replaceDocument(NewswireFeed.document(stories: [9, 4, 3, 2, 1], version: 7))
        server.handlers.pageStreams.refresh()
        let delta = try await page.expectNext("feedweb")
        let lines = delta.data.split(separator: "\n").map(String.init)
        #expect(lines.first == "<div id=\"\(whole.order[4])\" hx-swap-oob=\"delete\"></div>")
        #expect(lines[1].hasPrefix("<div hx-swap-oob=\"afterbegin:#stories\"><li class=\"story"))
        #expect(delta.data.contains("Story number 9"))
        #expect(delta.data.contains(">5 stories</span>"))
        for order in Self.fieldOrders(page) { #expect(order == ["retry"] || order.first == "event") }
        page.close()
    }

    @Test("htmx: every connection starts with the whole state, whatever id it brings")
    func htmxAlwaysWhole() async throws {
        let json = try await SSETestClient(port: server.port, path: "/events/page?v=list")
        let current = try await json.expectNext("items").id
        json.close()
        let page = try await SSETestClient(
            port: server.port, path: "/events/page?v=list%40\(current)&dialect=htmx",
            headers: ["Last-Event-ID": current])
        let first = try await page.expectNext("feedweb")
        #expect(first.data.hasPrefix("<div hx-swap-oob=\"innerHTML:#stories\">"))
        page.close()
    }

    @Test("Datastar: fields in the order event, id, data; one elements line per line of HTML; remove and prepend")
    func datastarStream() async throws {
        let whole = try await feedwebWholeState()
        let page = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=datastar")
        #expect(page.status == 200)
        var reader = DatastarReader(page)
        let first = try await reader.frame()
        let stories = whole.order.compactMap { whole.html[$0] }.joined()
        #expect(first.patches[0].selector == "#stories")
        #expect(first.patches[0].mode == "inner")
        // The HTML exactly, line for line (less the final line break).
        #expect(first.patches[0].elements.map { $0 + "\n" } == stories)
        #expect(first.patches[1] == Patch(selector: "#count", mode: "inner", elements: "5 stories"))
        #expect(first.patches[2].selector == nil && first.patches[2].mode == nil)
        #expect(first.patches[2].elements?.contains("id=\"status\"") == true)
        #expect(first.patches.count == 3)

        server.store.replaceDocument(NewswireFeed.document(stories: [9, 4, 3, 2, 1], version: 6))
        server.handlers.pageStreams.refresh()
        let delta = try await reader.frame()
        #expect(delta.patches[0] == Patch(selector: "#\(whole.order[4])", mode: "remove", elements: nil))
        #expect(delta.patches[1].selector == "#stories")
        #expect(delta.patches[1].mode == "prepend")
        #expect(delta.patches[1].elements?.contains("Story number 9") == true)
        #expect(delta.patches[2] == Patch(selector: "#count", mode: "inner", elements: "5 stories"))
        #expect(delta.patches[3].elements?.contains("id=\"status\"") == true)
        #expect(delta.id != first.id)

        let orders = Self.fieldOrders(page)
        #expect(orders.first == ["retry"])
        for order in orders.dropFirst() {
            let fields = order.filter { $0 != "data" }
            #expect(fields == ["event"] || fields == ["event", "id"], "\(order)")
            #expect(order.firstIndex(of: "data").map { $0 == fields.count } ?? false, "data last: \(order)")
        }
        let text = String(decoding: page.received, as: UTF8.self)
        #expect(text.contains("data: mode remove\ndata: selector #\(whole.order[4])\n"))
        #expect(!text.contains("namespace"))
        page.close()
    }

    @Test("Datastar resumes by Last-Event-ID: at the current id only the badge, an older one the whole state")
    func datastarResumes() async throws {
        let page = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=datastar")
        var reader = DatastarReader(page)
        let first = try await reader.frame()
        page.close()

        let resumed = try await SSETestClient(
            port: server.port, path: "/events/page?v=list&dialect=datastar&datastar=%7B%7D",
            headers: ["Last-Event-ID": first.id])
        var resumedReader = DatastarReader(resumed)
        let badge = try await resumedReader.frame()
        #expect(badge.patches.count == 1)
        #expect(badge.patches[0].selector == nil)
        #expect(badge.patches[0].elements?.hasPrefix("<p class=\"badge") == true)
        #expect(badge.id == first.id)
        resumed.close()

        server.store.replaceDocument(NewswireFeed.document(stories: [9, 4, 3, 2, 1], version: 6))
        server.handlers.pageStreams.refresh()
        try await Eventually.check("the change published", within: 5) {
            server.handlers.pageStreams.stream.broadcaster.state?.view?.id.description != first.id
        }
        let behind = try await SSETestClient(
            port: server.port, path: "/events/page?v=list&dialect=datastar", headers: ["Last-Event-ID": first.id])
        var behindReader = DatastarReader(behind)
        let caughtUp = try await behindReader.frame()
        #expect(caughtUp.patches[0].mode == "inner")
        #expect(caughtUp.patches[0].elements?.contains("Story number 9") == true)
        #expect(caughtUp.id != first.id)
        behind.close()
    }

    @Test("a dialect that is not htmx or datastar is a 400 page naming them; none is feedweb's own stream")
    func badDialect() async throws {
        for bad in ["xml", "", "HTMX"] {
            let response = try await HTTPTestClient.get(port: server.port, "/events/page?v=list&dialect=\(bad)")
            #expect(response.status == 400)
            #expect(response.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(response.text.contains("dialect") && response.text.contains("htmx or datastar"))
        }
        let plain = try await SSETestClient(port: server.port, path: "/events/page?v=list")
        #expect(try await plain.expectNext("items").data.hasPrefix("{\"view\":\"list\",\"order\":"))
        plain.close()
    }

    @Test("a change is rendered once, whatever the dialects its view is read in")
    func renderedOnceWhateverTheDialects() async throws {
        let pageEvents = server.handlers.pageStreams.stream
        let feedweb = try await SSETestClient(port: server.port, path: "/events/page?v=list")
        _ = try await feedweb.expectNext("items")
        _ = try await feedweb.expectNext("status")
        let connected = pageEvents.fragmentRenderCount
        let htmx = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=htmx")
        _ = try await htmx.expectNext("feedweb")
        let datastar = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=datastar")
        var reader = DatastarReader(datastar)
        _ = try await reader.frame()
        #expect(pageEvents.fragmentRenderCount == connected, "the whole state is rendered once for every dialect")

        server.store.replaceDocument(
            NewswireFeed.document(
                [4, 3, 2, 1, 0].map { $0 == 1 ? NewswireFeed.story(1, title: "One, revised") : NewswireFeed.story($0) },
                version: 6))
        server.handlers.pageStreams.refresh()
        _ = try await feedweb.expectNext("items")
        #expect(try await htmx.expectNext("feedweb").data.contains("One, revised"))
        #expect(try await reader.frame().patches.last?.elements?.contains("One, revised") == true)
        #expect(pageEvents.fragmentRenderCount - connected == 2, "one story and one badge, for three dialects")
        for client in [feedweb, htmx, datastar] { client.close() }
    }

    @Test(
        "on a table's feed a dialect's list is the table's rows and its header, as / has them; feedweb's own list view stays as asked"
    )
    func listOfATableFeed() async throws {
        let server = try TestServer(document: TableStreamTests.rows, detection: .init())
        let htmx = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=htmx")
        let whole = try await htmx.expectNext("feedweb", within: 20)
        // The header row first, into the page's `<thead id="columns">`, then the rows.
        let (head, rows) = try #require(Self.firstLine(of: whole.data))
        #expect(head.hasPrefix("<template><thead hx-swap-oob=\"innerHTML:#columns\"><tr><th scope=\"col\""), "\(head)")
        #expect(Self.columnNames(in: head) == ["id", "value", "state"], "\(head)")
        #expect(
            rows.hasPrefix("<template><tbody hx-swap-oob=\"innerHTML:#stories\"><tr class=\"row\" id=\"item-r0000\""),
            "\(rows.prefix(200))")
        #expect(!whole.data.contains("class=\"story"))
        // The same header as the table page's own.
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        let pageHead = try #require(page.firstRange(of: "<thead id=\"columns\">").map { page[$0.upperBound...] })
        let headRow = head.dropFirst("<template><thead hx-swap-oob=\"innerHTML:#columns\">".count)
            .dropLast("</thead></template>".count)
        #expect(headRow.hasPrefix("<tr>") && pageHead.hasPrefix(headRow + "</thead>"), "\(headRow)")
        let datastar = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=datastar")
        var reader = DatastarReader(datastar)
        let frame = try await reader.frame()
        #expect(frame.patches.contains { $0.elements?.contains("<tr class=\"row\" id=\"item-r0000\"") == true })
        let columns = try #require(frame.patches.first { $0.selector == "#columns" })
        #expect(columns.mode == "inner" && Self.columnNames(in: columns.elements ?? "") == ["id", "value", "state"])
        let own = try await SSETestClient(port: server.port, path: "/events/page?v=list")
        let items = try await own.expectNext("items", within: 20)
        #expect(items.data.contains("\"view\":\"list\""), "\(items.data.prefix(200))")
        for client in [htmx, datastar, own] { client.close() }
    }

    @Test("a user's list asked for before the first document is the table once the feed turns out to be one")
    func listBeforeTheFeedIsKnown() async throws {
        let server = try TestServer(document: nil, detection: .init())
        let htmx = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=htmx")
        let datastar = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=datastar")
        var reader = DatastarReader(datastar)
        let waiting = try await htmx.expectNext("feedweb", within: 20).data
        #expect(!waiting.contains("<tr") && !waiting.contains("#columns"), "no items yet: \(waiting.prefix(300))")
        _ = try await reader.frame()
        server.store.replaceDocument(TableStreamTests.rows)
        server.handlers.pageStreams.refresh()
        // The table's whole state: its header, then every row of its first page.
        let whole = try await htmx.expectNext("feedweb", within: 20).data
        let (head, rows) = try #require(Self.firstLine(of: whole))
        #expect(Self.columnNames(in: head) == ["id", "value", "state"], "\(head)")
        #expect(
            rows.hasPrefix("<template><tbody hx-swap-oob=\"innerHTML:#stories\"><tr class=\"row\" id=\"item-r0000\""),
            "\(rows.prefix(200))")
        #expect(!whole.contains("class=\"story"))
        let patches = try await reader.frame().patches
        #expect(
            patches.first { $0.selector == "#columns" }.map { Self.columnNames(in: $0.elements ?? "") } == [
                "id", "value", "state",
            ])
        #expect(
            patches.contains {
                $0.selector == "#stories" && $0.mode == "inner"
                    && $0.elements?.contains("<tr class=\"row\" id=\"item-r0000\"") == true
            })
        // Then the table's changes, row by row.
        try server.store.apply(JSONPatch(json: .array([TestSupport.Patch.replace("/rows/1/value", .double(7.25))])))
        server.handlers.pageStreams.refresh()
        let change = try await htmx.expectNext("feedweb", within: 20).data
        #expect(
            change.hasPrefix("<template><tr hx-swap-oob=\"true\" class=\"row\" id=\"item-r0001\""),
            "\(change.prefix(200))")
        #expect(change.contains("7.25") && !change.contains("#columns"))
        for client in [htmx, datastar] { client.close() }
    }

    @Test("a table's notice goes out in a whole state and when it changes, never again unchanged, in every dialect")
    func noticeOnlyWhenItChanges() async throws {
        let quotes =
            #"{"quotes": [{"symbol":"ACME","price":1.25},"#
            + #"{"symbol":"GLBX","price":2},{"symbol":"INIT","price":3}]}"#
        let server = try TestServer(document: try JSONValue(parsing: quotes), detection: .init())
        let own = try await SSETestClient(port: server.port, path: "/events/page?v=table")
        let htmx = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=htmx")
        let datastar = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=datastar")
        var reader = DatastarReader(datastar)
        /// What each dialect's next frame says of the notice: `nil` when it leaves it out.
        func notices() async throws -> [String?] {
            let items = try JSONValue(parsing: try await own.expectNext("items", within: 20).data)
            _ = try await own.expectNext("status")
            let swaps = try await htmx.expectNext("feedweb", within: 20).data
            let patches = try await reader.frame().patches.compactMap(\.elements).joined()
            func problem(_ html: String) -> String? {
                guard let start = html.firstRange(of: "id=\"problem\"") else { return nil }
                let rest = html[start.upperBound...]
                guard let open = rest.firstIndex(of: ">"), let close = rest.firstRange(of: "</p>") else { return "?" }
                return String(rest[rest.index(after: open)..<close.lowerBound])
            }
            return [items["notice"]?.stringValue, problem(swaps), problem(patches)]
        }
        #expect(try await notices() == ["", "", ""], "a whole state says there is none")
        func change(_ patch: String) throws {
            try server.store.apply(JSONPatch(parsing: patch))
            server.handlers.pageStreams.refresh()
        }
        try change(#"[{"op":"replace","path":"/quotes/0/price","value":1.75}]"#)
        #expect(try await notices() == [nil, nil, nil], "unchanged: left out")
        // INIT takes ACME's symbol: one quote is not shown, and every page is told.
        try change(#"[{"op":"replace","path":"/quotes/2/symbol","value":"ACME"}]"#)
        let told = try await notices()
        let notice = try #require(server.store.snapshot?.published.itemsProblem)
        #expect(told == [notice, HTMLText.escaped(notice), HTMLText.escaped(notice)], "\(told)")
        try change(#"[{"op":"replace","path":"/quotes/1/price","value":2.5}]"#)
        #expect(try await notices() == [nil, nil, nil], "told once")
        for client in [own, htmx, datastar] { client.close() }
    }

    /// `data`'s first line and the rest.
    static func firstLine(of data: String) -> (String, String)? {
        guard let end = data.firstIndex(of: "\n") else { return nil }
        return (String(data[..<end]), String(data[data.index(after: end)...]))
    }

    /// The `data-col` of every `<th>` in `html`, in order.
    static func columnNames(in html: String) -> [String] {
        html.components(separatedBy: "<th ").dropFirst().compactMap { th in
            th.firstRange(of: "data-col=\"").flatMap { start in
                th[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
            }
        }
    }

    @Test(
        "with --public-origin the rows, an item's #detail and the pages link to feedweb's pages on that origin; without, by path"
    )
    func linksOnThePublicOrigin() async throws {
        let origin = "https://dash.example:8443"
        // Given with a `/` after it, as people copy it from the address bar.
        for (links, base) in [(try PageLinks(origin: origin + "/"), origin), (.paths, "")] {
            let server = try TestServer(document: TableStreamTests.rows, detection: .init(), links: links)
            let htmx = try await SSETestClient(port: server.port, path: "/events/page?v=list&dialect=htmx")
            let rows = try await htmx.expectNext("feedweb", within: 20).data
            #expect(rows.contains("<a class=\"row-link\" href=\"\(base)/items/r0000\">"), "\(rows.prefix(300))")
            let datastar = try await SSETestClient(
                port: server.port, path: "/events/page?v=item:r0001&dialect=datastar")
            var reader = DatastarReader(datastar)
            let detail = try await reader.frame().patches.compactMap(\.elements).joined(separator: "\n")
            #expect(detail.contains("<a href=\"\(base)/\">All items</a>"), "\(detail.prefix(300))")
            let page = try await HTTPTestClient.get(port: server.port, "/").text
            #expect(page.contains("href=\"\(base)/items/r0999\""))
            let item = try await HTTPTestClient.get(port: server.port, "/items/r0002").text
            #expect(item.contains("<a href=\"\(base)/\">All items</a>"))
            // Only feedweb's links to its pages: its scripts and styles stay its own paths.
            #expect(page.contains("src=\"/static/app.js"))
            for client in [htmx, datastar] { client.close() }
        }
    }

    @Test("a sorted table's moved row is sent alone in every dialect, rendered once")
    func sortedTableInEveryDialect() async throws {
        let server = try TestServer(document: TableStreamTests.rows, detection: .init())
        let pageEvents = server.handlers.pageStreams.stream
        let view = "v=table%2Bsort%3Dvalue%2Bdesc"
        let feedweb = try await SSETestClient(port: server.port, path: "/events/page?\(view)")
        _ = try await feedweb.expectNext("items")
        _ = try await feedweb.expectNext("status")
        let htmx = try await SSETestClient(port: server.port, path: "/events/page?\(view)&dialect=htmx")
        let whole = try await htmx.expectNext("feedweb")
        let (head, rows) = try #require(Self.firstLine(of: whole.data))
        #expect(head.contains("aria-sort=\"descending\"><a href=\"/?sort=value\">Value <span class=\"sort-arrow\""))
        #expect(
            rows.hasPrefix("<template><tbody hx-swap-oob=\"innerHTML:#stories\"><tr class=\"row\" id=\"item-r0999\""))
        let datastar = try await SSETestClient(port: server.port, path: "/events/page?\(view)&dialect=datastar")
        var reader = DatastarReader(datastar)
        _ = try await reader.frame()
        let before = pageEvents.fragmentRenderCount

        // r0003 jumps from the bottom to the top.
        try server.store.apply(JSONPatch(json: .array([TestSupport.Patch.replace("/rows/3/value", .double(5000))])))
        server.handlers.pageStreams.refresh()
        _ = try await feedweb.expectNext("items")
        let moved = try await htmx.expectNext("feedweb").data
        #expect(moved.hasPrefix("<template><tr id=\"item-r0003\" hx-swap-oob=\"delete\"></tr></template>\n"))
        #expect(
            moved.contains("<template><tbody hx-swap-oob=\"afterbegin:#stories\"><tr class=\"row\" id=\"item-r0003\""))
        #expect(moved.components(separatedBy: "<tr class=\"row\"").count == 2, "that row alone")
        #expect(!moved.contains("#columns"), "the header only in a whole state")
        let patches = try await reader.frame().patches
        #expect(patches[0] == Patch(selector: "#item-r0003", mode: "remove", elements: nil))
        #expect(patches[1].selector == "#stories" && patches[1].mode == "prepend")
        #expect(patches[1].elements?.contains("id=\"item-r0003\"") == true)
        #expect(pageEvents.fragmentRenderCount - before == 2, "one row and one badge, for three dialects")
        for client in [feedweb, htmx, datastar] { client.close() }
    }
}
