import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Sizes an API writes for people (Elasticsearch's `_cat/indices`): shown as written,
/// right-aligned, compared and sorted by the bytes they stand for, not as text.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct WrittenSizeTests {
    @Test("Elasticsearch's indices sorted by store size: 3gb, 1.2gb, 194.9mb, 830kb, 12.4kb")
    func indicesSortedBySize() async throws {
        func index(_ name: String, _ size: String) -> JSONValue {
            .object([
                "health": .string("green"), "status": .string("open"), "index": .string(name),
                "docs.count": .string("1200"), "store.size": .string(size),
            ])
        }
        let server = try TestServer(
            document: .array([
                index("logs-1", "194.9mb"), index("logs-0", "1.2gb"), index("metrics", "830kb"),
                index("kibana", "12.4kb"), index("orders", "3gb"),
            ]), detection: .init())
        let sorted = try await HTTPTestClient.get(port: server.port, "/?sort=store.size&order=desc").text
        let shown = sorted.matches(of: /data-col="store.size" data-value="[0-9]+">([^<]+)</).map { String($0.output.1) }
        #expect(shown == ["3gb", "1.2gb", "194.9mb", "830kb", "12.4kb"], "\(shown)")
        #expect(sorted.contains(#"class="cell num" data-col="store.size" data-value="3221225472""#))
    }
}
