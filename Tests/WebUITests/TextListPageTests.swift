import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// A feed that is a list of texts (Prometheus' label values, a registry's repositories): a
/// row and a tile per text, escaped, kept in step with the feed, over HTTP.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct TextListPageTests {
    /// The texts in `/`'s rows, in order, as the page writes them.
    private func rows(_ server: TestServer) async throws -> [String] {
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        return page.matches(
            of:
                /<tr class="row" id="item-[^"]+" data-key="[^"]+">.*?<td class="[^"]*" data-col="repositories"[^>]*><a class="row-link" href="[^"]+">(.*?)<\/a><\/td>/
        )
        .map { String($0.output.1) }
    }

    @Test("a registry's repositories: one row each, hostile text escaped, a repository added and one removed")
    func repositories() async throws {
        let hostile = #"<img src=x onerror="alert(1)">"#
        let server = try TestServer(
            document: .object(["repositories": .array([.string("acme/api"), .string("acme/web"), .string(hostile)])]),
            detection: .init())
        var shown = try await rows(server)
        #expect(shown == ["acme/api", "acme/web", "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"], "\(shown)")
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(!page.contains(hostile))
        #expect(page.contains(">Repositories<"), "the column is headed by the list's name")

        try server.store.apply(
            JSONPatch(
                json: .array([Patch.add("/repositories/-", .string("library/nginx")), Patch.remove("/repositories/0")])
            ))
        shown = try await rows(server)
        #expect(shown.first == "acme/web" && shown.last == "library/nginx" && shown.count == 3, "\(shown)")
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(kiosk.contains(#"<h2 class="tile-title">library/nginx</h2>"#), "a tile per text")
        let api = try await HTTPTestClient.get(port: server.port, "/api/items").text
        let items = try #require(try JSONValue(parsing: api).arrayValue)
        #expect(items.count == 3, "\(api.prefix(300))")
    }
}
