import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// `POST /screens/shown`: what a named screen reports showing, kept (bounded) and listed
/// on `/inspect` by name, every value escaped; a report that is not one is a 400 naming
/// its parameter; any other method a 405 that says POST.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct ScreenShowingsTests {
    let app = TestHandlers(document: NewswireFeed.document(count: 3))

    func report(_ query: KeyValuePairs<String, String>, method: String = "POST") throws -> PreparedResponse {
        try app.respond(HTTPRequest(method: method, path: "/screens/shown", query: query))
    }

    /// `/inspect`'s named screens and what each showed, newest first.
    func listed() throws -> [String: [String]] {
        InspectShowings.parse(String(decoding: try app.respond(HTTPRequest(path: "/inspect")).body, as: UTF8.self))
    }

    @Test func aNamedScreensReportsAreListedOnInspectNewestFirst() throws {
        #expect(try report(["screen": "lobby", "view": "list stats"]).status == 204)
        #expect(try report(["screen": "lobby", "view": "kiosk:World"]).status == 204)
        #expect(try report(["screen": "lobby", "attention": "ACME", "label": "Price alarm"]).status == 204)
        #expect(try report(["screen": "hall", "dim": "on"]).status == 204)
        let screens = try listed()
        #expect(screens["lobby"] == ["attention=ACME", "view=kiosk:World", "view=list stats"])
        #expect(screens["hall"] == ["dim=on"])
        let html = String(decoding: try app.respond(HTTPRequest(path: "/inspect")).body, as: UTF8.self)
        #expect(html.contains("· Price alarm"))
        #expect(!html.contains("· </li>"), "no separator without a label")
    }

    @Test func whatAScreenReportsIsTextOnInspect() async throws {
        let hostile = "<img src=x onerror=alert(1)>\"&'"
        #expect(try report(["screen": "lobby", "attention": hostile, "label": hostile]).status == 204)
        let html = String(decoding: try app.respond(HTTPRequest(path: "/inspect")).body, as: UTF8.self)
        #expect(!html.contains("<img src=x"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        let page = try await HTMLChecker.parse(html)
        #expect(page.errors.isEmpty, "\(page.errors.prefix(3))")
        #expect(!page.elements.contains { $0.tag == "img" })
    }

    @Test func aReportThatIsNotOneIsA400NamingItsParameter() throws {
        let long = String(repeating: "x", count: ScreenShowings.maxValueBytes + 1)
        let cases: [(KeyValuePairs<String, String>, String)] = [
            (["view": "list"], "screen"),
            (["screen": "a b", "view": "list"], "screen"),
            (["screen": String(repeating: "s", count: 65), "view": "list"], "screen"),
            (["screen": "lobby"], "view"),
            (["screen": "lobby", "view": "list", "dim": "on"], "view"),
            (["screen": "lobby", "dim": "dusk"], "dim"),
            (["screen": "lobby", "view": ""], "view"),
            (["screen": "lobby", "view": long], "view"),
            (["screen": "lobby", "attention": "item-1", "label": long], "label"),
        ]
        for (query, parameter) in cases {
            let response = try report(query)
            #expect(response.status == 400, "\(query)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("Bad parameter: \(parameter)"), "\(query)")
        }
        #expect(try listed().isEmpty, "nothing kept from a bad report")
        for method in ["GET", "HEAD", "PUT"] {
            let response = try report(["screen": "lobby", "view": "list"], method: method)
            #expect(response.status == 405, "\(method)")
            #expect(response.headers.contains { $0.0 == "Allow" && $0.1 == "POST" }, "\(method)")
        }
    }

    @Test func theShowingsKeptAreBoundedWhateverIsSent() {
        let showings = ScreenShowings()
        for n in 0..<(ScreenShowings.maxScreens + 6) {
            showings.record(.init(at: .now(), kind: .view, value: "list"), screen: "screen-\(n)")
        }
        for n in 0..<(ScreenShowings.perScreen + 5) {
            showings.record(.init(at: .now(), kind: .view, value: "step-\(n)"), screen: "screen-10")
        }
        let screens = showings.screens()
        #expect(screens.count == ScreenShowings.maxScreens)
        // The names reported to longest ago went first; one reported again stays.
        #expect(!screens.contains { $0.name == "screen-0" } && !screens.contains { $0.name == "screen-5" })
        #expect(screens.contains { $0.name == "screen-6" })
        let busy = screens.first { $0.name == "screen-10" }
        #expect(busy?.showings.count == ScreenShowings.perScreen)
        #expect(busy?.showings.last?.value == "step-\(ScreenShowings.perScreen + 4)")
    }
}
