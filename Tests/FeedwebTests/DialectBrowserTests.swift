import FeedCore
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// A user's own page on the page stream with the real libraries, in headless Chromium
/// against the real binary: htmx 2 and its SSE extension (`dialect=htmx`) on a page
/// served from `--public-dir`, and Datastar v1 (`dialect=datastar`) on a page of another
/// origin. Each shows feedweb's list and a change pushed upstream within 1 s; on another
/// origin, with `--public-origin`, its links open feedweb's pages; with feedweb's
/// `times.js`, its dates are in the viewer's zone and its badge counts. The libraries come from
/// PyPI at test time (``ClientLibraries``).
@Suite(
    .serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn,
    .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
struct DialectBrowserTests {
    /// The repository's root (for `Public/` and `docs/examples/`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The example page `name` of docs/examples.
    static func example(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/examples/" + name), encoding: .utf8)
    }

    /// The page's list as `title|title|…`, the count and the badge's class.
    static let pageState = """
        var titles = Array.from(document.querySelectorAll('#stories > li .story-title'))
          .map(function (e) { return e.textContent.trim(); });
        var status = document.getElementById('status');
        return titles.join('|') + ' / ' + (document.getElementById('count') || {}).textContent
          + ' / ' + (status ? status.className : '');
        """

    /// Records, in the page, when each story title first appears (`window.__shown[title]`,
    /// the browser's `Date.now()`).
    static let watchTitles = """
        window.__shown = {};
        function note() {
          document.querySelectorAll('#stories .story-title').forEach(function (e) {
            var title = e.textContent.trim();
            if (!(title in window.__shown)) window.__shown[title] = Date.now();
          });
        }
        note();
        new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
        return true;
        """

    /// Waits for the page to show stories 5…1, then pushes story 6 on top, an edit of story
    /// 3 and the removal of story 1, and checks they are shown within 1 s of the push.
    static func showsTheListAndAChange(
        _ browser: WebDriver, upstream: LiveFeedUpstream, library: String, log: @autoclosure () -> String
    ) async throws {
        let first = "Story number 5|Story number 4|Story number 3|Story number 2|Story number 1 / 5 stories"
        let shown = try await browser.waitFor(
            "return (function () { \(pageState) })().indexOf('\(first) / badge') === 0", seconds: 10)
        if !shown {
            let state = try await browser.execute(pageState)
            let console = try await browser.consoleMessages().map { "\($0.level): \($0.message)" }
            Issue.record("\(library): the page shows \(state)\nconsole: \(console)\nfeedweb: \(log().suffix(1500))")
            return
        }
        #expect(try await browser.execute(watchTitles) == .bool(true))
        let pushed = Date().timeIntervalSince1970 * 1000
        try await upstream.change([
            Patch.add("/results/0", NewswireFeed.story(6)),
            Patch.replace("/results/3/title", .string("An edited headline")),
            Patch.remove("/results/5"),
        ])
        let changed = try await browser.waitFor(
            """
            return (function () { \(pageState) })().indexOf(
              'Story number 6|Story number 5|Story number 4|An edited headline|Story number 2 / 5 stories / badge') === 0
            """, seconds: 5)
        if !changed {
            Issue.record("\(library): the change is not shown: \(try await browser.execute(pageState))")
            return
        }
        for title in ["Story number 6", "An edited headline"] {
            let at = try await browser.execute("return window.__shown['\(title)']")
            let ms = (at.doubleValue ?? at.int64Value.map(Double.init) ?? .infinity) - pushed
            #expect(ms < 1000, "\(library) showed \(title) \(ms) ms after the push")
        }
        // No error (a script or a style the page's CSP refused, say); the favicon aside.
        let errors = try await browser.consoleMessages().filter {
            $0.level == "SEVERE" && !$0.message.contains("/favicon.ico")
        }
        #expect(errors.isEmpty, "\(library): \(errors.map(\.message))")
    }

    /// On a page of another origin, feedweb started with `--public-origin origin`: no link
    /// or picture of the fragments points at the page's own site, and a story's title opens
    /// feedweb's page of the story.
    static func linksBackToFeedweb(_ browser: WebDriver, origin: String, library: String) async throws {
        let stray = try await browser.execute(
            """
            return Array.from(document.querySelectorAll('#stories a[href], #stories img[src]'))
              .map(function (e) { return e.href || e.src; })
              .filter(function (url) { return url.indexOf(location.origin + '/') === 0; }).join(' ');
            """)
        #expect(stray == .string(""), "\(library): links to the page's own site: \(stray)")
        let link = try await browser.execute("return document.querySelector('#stories .story-title a').href")
        #expect(link.stringValue?.hasPrefix(origin + "/items/") == true, "\(library): the title links to \(link)")
        try await browser.execute("document.querySelector('#stories .story-title a').click(); return true")
        let opened = try await browser.waitFor(
            "return location.origin === '\(origin)' && !!document.getElementById('detail')", seconds: 10)
        #expect(opened, "\(library): the title did not open feedweb's page of the story")
    }

    @Test(
        "htmx 2 and its SSE extension, on a page of --public-dir, show the list and a change within 1 s",
        .enabled(if: ClientLibraries.htmx != nil, "pip could not download django-htmx from PyPI (no network)"))
    func htmx() async throws {
        let htmx = try #require(ClientLibraries.htmx)
        let publicDir = try ScratchDirectory("htmx-public")
        let files = FileManager.default
        for name in try files.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Public").path) {
            try files.copyItem(
                atPath: Self.root.appendingPathComponent("Public/" + name).path, toPath: publicDir.file(name))
        }
        try files.copyItem(at: htmx.htmx, to: publicDir.url.appendingPathComponent("htmx-2.js"))
        try files.copyItem(at: htmx.sse, to: publicDir.url.appendingPathComponent("hx-sse-2.js"))
        try Self.example("htmx.html").write(toFile: publicDir.file("htmx.html"), atomically: true, encoding: .utf8)

        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--public-dir", publicDir.path])
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/static/htmx.html")
            try await Self.showsTheListAndAChange(browser, upstream: upstream, library: "htmx", log: feedweb.log)
        }
    }

    @Test(
        "Datastar v1, on a page of another origin, shows the list and a change within 1 s",
        .enabled(
            if: ClientLibraries.datastar != nil, "pip could not download starhtml (Datastar) from PyPI (no network)"))
    func datastar() async throws {
        let datastar = try String(contentsOf: try #require(ClientLibraries.datastar), encoding: .utf8)
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        // The site first (its origin is what feedweb allows), its page once feedweb listens.
        let page = NIOLockedValueBox("")
        let site = try await Self.datastarSite(datastar, page: page)
        let port = try FreePort.find()
        let feedweb = try await FeedwebProcess(
            arguments: [
                "--listen", "127.0.0.1:\(port)", "--upstream", upstream.url, "--allow-origin", Self.origin(of: site),
                "--public-origin", "http://127.0.0.1:\(port)",
            ], listen: false)
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        // The example page with feedweb's address in its `@get`, on a site of its own.
        let html = try Self.example("datastar.html")
            .replacingOccurrences(of: "@get('/events/page", with: "@get('http://127.0.0.1:\(feedweb.port)/events/page")
            .replacingOccurrences(of: "/static/times.js", with: "http://127.0.0.1:\(feedweb.port)/static/times.js")
        page.withLockedValue { $0 = html }
        defer { Task { await site.shutdown() } }
        try await WebDriver.withSession { browser in
            try await browser.open(site.url("/datastar.html"))
            try await Self.showsTheListAndAChange(browser, upstream: upstream, library: "Datastar", log: feedweb.log)
            try await Self.linksBackToFeedweb(browser, origin: "http://127.0.0.1:\(port)", library: "Datastar")
        }
    }

    /// A site of its own for a Datastar page (which needs `unsafe-eval`, refused by
    /// feedweb's own pages' CSP): `/datastar.js`, and `page` on any other path.
    static func datastarSite(_ datastar: String, page: NIOLockedValueBox<String>) async throws -> ScriptedSSEServer {
        try await ScriptedSSEServer.start { request in
            request.path.hasPrefix("/datastar.js")
                ? .status(200, headers: [("Content-Type", "text/javascript; charset=utf-8")], body: datastar)
                : .status(
                    200, headers: [("Content-Type", "text/html; charset=utf-8")], body: page.withLockedValue { $0 })
        }
    }

    /// The origin of `site` (`http://127.0.0.1:PORT`).
    static func origin(of site: ScriptedSSEServer) -> String {
        "http://127.0.0.1:\(site.port)"
    }

    /// A table page's header and rows as text: `label|label / cell,cell|cell,cell`.
    static let tableText = """
        function texts(cells) {
          return Array.from(cells).map(function (e) { return e.textContent.trim(); }).join(',');
        }
        return texts(document.querySelectorAll('#columns th')).replace(/,/g, '|') + ' / '
          + Array.from(document.querySelectorAll('#stories tr')).map(function (row) { return texts(row.cells); })
            .join('|');
        """

    /// The zone of the viewer of ``tablePageOfYourOwn()``.
    static let viewersZone = TimeZone(identifier: "Asia/Kathmandu") ?? .gmt

    /// The time of day of `moment` (RFC 3339) in ``viewersZone``, as Chromium's `en-US`
    /// writes it with two-digit hours: `08:15`.
    static func timeOfDay(_ moment: String) throws -> String {
        let date = try Date(moment, strategy: .iso8601)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = viewersZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let hour = ((parts.hour ?? 0) + 11) % 12 + 1
        return String(format: "%02d:%02d", hour, parts.minute ?? 0)
    }

    @Test(
        "a table page of your own on another origin, htmx and Datastar with times.js: the table / shows (header, dates in the viewer's zone), a counting badge and a change",
        .enabled(
            if: ClientLibraries.htmx != nil && ClientLibraries.datastar != nil, "needs htmx and Datastar from PyPI"))
    func tablePageOfYourOwn() async throws {
        let htmx = try #require(ClientLibraries.htmx)
        let scripts = [
            "/htmx-2.js": try String(contentsOf: htmx.htmx, encoding: .utf8),
            "/hx-sse-2.js": try String(contentsOf: htmx.sse, encoding: .utf8),
            "/datastar.js": try String(contentsOf: try #require(ClientLibraries.datastar), encoding: .utf8),
        ]
        let listed = ["AAPL": "2024-03-01T14:30:00Z", "MSFT": "2023-11-20T23:50:00Z", "SAP": "2025-07-04T06:05:00Z"]
        let prices = #"""
            {"num_results": 1, "prices": [
             {"symbol": "AAPL", "price": 189.5, "status": "open", "listed": "\#(listed["AAPL"] ?? "")"},
             {"symbol": "MSFT", "price": 402.25, "status": "open", "listed": "\#(listed["MSFT"] ?? "")"},
             {"symbol": "SAP", "price": 171.1, "status": "closed", "listed": "\#(listed["SAP"] ?? "")"}]}
            """#
        let upstream = try await LiveFeedUpstream(document: try JSONValue(parsing: Array(prices.utf8)))
        let page = NIOLockedValueBox("")
        let site = try await ScriptedSSEServer.start { request in
            if let script = scripts[request.path] {
                return .status(200, headers: [("Content-Type", "text/javascript; charset=utf-8")], body: script)
            }
            return .status(
                200, headers: [("Content-Type", "text/html; charset=utf-8")], body: page.withLockedValue { $0 })
        }
        let port = try FreePort.find()
        let feedweb = try await FeedwebProcess(
            arguments: [
                "--listen", "127.0.0.1:\(port)", "--upstream", upstream.url, "--allow-origin", Self.origin(of: site),
                "--public-origin", "http://127.0.0.1:\(port)",
            ], listen: false)
        defer {
            feedweb.kill()
            Task {
                await site.shutdown()
                await upstream.shutdown()
            }
        }
        try await FeedwebProbe.waitUntilReady(port: port)
        // As docs/dialects.md has it: a `<thead>` and a `<tbody>` by id, nothing of the columns,
        // and feedweb's times.js.
        let stream = "http://127.0.0.1:\(port)/events/page?v=list&dialect="
        let times = #"<script src="http://127.0.0.1:\#(port)/static/times.js" defer></script>"#
        let regions = """
            <p id="status">Connecting…</p>
            <h1>Prices <small id="count"></small></h1>
            <p id="problem" hidden></p>
            <table><thead id="columns"></thead><tbody id="stories"></tbody></table>
            """
        let pages = [
            (
                "htmx",
                """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Prices</title>
                <meta name="htmx-config" content='{"includeIndicatorStyles": false}'>
                <script src="/htmx-2.js" defer></script><script src="/hx-sse-2.js" defer></script>\(times)</head><body>
                <main hx-ext="sse" sse-connect="\(stream)htmx" sse-swap="feedweb" hx-swap="none">\(regions)</main>
                </body></html>
                """
            ),
            (
                "Datastar",
                """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Prices</title>
                <script type="module" src="/datastar.js"></script>\(times)</head><body>
                <main data-init="@get('\(stream)datastar', {openWhenHidden: true})">\(regions)</main>
                </body></html>
                """
            ),
        ]
        var price = 189.5
        for (library, html) in pages {
            page.withLockedValue { $0 = html }
            try await WebDriver.withSession { browser in
                // A viewer in Nepal (UTC+5:45), so that a date in the viewer's zone is not the
                // server's.
                _ = try await browser.devTools(
                    "Emulation.setTimezoneOverride", .object(["timezoneId": .string(Self.viewersZone.identifier)]))
                // The table as feedweb's own page shows it, header and rows.
                try await browser.open("http://127.0.0.1:\(port)/")
                let own = try #require(try await browser.execute(Self.tableText).stringValue)
                #expect(own.hasPrefix("Symbol|") && own.contains("AAPL"), "feedweb's own table: \(own)")
                try await browser.open(site.url("/prices.html"))
                let same = try await browser.waitFor(
                    "return (function () { \(Self.tableText) })() === \(JSONValue.string(own).serializedString())",
                    seconds: 10)
                if !same {
                    Issue.record("\(library): \(try await browser.execute(Self.tableText)) against \(own)")
                }
                // Each date at the viewer's time of day, which the server's UTC text is not.
                let table = try #require(try await browser.execute(Self.tableText).stringValue)
                let rows = table.components(separatedBy: " / ").last ?? ""
                for (symbol, moment) in listed {
                    let local = try Self.timeOfDay(moment)
                    let row = rows.split(separator: "|").first { $0.hasPrefix(symbol + ",") } ?? ""
                    #expect(
                        row.contains(local), "\(library): \(symbol) listed \(moment) is not shown at \(local): \(row)")
                }
                // The badge's "updated N s ago" counts with no frame coming.
                let badge = "(document.querySelector('#status time[data-relative]') || {}).textContent"
                let sent = try await browser.execute("return \(badge)")
                let counted = try await browser.waitFor(
                    "var t = \(badge); return t !== \(sent.serializedString()) && /^[1-9][0-9]* s ago$/.test(t)",
                    seconds: 12)
                if !counted {
                    Issue.record(
                        "\(library): the badge stays at \(sent): \(try await browser.execute("return \(badge)"))")
                }
                price += 1
                try await upstream.change([Patch.replace("/prices/0/price", .double(price))])
                // Shown at the column's two decimals (`402.25`'s): `190.50`.
                let shown = String(format: "%.2f", price)
                let changed = try await browser.waitFor(
                    "return (function () { \(Self.tableText) })().indexOf('\(shown)') >= 0", seconds: 5)
                #expect(changed, "\(library): the new price \(shown) is not shown")
                // The changed row, swapped in or morphed, at the viewer's time of day too.
                let after = try #require(try await browser.execute(Self.tableText).stringValue)
                let aapl = try Self.timeOfDay(listed["AAPL"] ?? "")
                #expect(after.contains("AAPL,\(shown),open,") && after.contains(aapl), "\(library): \(after)")
                let errors = try await browser.consoleMessages().filter {
                    $0.level == "SEVERE" && !$0.message.contains("/favicon.ico")
                }
                #expect(errors.isEmpty, "\(library): \(errors.map(\.message))")
            }
        }
    }

    @Test(
        "htmx 2 and its SSE extension on a page of another origin: the list and a change within 1 s with --allow-origin, nothing without",
        .enabled(if: ClientLibraries.htmx != nil, "pip could not download django-htmx from PyPI (no network)"))
    func htmxFromAnotherOrigin() async throws {
        let htmx = try #require(ClientLibraries.htmx)
        let scripts = [
            "/htmx-2.js": try String(contentsOf: htmx.htmx, encoding: .utf8),
            "/hx-sse-2.js": try String(contentsOf: htmx.sse, encoding: .utf8),
        ]
        for allowed in [true, false] {
            let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
            // The example page on a site of its own (whose origin feedweb allows, or not),
            // the stream and its scripts by full URL.
            let page = NIOLockedValueBox("")
            let site = try await ScriptedSSEServer.start { request in
                if let script = scripts[request.path] {
                    return .status(200, headers: [("Content-Type", "text/javascript; charset=utf-8")], body: script)
                }
                return .status(
                    200, headers: [("Content-Type", "text/html; charset=utf-8")], body: page.withLockedValue { $0 })
            }
            let port = try FreePort.find()
            let feedweb = try await FeedwebProcess(
                arguments: ["--listen", "127.0.0.1:\(port)", "--upstream", upstream.url]
                    + (allowed
                        ? ["--allow-origin", Self.origin(of: site), "--public-origin", "http://127.0.0.1:\(port)"]
                        : []),
                listen: false)
            defer { feedweb.kill() }
            try await FeedwebProbe.waitUntilReady(port: feedweb.port)
            let html = try Self.example("htmx.html")
                .replacingOccurrences(of: "/static/htmx-2.js", with: "/htmx-2.js")
                .replacingOccurrences(of: "/static/hx-sse-2.js", with: "/hx-sse-2.js")
                .replacingOccurrences(
                    of: "/static/style.css", with: "http://127.0.0.1:\(feedweb.port)/static/style.css"
                )
                .replacingOccurrences(
                    of: "/static/times.js", with: "http://127.0.0.1:\(feedweb.port)/static/times.js"
                )
                .replacingOccurrences(
                    of: "sse-connect=\"/events/page", with: "sse-connect=\"http://127.0.0.1:\(feedweb.port)/events/page"
                )
            page.withLockedValue { $0 = html }
            try await WebDriver.withSession { browser in
                try await browser.open(site.url("/htmx.html"))
                if allowed {
                    try await Self.showsTheListAndAChange(
                        browser, upstream: upstream, library: "htmx, another origin", log: feedweb.log)
                    try await Self.linksBackToFeedweb(
                        browser, origin: "http://127.0.0.1:\(port)", library: "htmx, another origin")
                } else {
                    // Refused: the browser hides the stream from the page, which shows nothing.
                    let shown = try await browser.waitFor(
                        "return document.querySelectorAll('#stories > li').length > 0", seconds: 3)
                    #expect(!shown, "without --allow-origin the page of another origin shows nothing")
                }
            }
            await site.shutdown()
            await upstream.shutdown()
        }
    }

    /// A page of the user's own with `/inspect`'s parts, on `--public-dir`, live in `dialect`
    /// through `script` (its `<script>` tags) and `stream` (the element that opens the stream).
    static func inspectPage(scripts: String, stream: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>inspect</title>
        <meta name="htmx-config" content='{"includeIndicatorStyles": false}'>
        \(scripts)</head><body>\(stream)
        <div id="inspect-items"></div><div id="inspect-tree"></div><section id="inspect-events"></section>
        <section id="inspect-exchanges"></section><section id="inspect-screens"></section><p id="status"></p>
        </main></body></html>
        """
    }

    @Test(
        "htmx and Datastar pages of /inspect's parts: the tree redrawn line by line and the log row by row stay what /inspect shows",
        .enabled(
            if: ClientLibraries.htmx != nil && ClientLibraries.datastar != nil, "needs htmx and Datastar from PyPI"))
    func inspectParts() async throws {
        let htmx = try #require(ClientLibraries.htmx)
        let datastar = try String(contentsOf: try #require(ClientLibraries.datastar), encoding: .utf8)
        // htmx's page on --public-dir; Datastar's, which needs `unsafe-eval` (refused by
        // feedweb's own pages' CSP), on a site of its own that feedweb allows.
        let publicDir = try ScratchDirectory("dialect-inspect")
        let files = FileManager.default
        try files.copyItem(at: htmx.htmx, to: publicDir.url.appendingPathComponent("htmx-2.js"))
        try files.copyItem(at: htmx.sse, to: publicDir.url.appendingPathComponent("hx-sse-2.js"))
        try Self.inspectPage(
            scripts:
                "<script src=\"/static/htmx-2.js\" defer></script><script src=\"/static/hx-sse-2.js\" defer></script>",
            stream:
                "<main hx-ext=\"sse\" sse-connect=\"/events/page?v=inspect&dialect=htmx\" sse-swap=\"feedweb\" hx-swap=\"none\">"
        ).write(toFile: publicDir.file("htmx-inspect.html"), atomically: true, encoding: .utf8)
        let page = NIOLockedValueBox("")
        let site = try await Self.datastarSite(datastar, page: page)
        defer { Task { await site.shutdown() } }

        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", upstream.url, "--public-dir", publicDir.path, "--allow-origin", Self.origin(of: site),
        ])
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        page.withLockedValue {
            $0 = Self.inspectPage(
                scripts: "<script type=\"module\" src=\"/datastar.js\"></script>",
                stream:
                    "<main data-init=\"@get('http://127.0.0.1:\(feedweb.port)/events/page?v=inspect&dialect=datastar', {openWhenHidden: true})\">"
            )
        }
        let port = feedweb.port
        try await FeedwebProbe.waitUntilReady(port: port)
        // The page's tree read back as JSON, and its log's event ids, newest first.
        let readPage =
            InspectTests.treeReader + """
                var root = document.querySelector('#inspect-tree-root > li');
                var rows = Array.prototype.map.call(
                  document.querySelectorAll('#inspect-events-rows > tr.inspect-event'), function (r) { return r.dataset.id; });
                return JSON.stringify({ tree: root ? read(root) : null, rows: rows.join(' ') });
                """
        for (library, url) in [
            ("htmx", "http://127.0.0.1:\(port)/static/htmx-inspect.html"),
            ("Datastar", site.url("/datastar-inspect.html")),
        ] {
            try await WebDriver.withSession { browser in
                try await browser.open(url)
                #expect(
                    try await browser.waitFor("return !!document.getElementById('inspect-tree-root')", seconds: 10),
                    "\(library): the tree is shown")
                // Each kind of change, the page following each before the next.
                for n in 0..<14 {
                    try await upstream.scriptedChange(n)
                    try await FeedwebProbe.waitForState(upstream.document, port: port)
                    let (_, id) = try await FeedwebProbe.state(port: port)
                    _ = try await browser.waitFor(
                        "return (document.getElementById('inspect-document-id') || {dataset: {}}).dataset.id === '\(id)'",
                        seconds: 5)
                }
                let (document, _) = try await FeedwebProbe.state(port: port)
                let listed = try await InspectTests.eventRows(port: port).map(\.id).joined(separator: " ")
                var shown: JSONValue = .null
                let same: Void? = try? await Eventually.check("\(library)'s page to show the document", within: 5) {
                    let text = try await browser.execute(readPage).stringValue ?? ""
                    shown = try JSONValue(parsing: Array(text.utf8))
                    return shown["tree"] == document && shown["rows"]?.stringValue == listed
                }
                #expect(
                    same != nil,
                    "\(library): the page shows \(shown.serializedString().prefix(600)), /inspect lists \(listed)")
                let errors = try await browser.consoleMessages().filter {
                    $0.level == "SEVERE" && !$0.message.contains("/favicon.ico")
                }
                #expect(errors.isEmpty, "\(library): \(errors.map(\.message))")
            }
        }
    }
}
