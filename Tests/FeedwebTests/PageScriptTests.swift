import FeedCore
import Foundation
import TestSupport
import Testing

/// What the page script (Public/app.js) does with its page stream, in headless Chromium
/// on pages of the real binary: its own reconnect with resume, closing the stream in a
/// hidden tab (except in kiosk mode), and obeying a server-pushed `reload`.
///
/// Serialized: each test drives a browser, and several at once on a small machine make
/// every timing in them slack.
@Suite(
    .serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn,
    .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
struct PageScriptTests {
    /// `feedweb_stream_clients{stream="page"}` from `/metrics`.
    static func pageStreamClients(port: UInt16) async throws -> Double? {
        let text = try await HTTPTestClient.get(port: port, "/metrics", timeout: 5).text
        return try PrometheusText(parsing: text).value("feedweb_stream_clients", ["stream": "page"])
    }

    /// Makes the page believe it is hidden, as when its tab goes to the background, and
    /// tells it; returns the page's stream state right after.
    static func hide(_ browser: WebDriver) async throws -> JSONValue {
        try await browser.execute(
            """
            Object.defineProperty(document, 'hidden', {value: true, configurable: true});
            Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
            return document.body.dataset.streamState;
            """)
    }

    /// Undoes ``hide(_:)`` (the browser's own, visible, state shows through again) and
    /// tells the page; returns `document.hidden` as the page then sees it.
    static func show(_ browser: WebDriver) async throws -> JSONValue {
        try await browser.execute(
            """
            delete document.hidden;
            delete document.visibilityState;
            document.dispatchEvent(new Event('visibilitychange'));
            return document.hidden;
            """)
    }

    /// A script that is true when the list shows `title` first and the page was not reloaded.
    static func showsFirst(_ title: String) -> String {
        """
        var first = document.querySelector('#stories > li .story-title');
        return window.__feedwebMarker === 'kept' && document.body.dataset.streamState === 'open'
          && !!first && first.textContent === '\(title)';
        """
    }

    @Test("the page keeps its content while the server is gone, then reconnects with its last id and catches up")
    func reconnectsWithResumeAndCatchesUp() async throws {
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [5, 4, 3, 2, 1]))
        let port = try FreePort.find()
        let arguments = ["--listen", "127.0.0.1:\(port)", "--upstream", upstream.url]
        let first = try await FeedwebProcess(arguments: arguments, listen: false)
        defer { first.kill() }
        try await FeedwebProbe.waitUntilReady(port: port)
        let lastID = try await FeedwebProbe.waitForState(upstream.document, port: port)

        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(port)/")
            // A marker a reload would lose, and a record of every stream the script opens.
            try await browser.execute(
                """
                window.__feedwebMarker = 'kept';
                window.__streamURLs = [];
                var Original = window.EventSource;
                window.EventSource = function (url, options) {
                  window.__streamURLs.push(String(url));
                  return new Original(url, options);
                };
                return true;
                """)
            #expect(try await browser.waitFor(Self.showsFirst("Story number 5"), seconds: 5))
            // The stream's first frame names the state the page holds; only from then on has
            // the page an id to resume from ("open" comes before it).
            #expect(
                try await browser.waitFor(
                    "return window.feedweb.applied().some(function (f) { return f.id === '\(lastID)'; });",
                    seconds: 5))
            // The page may open its first stream after the recorder was installed (it waits
            // for the stream lock it shares with other pages); only reconnects count below.
            try await browser.execute("window.__streamURLs = []; return true")

            // The server goes away: the page says so and keeps what it showed.
            #expect(await first.stop()?.status == 0)
            #expect(
                try await browser.waitFor(
                    """
                    var label = document.querySelector('#status .badge-label');
                    return window.__feedwebMarker === 'kept' && document.body.dataset.streamState !== 'open'
                      && !!label && label.textContent === 'Reconnecting…'
                      && document.querySelectorAll('#stories > li').length === 5
                      && document.querySelector('#stories > li .story-title').textContent === 'Story number 5';
                    """, seconds: 5), "the last content stays on screen while disconnected")

            // Upstream moves on meanwhile (it has no subscriber to tell); feedweb comes back
            // on the same address.
            upstream.restartStreams(with: NewswireFeed.document(stories: [6, 5, 4, 3, 2, 1]))
            let second = try await FeedwebProcess(arguments: arguments, listen: false)
            defer { second.kill() }
            #expect(
                try await browser.waitFor(Self.showsFirst("Story number 6"), seconds: 20),
                "the page reconnects by itself and catches up, without a reload")
            #expect(try await browser.execute("return document.querySelectorAll('#stories > li').length") == .int(6))

            // Every reconnect asked to resume the list after the last event the page had.
            let urls =
                try await browser.execute("return window.__streamURLs").arrayValue?.compactMap(\.stringValue) ?? []
            #expect(!urls.isEmpty)
            for url in urls {
                #expect(url.contains("v=list%40\(lastID)"), "\(url) resumes after \(lastID)")
            }
            let severe = try await browser.consoleMessages().filter {
                $0.level == "SEVERE" && !$0.message.contains("/events/page")
            }
            #expect(severe.isEmpty, "console errors besides the refused stream: \(severe)")
        }
        await upstream.shutdown()
    }

    @Test("a hidden list page closes its stream and reopens it when shown; a hidden kiosk keeps it")
    func hiddenTabClosesTheStreamExceptInKiosk() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        let port = feedweb.port
        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(port)/")
            try await browser.execute("window.__feedwebMarker = 'kept'; return true")
            #expect(try await browser.waitFor(Self.showsFirst("Story number 5"), seconds: 5))
            try await Eventually.check("one page stream") { try await Self.pageStreamClients(port: port) == 1 }

            // Hidden: the page closes its stream, and feedweb sees it go.
            #expect(try await Self.hide(browser) == .string("closed"))
            try await Eventually.check("no page stream while hidden", within: 5) {
                try await Self.pageStreamClients(port: port) == 0
            }
            try await upstream.change([Patch.add("/results/0", NewswireFeed.story(6))])

            // Shown again: the stream reopens and brings what happened meanwhile.
            #expect(try await Self.show(browser) == .bool(false))
            #expect(
                try await browser.waitFor(Self.showsFirst("Story number 6"), seconds: 5),
                "the stream reopens and the page catches up")
            try await Eventually.check("one page stream again") { try await Self.pageStreamClients(port: port) == 1 }

            // The kiosk stays live when hidden: its stream stays open and still brings changes.
            try await browser.open("http://127.0.0.1:\(port)/kiosk")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
            try await Eventually.check("only the kiosk's stream") { try await Self.pageStreamClients(port: port) == 1 }
            #expect(try await Self.hide(browser) == .string("open"))
            try await upstream.change([Patch.add("/results/0", NewswireFeed.story(7))])
            #expect(
                try await browser.waitFor(
                    """
                    return document.body.dataset.streamState === 'open'
                      && document.getElementById('stories').textContent.indexOf('Story number 7') >= 0;
                    """, seconds: 5), "the hidden kiosk still follows the feed")
            #expect(try await Self.pageStreamClients(port: port) == 1)
        }
        await upstream.shutdown()
    }

    @Test("when a static file changes, feedweb pushes reload and the page reloads itself with the new files")
    func serverPushedReloadReloadsThePage() async throws {
        let scratch = try ScratchDirectory("public")
        let directory = scratch.url.appendingPathComponent("Public")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: InProcessFeedweb.publicDirectory), to: directory)
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--public-dir", directory.path])
        defer { feedweb.kill() }
        let stylesheet = "return document.querySelector('link[rel=stylesheet]').getAttribute('href')"
        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/")
            try await browser.execute("window.__feedwebMarker = 'kept'; return true")
            #expect(try await browser.waitFor(Self.showsFirst("Story number 5"), seconds: 5))
            let before = try await browser.execute(stylesheet)

            let css = directory.appendingPathComponent("style.css")
            let handle = try FileHandle(forWritingTo: css)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n/* a new version */\n".utf8))
            try handle.close()

            #expect(
                try await browser.waitFor(
                    """
                    return window.__feedwebMarker === undefined && document.body.dataset.streamState === 'open'
                      && document.querySelectorAll('#stories > li').length === 5;
                    """, seconds: 10), "the page reloaded itself")
            let after = try await browser.execute(stylesheet)
            #expect(after != before, "the reloaded page links the new stylesheet: \(before) → \(after)")
            let served = try await HTTPTestClient.get(port: feedweb.port, "/static/style.css").text
            #expect(served.hasSuffix("/* a new version */\n"))
        }
        await upstream.shutdown()
    }
}
