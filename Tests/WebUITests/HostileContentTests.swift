import FeedCore
import Foundation
import TestSupport
import Testing

/// No feed string can ever become markup, script or a dangerous URL in any page.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct HostileContentTests {
    let server: TestServer

    init() throws {
        server = try TestServer(document: HostileFeed.document)
    }

    var pages: [String] {
        ["/", "/kiosk"]
            + [1, 6, 7].map { "/?section=" + StoryViewEscape.query("World" + HostileFeed.markup[$0]) }
            + HostileFeed.keys.map { "/items/" + $0 }
            + ["/board?v=list&v=kiosk&v=kiosk:" + StoryViewEscape.query("World" + HostileFeed.markup[1])]
    }

    @Test func everyPageKeepsHostileStringsAsText() async throws {
        for path in pages {
            let response = try await HTTPTestClient.get(port: server.port, path)
            #expect(response.status == 200, "\(path)")
            let page = try await HTMLChecker.parse(response.text)
            #expect(page.errors.isEmpty, "\(path) is not well-formed HTML5: \(page.errors.prefix(3))")

            // Only our own scripts (the kiosk's attention and reports too, the board's own),
            // never an inline or injected one.
            let scripts = page.elements.filter { $0.tag == "script" }
            let own = [
                "/static/times.js", "/static/app.js", "/static/attention.js", "/static/board.js", "/static/showings.js",
            ]
            #expect(scripts.count == (path.hasPrefix("/kiosk") ? 4 : path.hasPrefix("/board") ? 5 : 2), "\(path)")
            #expect(
                scripts.allSatisfy { script in own.contains { (script.attributes["src"] ?? "").hasPrefix($0) } },
                "\(path)")
            for tag in ["iframe", "svg", "object", "embed", "base", "form"] {
                #expect(!page.elements.contains { $0.tag == tag }, "\(path) has an injected <\(tag)>")
            }
            // No event-handler attribute anywhere.
            for element in page.elements {
                for name in element.attributes.keys {
                    #expect(!name.lowercased().hasPrefix("on"), "\(path): <\(element.tag) \(name)>")
                }
            }
            // Every URL attribute is http(s) or our own path.
            for name in ["href", "src", "action", "formaction", "data-fallback"] {
                for value in page.values(of: name) {
                    #expect(SafeURL.isSafe(value), "\(path): \(name)=\(value)")
                }
            }
        }
    }

    @Test func inspectKeepsHostileStringsAsText() async throws {
        let response = try await HTTPTestClient.get(port: server.port, "/inspect")
        #expect(response.status == 200)
        let page = try await HTMLChecker.parse(response.text)
        #expect(page.errors.isEmpty, "/inspect is not well-formed HTML5: \(page.errors.prefix(3))")
        let scripts = page.elements.filter { $0.tag == "script" }
        #expect(
            scripts.map { ($0.attributes["src"] ?? "").prefix { $0 != "?" } } == ["/static/times.js", "/static/app.js"])
        for tag in ["iframe", "object", "embed", "base", "form"] {
            #expect(!page.elements.contains { $0.tag == tag }, "/inspect has an injected <\(tag)>")
        }
        for element in page.elements {
            for name in element.attributes.keys {
                #expect(!name.lowercased().hasPrefix("on"), "/inspect: <\(element.tag) \(name)>")
            }
        }
        // The tree shows the whole document: every hostile string, as text only.
        for markup in HostileFeed.markup { #expect(!response.text.contains(markup), "raw \(markup)") }
        #expect(page.text.contains(HostileFeed.markup[0]), "shown literally")
    }

    @Test func hostileStringsAreShownLiterally() async throws {
        let response = try await HTTPTestClient.get(port: server.port, "/items/" + HostileFeed.keys[0])
        let page = try await HTMLChecker.parse(response.text)
        // The title is displayed exactly as the feed sent it: escaped, not dropped.
        #expect(page.text.contains("Title 0 " + HostileFeed.markup[0]))
        #expect(page.text.contains("By " + HostileFeed.markup[0]))
        #expect(page.text.contains("Caption " + HostileFeed.markup[0]))
        // The raw markup never appears in the bytes.
        #expect(!response.text.contains(HostileFeed.markup[0]))
        #expect(!response.text.contains("onerror=alert"))
    }

    @Test func dangerousURLsAreDroppedEverywhere() async throws {
        for path in pages {
            let html = try await HTTPTestClient.get(port: server.port, path).text.lowercased()
            for needle in ["javascript:", "vbscript:", "data:text/html", "href=\"//", "src=\"//"] {
                // Text may mention them (escaped, inside a caption, say) but no attribute may
                // start with them: the parser check above covers attributes; here the raw
                // bytes must not even contain an attribute opening with them.
                #expect(!html.contains("=\"" + needle), "\(path) contains an attribute starting with \(needle)")
            }
        }
    }

}

enum StoryViewEscape {
    /// Percent-encodes a query value.
    static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
