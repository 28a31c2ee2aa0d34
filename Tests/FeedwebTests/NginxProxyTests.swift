import FeedCore
import Foundation
import TestSupport
import Testing

/// feedweb behind a real nginx configured with the block docs/deploy.md documents (read
/// from the file, so the documentation cannot drift from what is tested).
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct NginxProxyTests {
    /// The nginx configuration between the `nginx-config` markers of docs/deploy.md, with
    /// feedweb's address and nginx's own listen address put in.
    static func documentedConfig(feedweb: UInt16, listen: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/deploy.md"), encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- nginx-config:begin -->"))
        let end = try #require(text.range(of: "<!-- nginx-config:end -->"))
        let block = text[begin.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "```nginx", with: "").replacingOccurrences(of: "```", with: "")
        #expect(block.contains("proxy_buffering off;"), "the documented config turns buffering off")
        #expect(block.contains("server 127.0.0.1:8080;") && block.contains("listen 80;"))
        return block.replacingOccurrences(of: "server 127.0.0.1:8080;", with: "server 127.0.0.1:\(feedweb);")
            .replacingOccurrences(of: "listen 80;", with: "listen \(listen);")
    }

    @Test("pages, the API and every stream work through nginx; patches arrive at once; resume passes through")
    func streamsThroughNginx() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        var documented = ""
        let nginx = try await NginxProxy { listen in
            documented = (try? Self.documentedConfig(feedweb: feedweb.port, listen: listen)) ?? ""
            return documented
        }
        defer { nginx.kill() }
        #expect(!documented.isEmpty, "docs/deploy.md holds the nginx block")

        // Pages and the API.
        let page = try await HTTPTestClient.get(port: nginx.port, "/", timeout: 5)
        #expect(page.status == 200)
        #expect(page.text.contains("Story number 5"))
        let direct = try await HTTPTestClient.get(port: feedweb.port, "/", timeout: 5)
        #expect(
            page.headers["content-security-policy"] == direct.headers["content-security-policy"]
                && direct.headers["content-security-policy"]?.contains("script-src 'self'") == true,
            "feedweb's CSP passes through unchanged")
        #expect(try await HTTPTestClient.get(port: nginx.port, "/readyz", timeout: 5).status == 200)

        // /events: the first data, then each patch as it happens, not when a buffer fills.
        let client = try await SSETestClient(port: nginx.port, path: "/events")
        #expect(client.status == 200)
        #expect(client.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        let data = try await client.next(type: "data", within: 5)
        #expect(try JSONValue(parsing: data.data) == upstream.document)
        var ids: [String] = []
        for n in 0..<3 {
            try await upstream.change([Patch.add("/results/0", NewswireFeed.story(300 + n))])
            let started = Date()
            let patch = try await client.next(type: "patch", within: 3)
            #expect(Date().timeIntervalSince(started) < 2, "patch \(n) was not held back by the proxy")
            ids.append(patch.id)
        }
        #expect(try await FeedwebProbe.state(port: nginx.port).id == ids.last)

        // Resume through the proxy: Last-Event-ID reaches feedweb, only the missed patches come.
        let resumed = try await SSETestClient(port: nginx.port, path: "/events", headers: ["Last-Event-ID": ids[0]])
        let missed = [
            try await resumed.next(before: Date().addingTimeInterval(5)),
            try await resumed.next(before: Date().addingTimeInterval(5)),
        ]
        .filter { $0.type == "patch" || $0.type == "data" }
        #expect(missed.map(\.type) == ["patch", "patch"])
        #expect(missed.map(\.id) == Array(ids.dropFirst()))

        // The other two stream endpoints.
        let items = try await SSETestClient(port: nginx.port, path: "/events/items")
        #expect(try await items.next(type: "snapshot", within: 5).id == ids.last)
        let pageStream = try await SSETestClient(port: nginx.port, path: "/events/page?view=list")
        #expect(pageStream.status == 200)
        try await upstream.change([Patch.replace("/results/0/title", .string("Edited through the proxy"))])
        let updated = try await items.next(type: "updated", within: 3)
        #expect(updated.data.contains("Edited through the proxy"))
        await nginx.stop()
        await upstream.shutdown()
    }
}
