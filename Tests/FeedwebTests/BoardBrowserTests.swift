import FeedCore
import Foundation
import TestSupport
import Testing

/// Boards in headless Chromium on the real binary: a board of several views on one page
/// and one page stream, each cell live; rotation without reloads or reconnects; a marked
/// item full screen (attention); the shift and the dim at the times of an injected clock.
@Suite(
    .serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn,
    .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
struct BoardBrowserTests {
    /// A live upstream with stories 5…1 (story 4 is the one in World) and feedweb on it.
    static func start(_ arguments: [String] = []) async throws -> (LiveFeedUpstream, FeedwebProcess) {
        try await LiveFeedUpstream.withFeedweb(arguments)
    }

    static func metric(_ name: String, port: UInt16) async throws -> Double? {
        try PrometheusText(parsing: try await HTTPTestClient.get(port: port, "/metrics", timeout: 5).text).value(name)
    }

    static func key(of title: String, port: UInt16) async throws -> String {
        let items = try await FeedwebProbe.items(port: port)
        return try #require(items.first { $0["title"]?.stringValue == title }?["key"]?.stringValue)
    }

    /// JavaScript: `cell(VIEW)`, the shadow root of the cell showing VIEW.
    static let cell = """
        function cell(view) {
          var el = document.querySelector('.bd-cell[data-view="' + view + '"]');
          return el && el.shadowRoot;
        }
        """

    /// The milliseconds from `pushed` to the first content frame of `view` the page applied
    /// after it, or -1 when none.
    static func delay(of view: String, after pushed: Double, in browser: WebDriver) async throws -> Double {
        let value = try await browser.execute(
            """
            var frames = window.feedweb.applied().filter(function (f) {
              return f.view === \(JSONValue.string(view).serializedString()) && f.at >= \(pushed)
                && (f.type === 'items' || f.type === 'item' || f.type === 'stats');
            });
            return frames.length ? frames[0].at - \(pushed) : -1;
            """)
        return value.doubleValue ?? -1
    }

    @Test func aTwoByTwoBoardKeepsEveryCellLiveOnOneStream() async throws {
        let (upstream, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        let second = try await Self.key(of: "Story number 2", port: feedweb.port)
        let views = ["kiosk:World", "stats", "list", "item:" + second]
        let query = views.map { "v=" + $0 }.joined(separator: "&")
        try await WebDriver.withSession(windowWidth: 1920, windowHeight: 1080) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?\(query)&cols=2")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            let cells = try await browser.execute(
                """
                return Array.from(document.querySelectorAll('.bd-cell')).map(function (el) {
                  var r = el.getBoundingClientRect();
                  var quarter = Math.abs(r.width - innerWidth / 2) <= 4 && Math.abs(r.height - innerHeight / 2) <= 4;
                  return el.dataset.view + (el.shadowRoot ? ':shadow' : ':none') + (quarter ? ':quarter' : ':' + r.width + 'x' + r.height);
                }).join(' | ');
                """)
            let shown = cells.stringValue ?? ""
            #expect(shown.components(separatedBy: " | ").map { $0.components(separatedBy: ":shadow")[0] } == views)
            #expect(!shown.contains(":none"), "each cell is a shadow root: \(shown)")
            // Four cells in two columns fill the 1080p screen: each a quarter of it.
            #expect(shown.components(separatedBy: " | ").allSatisfy { $0.hasSuffix(":quarter") }, "\(shown)")
            #expect(try await Self.metric("feedweb_page_streams", port: feedweb.port) == 1)
            #expect(try await Self.metric("feedweb_page_stream_views", port: feedweb.port) == 4)

            let pushed = try await browser.execute("return Date.now()").doubleValue ?? 0
            // Story 2 is at index 3 before the new story goes on top.
            try await upstream.change([
                Patch.replace("/results/3/title", .string("A corrected headline")),
                Patch.add("/results/0", NewswireFeed.story(8, section: "World", title: "Board news")),
            ])
            let live = try await browser.waitFor(
                """
                \(Self.cell)
                var kiosk = cell('kiosk:World').getElementById('stories');
                var list = cell('list').querySelector('#stories > li .story-title');
                var ticker = cell('stats').getElementById('stats-ticker');
                var detail = cell('item:\(second)').querySelector('#detail .detail-title');
                return !!kiosk && kiosk.textContent.indexOf('Board news') >= 0
                  && !!list && list.textContent === 'Board news'
                  && !!ticker && ticker.textContent.indexOf('Board news') >= 0
                  && !!detail && detail.textContent === 'A corrected headline';
                """, seconds: 3)
            #expect(live, "every cell shows the change")
            for view in views {
                let delay = try await Self.delay(of: view, after: pushed, in: browser)
                #expect(delay >= 0 && delay <= 1000, "\(view): the change in its cell after \(delay) ms")
            }
            #expect(try await browser.execute("return window.feedweb.opened()") == .int(1))
            #expect(try await Self.metric("feedweb_page_streams", port: feedweb.port) == 1)
            let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
            #expect(severe.isEmpty, "console errors: \(severe)")
        }
        await upstream.shutdown()
    }

    @Test func aBoardBesideAnotherPageSharesThePartitionsOneStream() async throws {
        let (upstream, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        try await WebDriver.withSession { browser in
            // A kiosk first (it leads, hidden or not), then the board in another tab: the
            // kiosk's stream must carry the board's views for it.
            try await browser.open("http://127.0.0.1:\(feedweb.port)/kiosk")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            let kiosk = try await browser.currentWindow()
            let tab = try await browser.newWindow(type: "tab")
            try await browser.switchToWindow(tab)
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=kiosk:World&v=stats")
            #expect(try await browser.waitFor("return window.feedweb.role() === 'follower'", seconds: 5))
            // kiosk, kiosk:World and stats on the one stream.
            let carried = try await Eventually.value("the stream to carry the board's views", within: 5) {
                () async throws -> Bool? in
                let streams = try await Self.metric("feedweb_page_streams", port: feedweb.port)
                let views = try await Self.metric("feedweb_page_stream_views", port: feedweb.port)
                return streams == 1 && views == 3 ? true : nil
            }
            #expect(carried)
            try await upstream.change([
                Patch.add("/results/0", NewswireFeed.story(8, section: "World", title: "Shared news"))
            ])
            #expect(
                try await browser.waitFor(
                    """
                    \(Self.cell)
                    var kiosk = cell('kiosk:World').getElementById('stories');
                    var ticker = cell('stats').getElementById('stats-ticker');
                    return !!kiosk && kiosk.textContent.indexOf('Shared news') >= 0
                      && !!ticker && ticker.textContent.indexOf('Shared news') >= 0;
                    """, seconds: 3), "the board's cells are live through the shared stream")
            try await browser.switchToWindow(kiosk)
            #expect(try await browser.execute("return window.feedweb.role()") == .string("leader"))
            #expect(
                try await browser.waitFor(
                    "var t = document.querySelector('#stories .board-title'); return !!t && t.textContent === 'Shared news'",
                    seconds: 3))
            #expect(try await Self.metric("feedweb_page_streams", port: feedweb.port) == 1)
        }
        await upstream.shutdown()
    }

    @Test func aBoardReloadsOnceWhenTheStaticFilesChange() async throws {
        // feedweb serving a copy of Public/, which the test changes.
        let scratch = try ScratchDirectory("board-reload")
        let folder = URL(fileURLWithPath: scratch.path).appendingPathComponent("Public")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: InProcessFeedweb.publicDirectory), to: folder)
        let (upstream, feedweb) = try await Self.start(["--public-dir", folder.path])
        defer { feedweb.kill() }
        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=list&v=kiosk&rotate=2,2")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            try await browser.execute("window.__boardMarker = 'before'; return true")
            let css = folder.appendingPathComponent("board.css")
            let text = try String(contentsOf: css, encoding: .utf8)
            try (text + "\n/* a new version */\n").write(to: css, atomically: true, encoding: .utf8)
            // The watcher looks every 2 s; the board reloads itself, to the new version.
            #expect(
                try await browser.waitFor(
                    """
                    return window.__boardMarker === undefined && document.body.dataset.streamState === 'open'
                      && !!window.feedwebBoard;
                    """, seconds: 10))
            try await browser.execute("window.__boardMarker = 'after'; return true")
            // Once: nothing changed since, so it stays.
            try await Task.sleep(for: .seconds(5))
            #expect(try await browser.execute("return window.__boardMarker") == .string("after"), "no second reload")
        }
        await upstream.shutdown()
    }

    @Test func aBoardCutOffKeepsItsContentStaleAndReloadsOnceANewFeedwebAnswers() async throws {
        let scratch = try ScratchDirectory("board-deploy")
        let folder = URL(fileURLWithPath: scratch.path).appendingPathComponent("Public")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: InProcessFeedweb.publicDirectory), to: folder)
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        let arguments = ["--upstream", upstream.url, "--public-dir", folder.path]
        let first = try await FeedwebProcess(arguments: arguments)
        defer { first.kill() }
        let port = first.port
        try await FeedwebProbe.waitUntilReady(port: port)
        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(port)/board?v=list&v=kiosk")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            try await browser.execute("window.__boardMarker = 'before'; return true")
            _ = await first.stop()
            // Cut off: the last content stays, under a stale banner, and no reload.
            let stale = try await browser.waitFor(
                """
                \(Self.cell)
                var label = document.querySelector('#status .badge-label');
                return window.__boardMarker === 'before' && !!label && label.textContent.indexOf('Stale since') === 0
                  && document.getElementById('status').className.indexOf('board-status-stale') >= 0
                  && cell('list').querySelectorAll('#stories > li').length === 5;
                """, seconds: 16)
            #expect(stale, "the board keeps its cells under a stale banner")
            // A deploy: new static files, feedweb again on the same port.
            let css = folder.appendingPathComponent("board.css")
            let text = try String(contentsOf: css, encoding: .utf8)
            try (text + "\n/* the next version */\n").write(to: css, atomically: true, encoding: .utf8)
            let second = try await FeedwebProcess(
                arguments: ["--listen", "127.0.0.1:\(port)"] + arguments, listen: false)
            defer { second.kill() }
            #expect(
                try await browser.waitFor(
                    "return window.__boardMarker === undefined && document.body.dataset.streamState === 'open'",
                    seconds: 40), "the board reloads once feedweb answers")
            try await browser.execute("window.__boardMarker = 'after'; return true")
            try await Task.sleep(for: .seconds(3))
            #expect(try await browser.execute("return window.__boardMarker") == .string("after"), "once")
        }
        await upstream.shutdown()
    }

    @Test func rotationShowsEachViewForItsSecondsOnOneStream() async throws {
        let (upstream, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        let times = [2, 1, 1]
        try await WebDriver.withSession { browser in
            try await browser.open(
                "http://127.0.0.1:\(feedweb.port)/board?v=list&v=stats&v=kiosk&screen=lobby&rotate="
                    + times.map(String.init).joined(separator: ","))
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            // While the list is hidden, a new story: it is there when the list comes back.
            #expect(
                try await browser.waitFor("return window.feedwebBoard.state().current === 'stats'", seconds: 4))
            try await upstream.change([Patch.add("/results/0", NewswireFeed.story(9, title: "While hidden"))])
            #expect(
                try await browser.waitFor(
                    """
                    \(Self.cell)
                    var first = cell('list').querySelector('#stories > li .story-title');
                    return window.feedwebBoard.state().current !== 'list' && !!first
                      && first.textContent === 'While hidden';
                    """, seconds: 1.5), "the hidden list took the change")
            var streams: Set<Double?> = []
            var viewCounts: Set<Double?> = []
            let steps = 7
            let done = try await Eventually.value(
                "the board to rotate \(steps) times", within: Double(times.reduce(0, +) * 3 + 4),
                poll: .milliseconds(200)
            ) { () async throws -> Bool? in
                streams.insert(try await Self.metric("feedweb_page_streams", port: feedweb.port))
                viewCounts.insert(try await Self.metric("feedweb_page_stream_views", port: feedweb.port))
                let count = try await browser.execute("return window.feedwebBoard.state().shown.length")
                return (count.int64Value ?? 0) >= steps ? true : nil
            }
            #expect(done)
            #expect(streams == [1], "one page stream all along")
            #expect(viewCounts == [3], "every view stays in the stream")
            #expect(try await browser.execute("return window.feedweb.opened()") == .int(1), "no reconnect")
            let shown = try await browser.execute(
                "return window.feedwebBoard.state().shown.map(function (s) { return s.index + ':' + s.at; }).join(' ')")
            let entries = (shown.stringValue ?? "").split(separator: " ").map { entry in
                let parts = entry.split(separator: ":")
                return (index: Int(parts[0]) ?? -1, at: Double(parts[1]) ?? 0)
            }
            #expect(Array(entries.map(\.index).prefix(steps)) == [0, 1, 2, 0, 1, 2, 0])
            for (this, next) in zip(entries, entries.dropFirst()) {
                let expected = Double(times[this.index]) * 1000
                #expect(
                    abs(next.at - this.at - expected) <= 500,
                    "cell \(this.index) shown \(next.at - this.at) ms, not \(expected) ms ± 500")
            }
            // Only the current cell is visible; the others are laid out and hidden.
            let visibility = try await browser.execute(
                """
                return Array.from(document.querySelectorAll('.bd-cell')).map(function (el) {
                  return el.dataset.view + '=' + getComputedStyle(el).visibility;
                }).join(' ') + ' current=' + window.feedwebBoard.state().current;
                """)
            let text = visibility.stringValue ?? ""
            let current = text.components(separatedBy: " current=").last ?? ""
            #expect(text.components(separatedBy: "=visible").count == 2, "\(text)")
            #expect(text.contains(current + "=visible"), "\(text)")

            // /inspect lists what the screen named lobby showed: the board's own steps.
            let views = try await browser.execute(
                "return window.feedwebBoard.state().shown.map(function (s) { return 'view=' + s.view; }).join('|')")
            let boardSteps = (views.stringValue ?? "").split(separator: "|").map(String.init)
            let listed = try await Eventually.value("/inspect to list lobby's steps", within: 3) {
                () async throws -> [String]? in
                let page = try await HTTPTestClient.get(port: feedweb.port, "/inspect")
                let entries = InspectShowings.parse(page.text)["lobby"] ?? []
                return entries.count >= boardSteps.count ? entries : nil
            }
            // Newest first; the board may have stepped on since it was asked.
            #expect(listed.reversed().starts(with: boardSteps), "\(listed) against \(boardSteps)")
            let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
            #expect(severe.isEmpty, "console errors: \(severe)")
        }
        await upstream.shutdown()
    }

    @Test func aMarkedItemIsShownFullScreenOncePerChangeAndQueued() async throws {
        // --attention 1 for screens that do not say; the board says 2 in its URL.
        let (upstream, feedweb) = try await Self.start(["--mark", "Breaking:/section=Breaking", "--attention", "1"])
        defer { feedweb.kill() }
        let seconds = 2
        try await WebDriver.withSession { browser in
            try await browser.open(
                "http://127.0.0.1:\(feedweb.port)/board?v=list&v=kiosk&screen=hall&attention=\(seconds)")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            let pushed = try await browser.execute("return Date.now()").doubleValue ?? 0
            try await upstream.change([
                Patch.add("/results/0", NewswireFeed.story(20, section: "Breaking", title: "Alarm one"))
            ])
            let overlay = """
                var el = document.getElementById('attention');
                var shown = !!el && !el.hidden && getComputedStyle(el).display !== 'none';
                """
            #expect(
                try await browser.waitFor(
                    overlay
                        + """
                        return shown && el.dataset.label === 'Breaking'
                          && el.shadowRoot.textContent.indexOf('Alarm one') >= 0;
                        """, seconds: 2))
            #expect(try await browser.waitFor(AttentionScreen.onScreen, seconds: 1), "the story on the screen")
            let first = try await browser.execute(
                "var a = window.feedwebAttention.state().attended; return a.length ? a[0].shownAt : -1")
            let shownAt = first.doubleValue ?? -1
            #expect(shownAt - pushed >= 0 && shownAt - pushed <= 1000, "shown \(shownAt - pushed) ms after")
            #expect(try await browser.waitFor(overlay + "return !shown;", seconds: Double(seconds) + 2))
            let hidden = try await browser.execute(
                "var a = window.feedwebAttention.state().attended[0]; return a.hiddenAt - a.shownAt")
            let duration = hidden.doubleValue ?? 0
            #expect(abs(duration - Double(seconds) * 1000) <= 500, "shown for \(duration) ms")

            // Two in one change: one after the other.
            try await upstream.change([
                Patch.add("/results/0", NewswireFeed.story(21, section: "Breaking", title: "Alarm two")),
                Patch.add("/results/0", NewswireFeed.story(22, section: "Breaking", title: "Alarm three")),
            ])
            #expect(
                try await browser.waitFor(
                    "var a = window.feedwebAttention.state().attended; return a.length === 3 && a[2].hiddenAt > 0",
                    seconds: Double(seconds) * 2 + 3))
            let order = try await browser.execute(
                """
                var a = window.feedwebAttention.state().attended;
                return a.map(function (e) { return e.item; }).join(' ') + '|' + (a[2].shownAt >= a[1].hiddenAt);
                """)
            let parts = (order.stringValue ?? "").split(separator: "|")
            let items = parts.first.map { $0.split(separator: " ").map(String.init) } ?? []
            #expect(Set(items).count == 3, "each marked item once, though two cells carry it: \(items)")
            #expect(parts.last == "true", "the second waits for the first")

            // A change that marks nothing new shows nothing.
            try await upstream.change([Patch.replace("/results/5/title", .string("A quiet edit"))])
            try await Task.sleep(for: .milliseconds(1500))
            #expect(
                try await browser.execute(
                    "var s = window.feedwebAttention.state(); return s.attended.length + ':' + s.waiting")
                    == .string("3:0")
            )
            let severe = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
            #expect(severe.isEmpty, "console errors: \(severe)")
            // /inspect lists the three items the screen named hall showed.
            let attended = try await Eventually.value("/inspect to list hall's attention", within: 3) {
                () async throws -> [String]? in
                let page = try await HTTPTestClient.get(port: feedweb.port, "/inspect")
                let entries = (InspectShowings.parse(page.text)["hall"] ?? []).filter { $0.hasPrefix("attention=") }
                return entries.count >= 3 ? entries : nil
            }
            // By key (`item-KEY` is the element's id).
            #expect(
                attended == items.reversed().map { "attention=" + $0.dropFirst("item-".count) },
                "\(attended) against \(items)")

            // The kiosk, with --attention's seconds (its URL says none), does the same.
            try await browser.open("http://127.0.0.1:\(feedweb.port)/kiosk")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            try await upstream.change([
                Patch.add("/results/0", NewswireFeed.story(23, section: "Breaking", title: "Alarm four"))
            ])
            #expect(
                try await browser.waitFor(
                    overlay
                        + """
                        return shown && el.dataset.label === 'Breaking'
                          && el.shadowRoot.textContent.indexOf('Alarm four') >= 0;
                        """, seconds: 2))
            #expect(try await browser.waitFor(AttentionScreen.onScreen, seconds: 1), "the kiosk's story on the screen")
            #expect(try await browser.waitFor(overlay + "return !shown;", seconds: 3))
        }
        await upstream.shutdown()
    }

    /// A third of a TV is not a TV: the news list and /stats in a cell are laid out by the
    /// cell's width (style.css's media queries see the whole screen, and gave each title a
    /// few pixels: one letter a line).
    @Test func aNewsListInAThirdOfATVIsLaidOutForItsCell() async throws {
        let (_, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        try await WebDriver.withSession(windowWidth: 1920, windowHeight: 1080) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=list&v=kiosk&v=stats&cols=3")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            let widths = try await browser.execute(
                Self.cell
                    + """
                    function share(view, selector) {
                      var root = cell(view);
                      var width = root.host.getBoundingClientRect().width;
                      return Array.prototype.map.call(root.querySelectorAll(selector), function (el) {
                        return Math.round(100 * el.getBoundingClientRect().width / width);
                      });
                    }
                    return { titles: share('list', '.story-title'), ticker: share('stats', '.ticker-title') };
                    """)
            let titles = widths["titles"]?.arrayValue?.compactMap(\.int64Value) ?? []
            let ticker = widths["ticker"]?.arrayValue?.compactMap(\.int64Value) ?? []
            #expect(titles.count >= 5, "\(widths)")
            #expect(titles.allSatisfy { $0 >= 45 }, "each title at least 45 % of its cell's width: \(widths)")
            #expect(ticker.count == 1 && ticker.allSatisfy { $0 >= 60 }, "\(widths)")
        }
    }

    /// /stats in a cell fits it whole: the charts share the height the figures leave, in a
    /// cell too low for them the figures stand alone, and nothing runs past the cell's foot.
    @Test func statsInACellFitTheCellWhole() async throws {
        let (_, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        let measure =
            Self.cell
                + """
                var root = cell('stats');
                var box = root.host.getBoundingClientRect();
                var page = root.querySelector('.bd-page');
                function bottoms(selector) {
                  return Array.prototype.map.call(root.querySelectorAll(selector), function (el) {
                    var r = el.getBoundingClientRect();
                    return { below: Math.round(r.bottom - box.bottom), height: Math.round(r.height) };
                  });
                }
                return { cell: Math.round(box.height), overflow: page.scrollHeight - page.clientHeight,
                         charts: bottoms('.chart'), tiles: bottoms('.tile') };
                """
        // A cell as high as the screen: both charts drawn, within the cell.
        try await WebDriver.withSession(windowWidth: 1920, windowHeight: 1080) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=list&v=stats&cols=2")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            let seen = try await browser.execute(measure)
            let charts = seen["charts"]?.arrayValue ?? []
            #expect(charts.count == 2, "\(seen)")
            #expect(charts.allSatisfy { ($0["height"]?.int64Value ?? 0) >= 200 }, "\(seen)")
            #expect(charts.allSatisfy { ($0["below"]?.int64Value ?? 1) <= 0 }, "\(seen)")
            #expect(seen["overflow"]?.int64Value == 0, "\(seen)")
        }
        // A quarter of a small screen: the figures alone, within the cell.
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=list&v=stats&v=kiosk&v=list:World&cols=2")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            let seen = try await browser.execute(measure)
            let charts = seen["charts"]?.arrayValue ?? []
            let tiles = seen["tiles"]?.arrayValue ?? []
            #expect(charts.allSatisfy { $0["height"]?.int64Value == 0 }, "\(seen)")
            #expect(tiles.count == 5 && tiles.allSatisfy { ($0["below"]?.int64Value ?? 1) <= 0 }, "\(seen)")
            #expect(seen["overflow"]?.int64Value == 0, "\(seen)")
        }
    }

    @Test func theShiftAndTheDimComeAtTheTimesOfTheClock() async throws {
        let (upstream, feedweb) = try await Self.start()
        defer { feedweb.kill() }
        try await WebDriver.withSession { browser in
            // The page's clock starts at 21:59:58 local time (`now`, for tests only).
            try await browser.open(
                "http://127.0.0.1:\(feedweb.port)/board?v=list&v=stats&dim=22:00-07:00&screen=tv&now=2026-11-29T21:59:58"
            )
            #expect(try await browser.waitFor("return window.feedwebBoard.state().dimmed === true", seconds: 5))
            let log = try await browser.execute(
                """
                var ten = new Date('2026-11-29T22:00:00').getTime();
                var s = window.feedwebBoard.state();
                return s.cared.map(function (c) { return c.what + '=' + c.value + '@' + (c.at - ten); }).join(' | ')
                  + ' || ' + document.getElementById('board').style.transform;
                """)
            let text = log.stringValue ?? ""
            let steps = text.components(separatedBy: " || ")[0].components(separatedBy: " | ")
            func at(_ step: String) -> Double { Double(step.components(separatedBy: "@").last ?? "") ?? .nan }
            let shifts = steps.filter { $0.hasPrefix("shift=") }
            let dims = steps.filter { $0.hasPrefix("dim=") }
            #expect(shifts.count == 2, "\(text)")
            #expect(dims.count == 1, "\(text)")
            // The place of before 22:00 at load, the next at 22:00 (every 3 minutes).
            #expect(shifts.count == 2 && at(shifts[0]) < 0 && (0...500).contains(at(shifts[1])), "\(text)")
            #expect(dims.first.map { $0.hasPrefix("dim=on@") && (0...500).contains(at($0)) } == true, "\(text)")
            let place = shifts.last?.dropFirst("shift=".count).components(separatedBy: "@")[0] ?? ""
            #expect(text.hasSuffix(" || " + place) && place.hasPrefix("translate("), "\(text)")
            #expect(try await browser.execute("return document.body.classList.contains('is-dimmed')") == .bool(true))

            // The hook: a clock the test sets; at 07:00 the dim ends.
            try await browser.execute(
                """
                var seven = new Date('2026-11-30T06:59:59').getTime(), from = Date.now();
                window.feedwebClock = function () { return seven + (Date.now() - from); };
                return true;
                """)
            #expect(try await browser.waitFor("return window.feedwebBoard.state().dimmed === false", seconds: 3))
            let ended = try await browser.execute(
                """
                var seven = new Date('2026-11-30T07:00:00').getTime();
                var dims = window.feedwebBoard.state().cared.filter(function (c) { return c.what === 'dim'; });
                return dims[dims.length - 1].value + '@' + (dims[dims.length - 1].at - seven);
                """)
            let end = ended.stringValue ?? ""
            #expect(end.hasPrefix("off@") && (0...500).contains(Double(end.dropFirst(4)) ?? .nan), "\(end)")
            // /inspect lists what the screen named tv showed: both cells, then the dim on and off.
            let shown = try await Eventually.value("/inspect to list tv's dim going off", within: 3) {
                () async throws -> [String]? in
                let page = try await HTTPTestClient.get(port: feedweb.port, "/inspect")
                let entries = InspectShowings.parse(page.text)["tv"] ?? []
                return entries.first == "dim=off" ? entries : nil
            }
            #expect(shown == ["dim=off", "dim=on", "view=list stats"], "\(shown)")

            // Without the shift the board stays where it was laid out.
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=list&shift=off&now=2026-11-29T21:59:59")
            try await Task.sleep(for: .milliseconds(1500))
            #expect(
                try await browser.execute(
                    """
                    return document.getElementById('board').style.transform + '|' +
                      window.feedwebBoard.state().cared.filter(function (c) { return c.what === 'shift'; }).length;
                    """) == .string("|0"))
        }
        await upstream.shutdown()
    }
}
