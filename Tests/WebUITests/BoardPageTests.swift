import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// `/board` called through the router without a server: its cells, each the `<main>` of
/// its view's own page inside a shadow root of its own, and a 400 page naming each bad
/// parameter.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct BoardPageTests {
    let app = TestHandlers(document: NewswireFeed.document(count: 6))

    func page(_ query: KeyValuePairs<String, String>) throws -> (status: UInt32, html: String) {
        let response = try app.respond(HTTPRequest(path: "/board", query: query))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// The cells of a board page, in order: `data-view`, `data-spec` and what each holds.
    func cells(_ html: String) -> [(view: String, spec: String, body: String)] {
        html.components(separatedBy: #"<section class="bd-cell""#).dropFirst().map { part in
            func attribute(_ name: String) -> String {
                guard let start = part.range(of: name + "=\"") else { return "" }
                return String(part[start.upperBound...].prefix { $0 != "\"" })
            }
            return (attribute("data-view"), attribute("data-spec"), part)
        }
    }

    @Test func aBoardHoldsEachViewInAShadowRootOfItsOwnInTheOrderGiven() throws {
        let key = try #require(app.store.snapshot?.published.items.first?.key)
        let (status, html) = try page([
            "v": "kiosk:World", "v": "stats", "v": "list", "v": "item:" + key, "cols": "2",
        ])
        #expect(status == 200)
        #expect(html.contains(#"data-stream="board""#))
        #expect(html.contains("/static/board.js?v=") && html.contains("/static/app.js?v="))
        #expect(html.contains(#"data-cols="2""#))
        let found = cells(html)
        #expect(found.map(\.view) == ["kiosk:World", "stats", "list", "item:" + key])
        #expect(found.map(\.spec) == ["kiosk:World", "stats", "list", "item:" + key])
        for cell in found {
            #expect(cell.body.contains(#"<template shadowrootmode="open">"#), "\(cell.view)")
            #expect(cell.body.contains("/static/style.css?v="), "\(cell.view)")
        }
        #expect(found[0].body.contains(#"id="stories""#) && found[0].body.contains("page-kiosk"))
        #expect(found[1].body.contains(#"id="stats-summary""#))
        #expect(found[2].body.contains(#"id="stories""#) && found[2].body.contains(#"id="count""#))
        #expect(found[3].body.contains(#"id="detail""#) && found[3].body.contains(key))
        // One banner for the whole board; no cell has a badge of its own.
        #expect(html.components(separatedBy: #"id="status""#).count == 2)
    }

    @Test func aPagesPathNamesItsView() throws {
        let key = try #require(app.store.snapshot?.published.items.first?.key)
        let escaped = try #require(key.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let (status, html) = try page([
            "v": "/", "v": "/?section=World", "v": "/kiosk", "v": "/kiosk?section=U.S.", "v": "/stats",
            "v": "/items/" + escaped,
        ])
        #expect(status == 200)
        let found = cells(html)
        let views = ["list", "list:World", "kiosk", "kiosk:U.S.", "stats", "item:" + key]
        #expect(found.map(\.view) == views)
        #expect(found.map(\.spec) == views)
        #expect(found[5].body.contains(#"id="detail""#) && !found[5].body.contains("is not in the feed"))
        // A key with a slash, escaped as the item page's link escapes it.
        #expect(BoardQuery.spec(ofPath: "/items/nyt%3A%2F%2Farticle%2F42") == "item:nyt://article/42")
        for path in ["/inspect", "/?sort=title", "/items/", "/items/a/b", "/api/state", "kiosk?section=World"] {
            let (status, html) = try page(["v": path])
            #expect(status == 400, "\(path)")
            #expect(html.contains("a page&#39;s path"), "\(path): \(html.prefix(400))")
        }
    }

    @Test func anItemNotInTheFeedHasItsPlaceReady() throws {
        let (status, html) = try page(["v": "item:not-here", "v": "list"])
        #expect(status == 200)
        let cell = try #require(cells(html).first)
        #expect(cell.body.contains(#"id="detail""#) && cell.body.contains("not-here is not in the feed"))
    }

    @Test func rotationAttentionAndPanelCareAreHandedToThePage() throws {
        let (status, html) = try page([
            "v": "list", "v": "stats", "v": "kiosk", "rotate": "30,15", "attention": "8", "shift": "off",
            "dim": "22:00-07:00",
        ])
        #expect(status == 200)
        // A shorter rotation repeats its last time.
        #expect(html.contains(#"data-rotate="30,15,15""#))
        #expect(html.contains(#"data-attention="8""#))
        #expect(html.contains(#"data-shift="off""#))
        #expect(html.contains(#"data-dim="22:00-07:00""#))
        // Shift is on by default.
        #expect(try page(["v": "list"]).html.contains(#"data-shift="on""#))
    }

    @Test(arguments: [
        ("v=nope", "v"), ("cols=2", "v"), ("v=inspect", "v"), ("v=item:", "v"),
        ("v=list&v=stats&rotate=1,2,3", "rotate"), ("v=list&rotate=fast", "rotate"), ("v=list&rotate=0", "rotate"),
        ("v=list&dim=25:00-07:00", "dim"), ("v=list&dim=22:00", "dim"), ("v=list&dim=7:00-8:00", "dim"),
        ("v=list&cols=0", "cols"), ("v=list&attention=soon", "attention"), ("v=list&shift=maybe", "shift"),
    ])
    func aBadParameterIsA400PageNamingIt(query: String, parameter: String) throws {
        let fields = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return HTTPRequest.Field(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
        }
        let response = try app.respond(
            HTTPRequest(method: "GET", path: "/board", version: "HTTP/1.1", queryArguments: fields, headers: []))
        let html = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 400)
        #expect(html.contains("Bad parameter: \(parameter)"), "\(html.prefix(600))")
    }

    @Test func aScreenOfAnotherVersionIsToldToReloadOnceItReconnects() throws {
        let version = app.handlers.assets.version
        let stale = try app.firstEvents(
            of: app.streamStart(HTTPRequest(path: "/events/page", query: ["v": "list", "asset": "0ld"])))
        #expect(stale.map(\.type) == ["reload"])
        #expect(stale.first?.data == version)
        for query: KeyValuePairs<String, String> in [["v": "list", "asset": version], ["v": "list"]] {
            let current = try app.firstEvents(of: app.streamStart(HTTPRequest(path: "/events/page", query: query)))
            #expect(!current.contains { $0.type == "reload" } && current.contains { $0.type == "items" })
        }
    }

    @Test func aPlaylistIsTheBoardItNamesAndAnUnknownOneIsA400() throws {
        var handlers = app.handlers.pages
        handlers.screens.playlists = ["lobby": "v=kiosk%3AWorld&v=stats&rotate=30,15"]
        let named = handlers.board(HTTPRequest(path: "/board", query: ["playlist": "lobby", "screen": "left"]))
        let html = String(decoding: named.body, as: UTF8.self)
        #expect(named.status == 200)
        #expect(cells(html).map(\.view) == ["kiosk:World", "stats"])
        #expect(html.contains(#"data-rotate="30,15""#))
        let unknown = handlers.board(HTTPRequest(path: "/board", query: ["playlist": "hall"]))
        #expect(unknown.status == 400)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("Bad parameter: playlist"))
        #expect(BoardPlaylist.problem(in: "v=kiosk&rotate=5,5") != nil)
        #expect(BoardPlaylist.problem(in: "v=kiosk&v=list&rotate=5,5") == nil)
    }

    @Test func attentionAndDimComeFromTheOptionsUnlessTheURLSays() throws {
        var handlers = app.handlers.pages
        handlers.screens.attention = 7
        handlers.screens.dim = "23:30-06:00"
        func html(_ query: KeyValuePairs<String, String>, path: String = "/board") -> String {
            let request = HTTPRequest(path: path, query: query)
            let response = path == "/board" ? handlers.board(request) : handlers.kiosk(request)
            return String(decoding: response.body, as: UTF8.self)
        }
        let plain = html(["v": "list"])
        #expect(plain.contains(#"data-attention="7""#) && plain.contains(#"data-dim="23:30-06:00""#))
        let asked = html(["v": "list", "attention": "3", "dim": "01:00-02:00"])
        #expect(asked.contains(#"data-attention="3""#) && asked.contains(#"data-dim="01:00-02:00""#))
        let off = html(["v": "list", "attention": "0", "dim": ""])
        #expect(off.contains(#"data-attention="0""#) && off.contains(#"data-dim="""#))
        // A kiosk carries --attention for its script; its URL's ?attention= wins there.
        #expect(html([:], path: "/kiosk").contains(#"data-attention="7""#))
        #expect(ScreenSettings.isDimRange("22:00-07:00") && !ScreenSettings.isDimRange("22-7"))
    }

    @Test func dimRangesParseAcrossMidnight() {
        #expect(BoardQuery.dimRange("22:00-07:00")! == (1320, 420))
        #expect(BoardQuery.dimRange("01:30-05:15")! == (90, 315))
        #expect(BoardQuery.dimRange("07:00-07:00") == nil)
        #expect(BoardQuery.dimRange("24:00-07:00") == nil)
        #expect(BoardQuery.dimRange("") == nil)
    }
}
