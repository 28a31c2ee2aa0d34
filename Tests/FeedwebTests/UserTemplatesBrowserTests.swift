import FeedCore
import Foundation
import TestSupport
import Testing

/// Your own page, end to end: the built-in templates exported, one changed to show a value
/// of the item's own JSON, served with `--templates`; the change on `/` and in its live
/// updates in headless Chromium; SIGHUP with a changed template reloads the open page once;
/// a broken one is refused whole (kept on SIGHUP, exit 2 at start), naming file, line and
/// column.
@Suite(
    .serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn,
    .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
struct UserTemplatesBrowserTests {
    static let row = "tableRow.mustache"

    /// The exported row template with one more cell, made from the item's own JSON.
    static func rowTemplate(_ folder: ScratchDirectory, exported: String, saying words: String) throws {
        let path = folder.file(row)
        let changed = exported.replacingOccurrences(
            of: "</tr>",
            with: #"<td class="mine" data-col="mine">{{item.symbol}} \#(words) {{item.price}}</td></tr>"#)
        try #require(changed != exported, "the exported row template ends its row")
        try Data(changed.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The text of ACME's own cell on the page, or `null`.
    static let mine = "var c = document.querySelector('#item-ACME .mine'); return c ? c.textContent : null"

    @Test("export, change a row to show {{item.price}}: on / and live; SIGHUP reloads the page; a broken one is kept")
    func ownRowTemplate() async throws {
        let folder = try ScratchDirectory("own-templates")
        let export = try await FeedwebRun.run(["--export-templates", folder.path])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.file("layout.mustache")))
        let exported = try String(contentsOfFile: folder.file(Self.row), encoding: .utf8)
        try Self.rowTemplate(folder, exported: exported, saying: "at")

        let upstream = try await LiveFeedUpstream(document: TableFeedBrowserTests.document)
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url, "--templates", folder.path])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        let browser = try await WebDriver()
        try await browser.open("http://127.0.0.1:\(feedweb.port)/")
        #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 5))
        #expect(try await browser.execute(Self.mine) == .string("ACME at 182.52"))

        // A live update renders from the same template.
        try await upstream.change([Patch.replace("/quotes/0/price", .double(190.25))], bumpVersion: false)
        let live = try await browser.waitFor(
            "var c = document.querySelector('#item-ACME .mine'); return !!c && c.textContent === 'ACME at 190.25'",
            seconds: 3)
        let shownLive = try await browser.execute(Self.mine)
        #expect(live, "the live row comes from the user's template: \(shownLive)")

        // SIGHUP with a changed template: the open page reloads itself, once, to the new look.
        try await browser.execute("window.__feedwebMarker = 'before'; return true")
        try Self.rowTemplate(folder, exported: exported, saying: "now")
        kill(feedweb.process.processIdentifier, SIGHUP)
        let reloaded = try await browser.waitFor(
            """
            var c = document.querySelector('#item-ACME .mine');
            return window.__feedwebMarker === undefined && !!c && c.textContent === 'ACME now 190.25'
              && document.body.dataset.streamState === 'open';
            """, seconds: 10)
        let shownAfter = try await browser.execute(Self.mine)
        #expect(reloaded, "page: \(shownAfter); log: \(feedweb.log.suffix(600))")

        // A broken template: SIGHUP keeps the set in use (no reload), the log names the place.
        try await browser.execute("window.__feedwebMarker = 'kept'; return true")
        try Data("<tr id=\"{{domID}}\">\n{{#cells}}\n</tr>\n".utf8).write(
            to: URL(fileURLWithPath: folder.file(Self.row)))
        kill(feedweb.process.processIdentifier, SIGHUP)
        try await Eventually.check("the log to say the templates were not reloaded", within: 5) {
            feedweb.log.contains("templates not reloaded")
        }
        #expect(feedweb.log.contains(folder.file(Self.row) + ":"), "\(feedweb.log.suffix(400))")
        try await upstream.change([Patch.replace("/quotes/0/price", .double(191.5))], bumpVersion: false)
        #expect(
            try await browser.waitFor(
                "var c = document.querySelector('#item-ACME .mine'); return window.__feedwebMarker === 'kept' && !!c && c.textContent === 'ACME now 191.5'",
                seconds: 3), "the templates in use are kept, and the page was not reloaded")
        let inspect = try await HTTPTestClient.get(port: feedweb.port, "/inspect").text
        #expect(inspect.contains("inspect-templates-failure"))
        await browser.quit()
        await upstream.server.shutdown()

        // At start, the same folder is refused: exit 2 naming the file, line and column.
        let refused = try await FeedwebRun.run(["--templates", folder.path, "--upstream", upstream.url])
        #expect(refused.status == 2)
        #expect(
            refused.standardError.hasPrefix("Error: --templates: \(folder.file(Self.row)):"),
            "\(refused.standardError)")
        let place = refused.standardError.split(separator: ":").dropFirst(3).prefix(2)
        #expect(place.count == 2 && place.allSatisfy { Int($0) != nil }, "line and column: \(refused.standardError)")
    }
}
