import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// A blog's JSON Feed, its posts' pages over HTTP: each post's whole text in paragraphs,
/// escaped, under its summary; a post without a title or summary not said twice.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct PostPageTests {
    private static let feed = #"""
        {"version": "https://jsonfeed.org/version/1.1", "title": "Ana's notes", "items": [
         {"id": "https://ana.example/1", "url": "https://ana.example/1", "title": "Why our deploys got slower",
          "summary": "A month of CI numbers.",
          "content_html": "<p>Deploys took <b>14</b> minutes.</p><p>The cache &amp; the runners.</p><script>alert(1)</script><p>&lt;img src=x onerror=alert(2)&gt;</p>"},
         {"id": "https://ana.example/2", "url": "https://ana.example/2",
          "content_text": "Walked to the harbour at dawn. The fog was thick.\n\nCoffee at the kiosk.\n\nThird."},
         {"id": "https://ana.example/3", "url": "https://ana.example/3", "content_html": "<p>Short note. Nothing else.</p>"},
         {"id": "https://ana.example/4", "url": "https://ana.example/4", "title": "Swift 6",
          "content_text": "Swift 6 is out.\n\nUpgrade soon."}
        ]}
        """#

    /// The page of the item with `id`'s article: its lede, and its body's paragraphs.
    private func post(_ server: TestServer, id: String) async throws -> (lede: String?, paragraphs: [String]) {
        let api = try await HTTPTestClient.get(port: server.port, "/api/items").text
        let items = try #require(try JSONValue(parsing: api).arrayValue)
        let item = try #require(items.first { $0["url"]?.stringValue == id })
        let key = try #require(item["key"]?.stringValue)
        let page = try await HTTPTestClient.get(port: server.port, "/items/\(key)").text
        let lede = page.firstMatch(of: /<p class="lede">(.*?)<\/p>/).map { String($0.output.1) }
        let body = page.firstMatch(of: /<div class="detail-body">(.*?)<\/div>/).map { String($0.output.1) } ?? ""
        return (lede, body.matches(of: /<p>(.*?)<\/p>/).map { String($0.output.1) })
    }

    @Test("a post with a summary: the summary leads, the whole text follows in paragraphs, escaped")
    func summaryAndText() async throws {
        let server = try TestServer(document: try JSONValue(parsing: Self.feed), detection: .init())
        let shown = try await post(server, id: "https://ana.example/1")
        #expect(shown.lede == "A month of CI numbers.")
        #expect(
            shown.paragraphs == [
                "Deploys took 14 minutes.", "The cache &amp; the runners.", "&lt;img src=x onerror=alert(2)&gt;",
            ], "\(shown.paragraphs)")
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(!page.contains("alert(1)") && !page.contains("<img src=x"), "no script, no markup from the post")
    }

    @Test("a post of text alone: titled by its first sentence, the rest in its paragraphs, nothing twice")
    func textAlone() async throws {
        let server = try TestServer(document: try JSONValue(parsing: Self.feed), detection: .init())
        let walked = try await post(server, id: "https://ana.example/2")
        #expect(walked.lede == nil, "the abstract is the text's beginning: not said again above it")
        #expect(walked.paragraphs == ["The fog was thick.", "Coffee at the kiosk.", "Third."], "\(walked.paragraphs)")
        let short = try await post(server, id: "https://ana.example/3")
        #expect(short.lede == "Nothing else." && short.paragraphs.isEmpty, "\(short)")
        // A title of the post's own is not cut from its text, though the text begins with it.
        let titled = try await post(server, id: "https://ana.example/4")
        #expect(titled.paragraphs == ["Swift 6 is out.", "Upgrade soon."], "\(titled)")
    }

    @Test("a post's headings are headings and its lists lists, bulleted or numbered, in the post's order, escaped")
    func headingsAndLists() async throws {
        let feed = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "Ana's notes", "items": [
             {"id": "https://ana.example/5", "url": "https://ana.example/5", "title": "Cache keys",
              "content_html": "<p>Why.</p><h2>The fix &amp; <i>why</i></h2><ul><li>Key by <b>lockfile</b></li><li>&lt;script&gt;</li></ul>Then:<ol><li>Build</li><li>Ship</li></ol><p>Done.</p>"},
             {"id": "https://ana.example/6", "url": "https://ana.example/6", "title": "Other", "content_html": "<p>One.</p><p>Two.</p>"}
            ]}
            """#
        let server = try TestServer(document: try JSONValue(parsing: feed), detection: .init())
        let api = try await HTTPTestClient.get(port: server.port, "/api/items").text
        let items = try #require(try JSONValue(parsing: api).arrayValue)
        let key = try #require(items.first { $0["title"]?.stringValue == "Cache keys" }?["key"]?.stringValue)
        let page = try await HTTPTestClient.get(port: server.port, "/items/\(key)").text
        let body = try #require(
            page.firstMatch(of: /<div class="detail-body">(.*?)<\/div>/).map { String($0.output.1) })
        // Each block by its element, in order: the tags feedweb writes, the post's words as text.
        let blocks = body.matches(of: /<(p|h3|ul|ol|li)>([^<]*)/).map { "\($0.output.1):\($0.output.2)" }
        #expect(
            blocks == [
                "p:Why.", "h3:The fix &amp; why", "ul:", "li:Key by lockfile", "li:&lt;script&gt;", "p:Then:", "ol:",
                "li:Build", "li:Ship", "p:Done.",
            ], "\(body)")
        #expect(!body.contains("<b>") && !body.contains("<i>") && !body.contains("<h2>"), "no markup of the post's own")
    }
}
