import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// What the pages say when upstream's answers fail: before any document, "Upstream failing"
/// with upstream's own error (escaped) on the badge, the kiosk's banner and in place of the
/// items; with a document, the error beside "Reconnecting…" or "Stale since"; gone once
/// connected. The page streams carry each new error to the open pages.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct UpstreamProblemBadgeTests {
    /// An error as a hostile upstream could make one: its Content-Type quoted back.
    static let hostileError = "upstream's answer is not JSON (Content-Type text/<b>html</b>): unexpected '<' (0x3C)"

    static func classes(_ element: HTMLText.Element) -> [Substring] {
        element.attributes["class"]?.split(separator: " ") ?? []
    }

    /// The `.badge-problem` span's text in `html` as written (escaped), if it has one.
    static func problem(in html: String) -> String? {
        guard let match = html.firstMatch(of: /<span class="badge-problem"[^>]*>([^<]*)<\/span>/) else { return nil }
        return String(match.1)
    }

    @Test("a problem that ends its sentence is not given a second full stop")
    func oneFullStop() async throws {
        let server = try TestServer(document: nil)
        server.setStatus {
            $0.phase = .backingOff(until: Date() + 5)
            $0.lastError = #"GraphQL: Cannot query field "x" on type "Query"."#
            $0.lastErrorAt = Date()
        }
        let list = try await HTTPTestClient.get(port: server.port, "/")
        let empty = try #require(HTMLText.element(withID: "empty", in: list.text))
        #expect(empty.text.contains("&quot;Query&quot;. feedweb tries again"), "\(empty)")
        #expect(!empty.text.contains(".."), "\(empty)")
    }

    @Test("no document yet: the list, the table and the kiosk say what upstream answered, escaped, through retries")
    func failingBeforeAnyDocument() async throws {
        let server = try TestServer(document: nil)
        let failedAt = Date()
        server.setStatus {
            $0.phase = .backingOff(until: failedAt + 5)
            $0.lastError = Self.hostileError
            $0.lastErrorAt = failedAt
        }
        for path in ["/", "/kiosk"] {
            let page = try await HTTPTestClient.get(port: server.port, path)
            #expect(page.status == 200)
            let badge = try #require(HTMLText.element(withID: "status", in: page.text), "\(path)")
            #expect(Self.classes(badge).contains(path == "/" ? "badge-failing" : "board-status-failing"), "\(badge)")
            #expect(badge.text.hasPrefix("Upstream failing"), "\(badge)")
            #expect(Self.problem(in: page.text) == HTMLText.escaped(Self.hostileError), "\(path)")
            #expect(!page.text.contains("<b>html</b>"), "upstream's words are escaped on \(path)")
        }
        let list = try await HTTPTestClient.get(port: server.port, "/")
        let empty = try #require(HTMLText.element(withID: "empty", in: list.text))
        #expect(
            empty.text.contains("No document from upstream yet: " + HTMLText.escaped(Self.hostileError)), "\(empty)")
        #expect(HTMLText.element(withID: "count", in: list.text)?.text == "", "no count of items not yet read")
        // Nor does the page stream count them ("0 stories" of a feed that may not be news).
        let stream = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        defer { stream.close() }
        let first = try JSONValue(parsing: try await stream.expectNext("items").data)
        let count = first["count"]?.stringValue
        #expect(count == nil || count == "", "\(first)")

        // The next attempt under way: the error it follows is still said (no flicker).
        server.setStatus { $0.phase = .connecting }
        let retrying = try await HTTPTestClient.get(port: server.port, "/")
        #expect(Self.problem(in: retrying.text) == HTMLText.escaped(Self.hostileError))

        // Connected, the document not here yet: waiting for it, and no error.
        server.setStatus {
            $0.phase = .open
            $0.connectedSince = Date()
        }
        let open = try await HTTPTestClient.get(port: server.port, "/")
        let badge = try #require(HTMLText.element(withID: "status", in: open.text))
        #expect(Self.classes(badge).contains("badge-waiting") && badge.text.contains("Waiting for data"), "\(badge)")
        #expect(Self.problem(in: open.text) == nil)
        #expect(
            HTMLText.element(withID: "empty", in: open.text)?.text.hasPrefix("Waiting for the first document") == true)

        // Connected, and upstream sent an error of its own (a refused token): that is why.
        let refusal = "auth_invalid: Invalid <b>access token</b> or password"
        server.setStatus { $0.lastUpstreamError = refusal }
        let refused = try await HTTPTestClient.get(port: server.port, "/")
        let refusedBadge = try #require(HTMLText.element(withID: "status", in: refused.text))
        #expect(Self.classes(refusedBadge).contains("badge-failing"), "\(refusedBadge)")
        #expect(Self.problem(in: refused.text) == HTMLText.escaped("upstream said: " + refusal))
        #expect(!refused.text.contains("<b>access"))
        // Upstream closes after it; the retries' error and upstream's words together.
        server.setStatus {
            $0.phase = .backingOff(until: Date() + 5)
            $0.lastError = "the WebSocket closed (1000)"
        }
        let closed = try await HTTPTestClient.get(port: server.port, "/")
        #expect(
            Self.problem(in: closed.text) == HTMLText.escaped("the WebSocket closed (1000); upstream said: " + refusal))
    }

    @Test("a table feed's page says it too; with --inspect off only that upstream fails, not its words")
    func tableAndInspectOff() async throws {
        let server = try TestServer(document: nil, profile: .generic)
        server.setStatus {
            $0.phase = .backingOff(until: Date() + 5)
            $0.lastError = "connection refused by 10.1.2.3:8080"
        }
        let page = try await HTTPTestClient.get(port: server.port, "/")
        #expect(
            HTMLText.element(withID: "empty", in: page.text)?.text.contains("connection refused by 10.1.2.3:8080")
                == true)

        let hidden = try TestServer(document: nil, inspect: false)
        hidden.setStatus {
            $0.phase = .backingOff(until: Date() + 5)
            $0.lastError = "connection refused by 10.1.2.3:8080"
        }
        let quiet = try await HTTPTestClient.get(port: hidden.port, "/")
        let badge = try #require(HTMLText.element(withID: "status", in: quiet.text))
        #expect(Self.classes(badge).contains("badge-failing"), "\(badge)")
        #expect(!quiet.text.contains("10.1.2.3"), "no upstream address on a page with --inspect off")
        #expect(HTMLText.element(withID: "empty", in: quiet.text)?.text.contains("its answers fail") == true)
    }

    @Test("with a document: each new error reaches the open page beside Reconnecting…; connected again, it goes")
    func errorsReachOpenPages() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 3))
        let handlers = server.handlers
        let upstream = UpstreamStatusPublisher(source: "test")
        upstream.observe { _, status in server.setStatus { $0 = status } }
        upstream.observe { event, status in handlers.upstreamEventOccurred(event, status: status) }
        let loop = Task { await handlers.pageStreams.run() }
        defer { loop.cancel() }
        upstream.publish(.connecting)
        upstream.publish(.opened(at: Date()))
        upstream.publish(.eventHandled(at: Date()))
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        defer { page.close() }
        _ = try await page.expectNext("items")

        /// The next badge frame's html whose problem is `expected`.
        func badge(saying expected: String?) async throws -> String {
            while true {
                let event = try await page.expectNext("status")
                let html = try JSONValue(parsing: event.data)["html"]?.stringValue ?? ""
                if Self.problem(in: html) == expected { return html }
            }
        }

        var now = Date()
        upstream.publish(.backingOff(until: now + 5, error: "upstream answered HTTP 502", at: now))
        let first = try await badge(saying: "upstream answered HTTP 502")
        #expect(first.contains("badge-reconnecting"), "\(first)")
        upstream.publish(.connecting)
        now = Date()
        upstream.publish(.backingOff(until: now + 5, error: Self.hostileError, at: now))
        let second = try await badge(saying: HTMLText.escaped(Self.hostileError))
        #expect(!second.contains("<b>html</b>"))
        upstream.publish(.connecting)
        upstream.publish(.opened(at: Date()))
        let live = try await badge(saying: nil)
        #expect(live.contains("badge-live"), "\(live)")
    }
}
