import FeedCore
import Foundation
import TestSupport
import Testing

/// A web app on another origin reading feedweb from headless Chromium: its page (served by
/// a server of the test's on another port, so another origin) `fetch`es `/api/items`, opens
/// an `EventSource` on `/events`, and makes a `fetch` that needs a preflight (it sends
/// `Last-Event-ID`). With `--allow-origin` naming that origin all three work, the page shows
/// the items, receives a patch and reads the exposed `ETag`; without it the browser refuses
/// all three. feedweb is the real binary on a live upstream.
@Suite(
    .serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn,
    .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
struct CrossOriginBrowserTests {
    /// The app's page: feedweb's port comes in the query (`?feedweb=PORT`). What the page
    /// saw is in `window.seen`, and the items it shows are in `#items`.
    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>another origin</title></head>
        <body><ul id="items"></ul>
        <script>
        var feedweb = 'http://127.0.0.1:' + new URLSearchParams(location.search).get('feedweb');
        window.seen = {fetch: 'pending', preflighted: 'pending', etag: null, stream: 'connecting', data: 0, patches: []};
        fetch(feedweb + '/api/items').then(function (response) { return response.json(); }).then(function (items) {
          items.forEach(function (item) {
            var li = document.createElement('li');
            li.textContent = item.title;
            document.getElementById('items').appendChild(li);
          });
          window.seen.fetch = 'ok';
        }).catch(function (error) { window.seen.fetch = 'rejected: ' + error; });
        fetch(feedweb + '/api/state', {headers: {'Last-Event-ID': 'none'}}).then(function (response) {
          window.seen.etag = response.headers.get('ETag');
          window.seen.preflighted = 'ok';
        }).catch(function (error) { window.seen.preflighted = 'rejected: ' + error; });
        var source = new EventSource(feedweb + '/events');
        source.addEventListener('data', function () { window.seen.stream = 'open'; window.seen.data += 1; });
        source.addEventListener('patch', function (event) { window.seen.patches.push(event.data); });
        source.onerror = function () {
          if (source.readyState === EventSource.CLOSED) window.seen.stream = 'failed';
        };
        </script></body></html>
        """

    /// A server for the page on a free port of its own: another origin than feedweb's.
    static func pageServer() async throws -> ScriptedSSEServer {
        try await ScriptedSSEServer.start { _ in
            .status(200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Self.page)
        }
    }

    /// The page of `pages` opened in a new browser, on feedweb at `port`; `body` gets the browser.
    static func withPage<T>(
        _ pages: ScriptedSSEServer, feedweb port: UInt16, _ body: (WebDriver) async throws -> T
    ) async throws -> T {
        try await WebDriver.withSession { browser in
            try await browser.open(pages.url("/app?feedweb=\(port)"))
            return try await body(browser)
        }
    }

    @Test("with --allow-origin, a page on another origin fetches the items, reads the ETag and gets the patches")
    func allowedOriginReadsTheAPIAndTheStream() async throws {
        let pages = try await Self.pageServer()
        let pageOrigin = pages.url("")  // http://127.0.0.1:PORT
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--allow-origin", pageOrigin])
        defer { feedweb.kill() }
        let titles =
            try JSONValue(parsing: try await HTTPTestClient.get(port: feedweb.port, "/api/items").body)
            .arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
        let etag = try #require(try await HTTPTestClient.get(port: feedweb.port, "/api/state").headers["etag"])
        #expect(titles.count == 5)

        try await Self.withPage(pages, feedweb: feedweb.port) { browser in
            let shown = try await browser.waitFor(
                "return window.seen && window.seen.fetch === 'ok' && window.seen.stream === 'open'", seconds: 10)
            let seen = try await browser.execute("return JSON.stringify(window.seen)")
            #expect(shown, "page saw: \(seen)\nlog: \(feedweb.log.suffix(800))")
            let listed = try await browser.execute(
                "return Array.from(document.querySelectorAll('#items li')).map(function (li) { return li.textContent; })"
            )
            #expect(listed == .array(titles.map { .string($0) }), "the page shows feedweb's items")
            let preflighted = try await browser.waitFor("return window.seen.preflighted === 'ok'", seconds: 5)
            let preflight = try await browser.execute("return window.seen.preflighted")
            #expect(preflighted, "a fetch that needs a preflight: \(preflight)")
            #expect(try await browser.execute("return window.seen.etag") == .string(etag), "ETag is exposed")

            let title = "A story for another origin"
            try await upstream.change([Patch.replace("/results/0/title", .string(title))])
            let patched = try await browser.waitFor(
                "return window.seen.patches.some(function (p) { return p.indexOf('\(title)') >= 0; })", seconds: 5)
            let after = try await browser.execute("return JSON.stringify(window.seen)")
            #expect(patched, "the page got the patch: \(after)")
        }
        await upstream.shutdown()
        await pages.shutdown()
    }

    @Test("without --allow-origin, the browser refuses the page both the fetch and the stream")
    func otherOriginRefusedByDefault() async throws {
        let pages = try await Self.pageServer()
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        try await Self.withPage(pages, feedweb: feedweb.port) { browser in
            let failed = try await browser.waitFor(
                """
                return window.seen && window.seen.fetch.indexOf('rejected') === 0
                  && window.seen.preflighted.indexOf('rejected') === 0 && window.seen.stream === 'failed';
                """, seconds: 10)
            let seen = try await browser.execute("return JSON.stringify(window.seen)")
            #expect(failed, "page saw: \(seen)")
            #expect(try await browser.execute("return document.querySelectorAll('#items li').length") == .int(0))
            #expect(try await browser.execute("return window.seen.data") == .int(0), "no event reached the page")
            // The page is live and feedweb served the requests: it is the browser that refused them.
            #expect(try await browser.execute("return document.title") == .string("another origin"))
        }
        let items = try await HTTPTestClient.get(
            port: feedweb.port, "/api/items", headers: ["Origin": "http://x.example"])
        #expect(items.status == 200)
        #expect(items.headers["access-control-allow-origin"] == nil)
        await upstream.shutdown()
        await pages.shutdown()
    }
}
