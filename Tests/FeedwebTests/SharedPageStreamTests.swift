import FeedCore
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// One page stream per browser, in headless Chromium and headless Firefox: the pages of one browser storage
/// partition — tabs and the iframes of a wall, on feedweb's site or inside another site's
/// page — share one page stream (a leader holds it, the others get its frames through ports
/// and a BroadcastChannel), all stay live past the browser's 6 connections per host, and
/// another page takes over when the leader goes. Each test runs in every installed browser.
@Suite(
    .serialized, .timeLimit(.minutes(4)), .onThreadsOfItsOwn,
    .enabled(if: !BrowserKind.installed.isEmpty, "needs chromium and chromium-driver, or firefox-esr"))
struct SharedPageStreamTests {
    /// One page of the browser: a tab, or an iframe of the wall tab.
    struct Page: CustomStringConvertible {
        let tab: String
        let frame: Int?
        let path: String
        var description: String { frame.map { "wall frame \($0) (\(path))" } ?? "tab \(path)" }
    }

    /// A wall page (served by a second server, on another port) with an iframe of feedweb
    /// for each of `paths`.
    final class Wall: Sendable {
        let server: ScriptedSSEServer
        private let html = NIOLockedValueBox("")

        init() async throws {
            let html = self.html
            server = try await ScriptedSSEServer.start { _ in
                .status(
                    200, headers: [("Content-Type", "text/html; charset=utf-8")], body: html.withLockedValue { $0 })
            }
        }

        var port: UInt16 { UInt16(server.port) }

        func show(_ paths: [String], of feedweb: UInt16) {
            let frames = paths.map { "<iframe src=\"http://127.0.0.1:\(feedweb)\($0)\"></iframe>" }
            html.withLockedValue {
                $0 = """
                    <!doctype html><html><head><title>A wall</title>
                    <style>iframe { width: 420px; height: 260px; border: 0 }</style></head>
                    <body>\(frames.joined(separator: "\n"))</body></html>
                    """
            }
        }
    }

    /// A wall server, and feedweb on a live upstream with stories 5…1, letting the wall frame
    /// its pages.
    static func start() async throws -> (Wall, LiveFeedUpstream, FeedwebProcess) {
        let wall = try await Wall()
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", upstream.url,
            "--frame-ancestors", "self http://localhost:\(wall.port) http://127.0.0.1:\(wall.port)",
        ])
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        return (wall, upstream, feedweb)
    }

    /// Ends what ``start()`` started (for `defer`).
    static func stop(_ wall: Wall, _ upstream: LiveFeedUpstream, _ feedweb: FeedwebProcess) {
        feedweb.kill()
        Task {
            await upstream.shutdown()
            await wall.server.shutdown()
        }
    }

    static func key(of title: String, port: UInt16) async throws -> String {
        let items = try await FeedwebProbe.items(port: port)
        return try #require(items.first { $0["title"]?.stringValue == title }?["key"]?.stringValue)
    }

    /// A gauge from `/metrics`.
    static func metric(_ name: String, port: UInt16) async throws -> Double? {
        try PrometheusText(parsing: try await HTTPTestClient.get(port: port, "/metrics", timeout: 5).text).value(name)
    }

    /// `feedweb_page_streams` and `feedweb_page_stream_views` from `/metrics`.
    static func streams(port: UInt16) async throws -> [Double?] {
        let metrics = try PrometheusText(
            parsing: try await HTTPTestClient.get(port: port, "/metrics", timeout: 5).text)
        return [metrics.value("feedweb_page_streams"), metrics.value("feedweb_page_stream_views")]
    }

    /// Runs `script` in `page`.
    static func run(_ script: String, in page: Page, _ browser: any Browser) async throws -> JSONValue {
        try await browser.switchToWindow(page.tab)
        if let frame = page.frame {
            try await browser.switchToFrame(nil)
            try await browser.switchToFrame(frame)
        }
        return try await browser.execute(script)
    }

    /// Waits until `script` is true in every one of `pages`; the pages where it never was.
    static func waitInAll(_ pages: [Page], _ script: String, seconds: Double, _ browser: any Browser) async throws
        -> [Page]
    {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var left = pages
        while !left.isEmpty, ContinuousClock.now < deadline {
            var still: [Page] = []
            for page in left where try await run(script, in: page, browser) != .bool(true) { still.append(page) }
            left = still
            if !left.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        return left
    }

    /// Opens `paths` in windows of their own, shown side by side (a background tab is
    /// hidden, and a hidden page leaves the stream); returns them as pages.
    static func openWindows(_ paths: [String], port: UInt16, _ browser: any Browser) async throws -> [Page] {
        var pages: [Page] = []
        for path in paths {
            let tab = try await browser.newWindow()
            try await browser.switchToWindow(tab)
            try await browser.open("http://127.0.0.1:\(port)\(path)")
            pages.append(Page(tab: tab, frame: nil, path: path))
        }
        return pages
    }

    /// The page of `pages` that leads (holds the stream), if one does.
    static func leader(among pages: [Page], _ browser: any Browser) async throws -> Page? {
        for page in pages where try await run("return window.feedweb.role()", in: page, browser) == .string("leader") {
            return page
        }
        return nil
    }

    /// The first page of `pages` seen leading with its stream open, looked for over at most
    /// 5 s; `nil` when none took over.
    static func newLeader(among pages: [Page], _ browser: any Browser) async throws -> Page? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(5) {
            for page in pages
            where try await run(
                "return window.feedweb.role() + ' ' + document.body.dataset.streamState", in: page, browser)
                == .string("leader open")
            {
                return page
            }
        }
        return nil
    }

    static let live = "return document.body.dataset.streamState === 'open'"

    /// The frames `page` applied since `since` (ms since 1970), as `(type, id, at)`.
    static func applied(_ page: Page, since: Double, _ browser: any Browser) async throws -> [(
        type: String, id: String, at: Double
    )] {
        let list = try await run("return window.feedweb.applied()", in: page, browser).arrayValue ?? []
        return list.compactMap { entry in
            guard let type = entry["type"]?.stringValue, let id = entry["id"]?.stringValue,
                let at = entry["at"]?.doubleValue ?? entry["at"]?.int64Value.map(Double.init), at >= since
            else { return nil }
            return (type, id, at)
        }
    }

    /// Whether every page but the leader holds a port from it (its frames come through it
    /// as well as on the channel).
    static let direct = "var r = window.feedweb.route(); return r === 'port' || r === 'stream'"

    /// What shows a page has the change of ``wallAndTabs(in:wallHost:)``: the new story on a list
    /// or kiosk, in the `/stats` ticker, and the edited title on each detail.
    static func showsChange(_ path: String, edits: [String: String]) -> String {
        if path.hasPrefix("/items/") {
            let title = edits[String(path.dropFirst("/items/".count))] ?? ""
            return
                "var t = document.querySelector('#detail .detail-title'); return !!t && t.textContent.indexOf('\(title)') >= 0"
        }
        if path.hasPrefix("/stats") {
            return
                "var t = document.getElementById('stats-ticker'); return !!t && t.textContent.indexOf('Story number 6') >= 0"
        }
        return "var s = document.getElementById('stories'); return !!s && s.textContent.indexOf('Story number 6') >= 0"
    }

    @Test(
        "a wall of 9 iframes and 3 more windows: every page live, a change shown everywhere within 1 s, one page stream per partition, a 13th page (a tab) loads in < 1 s",
        arguments: BrowserKind.installed, ["localhost", "127.0.0.1"])
    func wallAndTabs(in kind: BrowserKind, wallHost: String) async throws {
        let (wall, upstream, feedweb) = try await Self.start()
        defer { Self.stop(wall, upstream, feedweb) }
        let port = feedweb.port
        let three = try await Self.key(of: "Story number 3", port: port)
        let one = try await Self.key(of: "Story number 1", port: port)
        let framed = [
            "/", "/kiosk", "/stats", "/items/\(three)", "/items/\(one)", "/", "/kiosk", "/items/\(three)", "/stats",
        ]
        wall.show(framed, of: port)
        try await kind.withSession(windowWidth: 1400, windowHeight: 1000) { browser in
            let wallTab = try await browser.currentWindow()
            try await browser.open("http://\(wallHost):\(wall.port)/")
            var pages = framed.indices.map { Page(tab: wallTab, frame: $0, path: framed[$0]) }
            pages += try await Self.openWindows(["/", "/", "/"], port: port, browser)
            let notLive = try await Self.waitInAll(pages, Self.live, seconds: 10, browser)
            #expect(notLive.isEmpty, "not live: \(notLive)")
            let expectedStreams: Double = wallHost == "localhost" ? 2 : 1
            try await Eventually.check("one page stream per partition (\(expectedStreams))", within: 5) {
                try await Self.metric("feedweb_page_streams", port: port) == expectedStreams
            }
            // Each leader's frames reach the other pages of its partition through ports.
            let onChannel = try await Self.waitInAll(pages, Self.direct, seconds: 5, browser)
            #expect(onChannel.isEmpty, "without a port from the leader: \(onChannel)")

            // One change upstream, shown by every page within 1 s of reaching feedweb.
            let edits = [three: "Three, revised", one: "One, revised"]
            let pushed = Date().timeIntervalSince1970 * 1000
            try await upstream.change([
                Patch.replace("/results/2/title", .string("Three, revised")),
                Patch.replace("/results/4/title", .string("One, revised")),
                Patch.add("/results/0", NewswireFeed.story(6)),
            ])
            var unchanged: [Page] = []
            for page in pages {
                let left = try await Self.waitInAll(
                    [page], Self.showsChange(page.path, edits: edits), seconds: 5, browser)
                unchanged += left
            }
            #expect(unchanged.isEmpty, "not showing the change: \(unchanged)")
            for page in pages {
                let frames = try await Self.applied(page, since: pushed, browser).filter { $0.type != "status" }
                let first = try #require(frames.first, "\(page) applied no frame")
                #expect(first.at - pushed < 1000, "\(page) showed it after \(first.at - pushed) ms")
            }
            #expect(try await Self.metric("feedweb_page_streams", port: port) == expectedStreams)

            // A 13th page: its HTML comes at once (the pool of 6 connections is not held
            // by streams).
            let extra = try await browser.newTab()
            try await browser.switchToWindow(extra)
            let asked = ContinuousClock.now
            try await browser.open("http://127.0.0.1:\(port)/")
            let loaded = (ContinuousClock.now - asked).timeInterval
            let response = try await browser.execute(
                "var n = performance.getEntriesByType('navigation')[0]; return n.responseEnd - n.startTime")
            let responseMilliseconds = response.doubleValue ?? response.int64Value.map(Double.init) ?? 99_999
            #expect(responseMilliseconds < 1000, "the 13th tab's HTML took \(responseMilliseconds) ms")
            #expect(loaded < 3, "the 13th tab loaded in \(loaded) s")
            #expect(try await browser.waitFor(Self.live, seconds: 5), "the 13th tab is live too")
        }
    }

    /// Whether the frames a page applied are in order with none twice: every content frame's
    /// id after the one before.
    static func inOrder(_ frames: [(type: String, id: String, at: Double)]) -> Bool {
        var last: EventID?
        for frame in frames where frame.type == "items" || frame.type == "item" || frame.type == "gone" {
            guard let id = EventID(parsing: frame.id) else { return false }
            if let last, id.epoch == last.epoch, id.seq <= last.seq { return false }
            last = id
        }
        return true
    }

    /// How the leader leaves in ``takeover(in:_:)``.
    enum Departure: String, CaseIterable, CustomTestStringConvertible {
        case closed, crashed
        var testDescription: String { self == .closed ? "the leading tab closed" : "the leader's renderer killed" }
    }

    @Test(
        "when the leader goes, another page takes over within 2 s and shows the next 10 changes in order, none lost or doubled",
        arguments: BrowserKind.installed, Departure.allCases)
    func takeover(in kind: BrowserKind, _ departure: Departure) async throws {
        let (wall, upstream, feedweb) = try await Self.start()
        defer { Self.stop(wall, upstream, feedweb) }
        let port = feedweb.port
        let three = try await Self.key(of: "Story number 3", port: port)
        try await kind.withSession { browser in
            let pages = try await Self.openWindows(
                ["/", "/kiosk", "/", "/items/\(three)", "/stats"], port: port, browser)
            #expect(try await Self.waitInAll(pages, Self.live, seconds: 10, browser).isEmpty)
            try await Eventually.check("one page stream", within: 5) {
                try await Self.metric("feedweb_page_streams", port: port) == 1
            }
            let gone = try #require(try await Self.leader(among: pages, browser), "a leader among the pages")
            let others = pages.filter { $0.tab != gone.tab }
            try await browser.switchToWindow(gone.tab)
            let left = ContinuousClock.now
            switch departure {
            case .closed: try await browser.closeWindow()
            case .crashed: try await browser.crashPage()
            }
            // A new leader with an open stream.
            _ = try #require(try await Self.newLeader(among: others, browser), "no page took over")
            let takeover = (ContinuousClock.now - left).timeInterval
            #expect(takeover <= 2, "takeover took \(takeover) s")

            // The next 10 changes, a new story each.
            let since = Date().timeIntervalSince1970 * 1000
            for story in 10..<20 {
                try await upstream.change([Patch.add("/results/0", NewswireFeed.story(story))])
                try await Task.sleep(for: .milliseconds(150))
            }
            let lists = others.filter { $0.path == "/" }
            let listShowsAll = """
                var titles = Array.from(document.querySelectorAll('#stories > li .story-title')).map(function (t) { return t.textContent; });
                var wanted = []; for (var n = 19; n >= 10; n--) wanted.push('Story number ' + n);
                return titles.slice(0, 10).join('|') === wanted.join('|')
                  && new Set(titles).size === titles.length;
                """
            #expect(
                try await Self.waitInAll(lists, listShowsAll, seconds: 5, browser).isEmpty,
                "lists show all 10, in order, once")
            let kiosks = others.filter { $0.path == "/kiosk" }
            #expect(
                try await Self.waitInAll(
                    kiosks,
                    "var f = document.querySelector('#stories > li'); return !!f && f.textContent.indexOf('Story number 19') >= 0",
                    seconds: 5, browser
                ).isEmpty)
            for page in others {
                let frames = try await Self.applied(page, since: since, browser)
                #expect(Self.inOrder(frames), "\(page): \(frames.map { "\($0.type) \($0.id)" })")
            }
            #expect(try await Self.waitInAll(others, Self.live, seconds: 5, browser).isEmpty)
            // The new leader's frames, too, come through ports of their own.
            #expect(try await Self.waitInAll(others, Self.direct, seconds: 5, browser).isEmpty)
        }
    }

    @Test(
        "the wall clock set back an hour: the next leader is followed by every page, none steals its lock",
        arguments: BrowserKind.installed)
    func clockSetBack(in kind: BrowserKind) async throws {
        let (wall, upstream, feedweb) = try await Self.start()
        defer { Self.stop(wall, upstream, feedweb) }
        let port = feedweb.port
        try await kind.withSession { browser in
            let pages = try await Self.openWindows(["/", "/", "/kiosk"], port: port, browser)
            #expect(try await Self.waitInAll(pages, Self.live, seconds: 10, browser).isEmpty)
            let gone = try #require(try await Self.leader(among: pages, browser), "a leader among the pages")
            let others = pages.filter { $0.tab != gone.tab }
            // The followers heard the leader's term; now every page's wall clock goes back an
            // hour, as NTP or a person setting a kiosk's clock does, and the leader leaves.
            // (Firefox runs a test's script in a sandbox: the page's own `Date` is behind
            // `wrappedJSObject` there.)
            let setBack = """
                var page = window.wrappedJSObject || window;
                var real = page.Date.now.bind(page.Date);
                page.Date.now = function () { return real() - 3600000; };
                return page.Date.now() < real() - 3000000;
                """
            for page in pages {
                #expect(try await Self.run(setBack, in: page, browser) == .bool(true), "\(page)'s clock set back")
            }
            try await browser.switchToWindow(gone.tab)
            try await browser.closeWindow()
            let newLeader = try #require(try await Self.newLeader(among: others, browser), "no page took over")
            // The same leader for 3 s: a follower that ignored its beats would ping it after
            // 1 s of silence and steal its lock 0.3–0.5 s later.
            let watched = ContinuousClock.now
            var roles: [String] = []
            while ContinuousClock.now - watched < .seconds(3) {
                roles = []
                for page in others {
                    roles.append(
                        try await Self.run("return window.feedweb.role()", in: page, browser).stringValue ?? "?")
                }
                let leaders = zip(others, roles).filter { $0.1 == "leader" }.map(\.0.tab)
                #expect(leaders == [newLeader.tab], "leaders \(leaders), roles \(roles)")
                if leaders != [newLeader.tab] { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            // And the next change reaches every page through it.
            try await upstream.change([Patch.add("/results/0", NewswireFeed.story(6))])
            let shown =
                "var s = document.getElementById('stories'); return !!s && s.textContent.indexOf('Story number 6') >= 0"
            #expect(try await Self.waitInAll(others, shown, seconds: 5, browser).isEmpty)
            #expect(try await Self.waitInAll(others, Self.live, seconds: 5, browser).isEmpty)
        }
    }

    /// Makes `page` believe it is hidden (`true`), as a background tab is, or shown again,
    /// and tells it.
    static func setHidden(_ hidden: Bool, _ page: Page, _ browser: any Browser) async throws {
        let script =
            hidden
            ? """
            Object.defineProperty(document, 'hidden', {value: true, configurable: true});
            Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
            document.dispatchEvent(new Event('visibilitychange')); return true;
            """
            : """
            delete document.hidden; delete document.visibilityState;
            document.dispatchEvent(new Event('visibilitychange')); return true;
            """
        _ = try await run(script, in: page, browser)
    }

    @Test(
        "hidden pages leave the stream, which closes when every page is hidden; a kiosk keeps it",
        arguments: BrowserKind.installed)
    func hiddenPagesLeave(in kind: BrowserKind) async throws {
        let (wall, upstream, feedweb) = try await Self.start()
        defer { Self.stop(wall, upstream, feedweb) }
        let port = feedweb.port
        let two = try await Self.key(of: "Story number 2", port: port)
        try await kind.withSession { browser in
            let pages = try await Self.openWindows(["/", "/items/\(two)"], port: port, browser)
            #expect(try await Self.waitInAll(pages, Self.live, seconds: 10, browser).isEmpty)
            try await Eventually.check("one stream, two views", within: 5) {
                try await Self.streams(port: port) == [1, 2]
            }
            try await Self.setHidden(true, pages[0], browser)
            try await Eventually.check("the hidden page's view leaves", within: 5) {
                try await Self.streams(port: port) == [1, 1]
            }
            try await Self.setHidden(true, pages[1], browser)
            try await Eventually.check("no stream when every page is hidden", within: 5) {
                try await Self.streams(port: port) == [0, 0]
            }
            try await Self.setHidden(false, pages[0], browser)
            try await Eventually.check("back when a page is shown", within: 5) {
                try await Self.streams(port: port) == [1, 1]
            }
            #expect(try await Self.waitInAll([pages[0]], Self.live, seconds: 5, browser).isEmpty)
            let kiosk = try await Self.openWindows(["/kiosk"], port: port, browser)
            #expect(try await Self.waitInAll(kiosk, Self.live, seconds: 5, browser).isEmpty)
            try await Self.setHidden(true, pages[0], browser)
            try await Self.setHidden(true, kiosk[0], browser)
            try await Eventually.check("a hidden kiosk stays in", within: 5) {
                try await Self.streams(port: port) == [1, 1]
            }
        }
    }

    @Test(
        "a page opened on an item while others run gets that item's updates; closing it stops them",
        arguments: BrowserKind.installed)
    func itemPageJoinsAndLeaves(in kind: BrowserKind) async throws {
        let (wall, upstream, feedweb) = try await Self.start()
        defer { Self.stop(wall, upstream, feedweb) }
        let port = feedweb.port
        let two = try await Self.key(of: "Story number 2", port: port)
        try await kind.withSession { browser in
            let lists = try await Self.openWindows(["/", "/kiosk"], port: port, browser)
            #expect(try await Self.waitInAll(lists, Self.live, seconds: 10, browser).isEmpty)
            try await Eventually.check("two views on one stream", within: 5) {
                try await Self.streams(port: port) == [1, 2]
            }
            let item = try await Self.openWindows(["/items/\(two)"], port: port, browser)
            #expect(try await Self.waitInAll(item, Self.live, seconds: 10, browser).isEmpty)
            try await Eventually.check("the item's view joins the stream", within: 5) {
                try await Self.streams(port: port) == [1, 3]
            }
            try await upstream.change([Patch.replace("/results/3/title", .string("Two, revised"))])
            #expect(
                try await Self.waitInAll(
                    item,
                    "return document.querySelector('#detail .detail-title').textContent.indexOf('Two, revised') >= 0",
                    seconds: 3, browser
                ).isEmpty, "the item page shows its update")

            try await browser.switchToWindow(item[0].tab)
            try await browser.closeWindow()
            try await Eventually.check("the item's view leaves the stream", within: 5) {
                try await Self.streams(port: port) == [1, 2]
            }
            #expect(try await Self.waitInAll(lists, Self.live, seconds: 5, browser).isEmpty)
        }
    }
}
