import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// The upstream status badge on the list and detail pages: live, reconnecting, or stale
/// since a time, with "updated N s ago".
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct StatusBadgeTests {
    /// The pages that carry the badge: the list and a detail page (found by its title).
    static let pages = ["/", "detail"]

    let server: TestServer
    /// Bounds on when the test's document was published.
    let publishedAfter: Date
    let publishedBefore: Date

    init() throws {
        publishedAfter = Date()
        server = try TestServer(document: NewswireFeed.document(count: 4))
        publishedBefore = Date()
    }

    /// The path of `page`: the list, or the detail page of "Story number 2".
    func path(_ page: String) async throws -> String {
        guard page == "detail" else { return page }
        let items = try JSONValue(parsing: try await HTTPTestClient.get(port: server.port, "/api/items").body)
        let item = try #require(items.arrayValue?.first { $0["title"]?.stringValue == "Story number 2" })
        return "/items/" + (try #require(item["key"]?.stringValue))
    }

    /// The badge of the page at `path`, and the page.
    func readBadge(_ path: String) async throws -> (badge: HTMLText.Element, html: String) {
        let response = try await HTTPTestClient.get(port: server.port, path)
        #expect(response.status == 200, "\(path)")
        return (
            try #require(HTMLText.element(withID: "status", in: response.text), "\(path) has a badge"), response.text
        )
    }

    @Test(arguments: pages)
    func liveBadgeSaysLiveAndHowLongAgoTheFeedWasUpdated(page: String) async throws {
        let path = try await path(page)
        let (badge, html) = try await readBadge(path)
        let fetched = Date()
        #expect(badge.attributes["class"]?.split(separator: " ").contains("badge-live") == true, "\(badge)")
        #expect(badge.text.lowercased().hasPrefix("live "), "\(badge)")

        // "updated N s ago", N the seconds since the test published its document.
        let words = try #require(badge.text.firstMatch(of: /updated (\d+) s ago$/), "\(badge)")
        let seconds = try #require(Int(words.1))
        #expect(seconds >= 0 && Double(seconds) <= fetched.timeIntervalSince(publishedAfter) + 1, "\(badge)")
        // The same moment, machine-readable (to the second), for the page script.
        let machine = try #require(
            html.firstMatch(of: /<span class="badge-updated">updated <time datetime="([^"]+)"/)?.1)
        let updated = try #require(try? Date(String(machine), strategy: Date.ISO8601FormatStyle()))
        #expect(updated >= publishedAfter.addingTimeInterval(-1) && updated <= publishedBefore, "\(machine)")
    }

    @Test(arguments: pages)
    func brokenConnectionShowsReconnectingThenStaleSinceTheLastEvent(page: String) async throws {
        let path = try await path(page)
        let now = Date()

        // Cut off a moment ago: reconnecting.
        server.setStatus {
            $0.phase = .backingOff(until: now.addingTimeInterval(5))
            $0.lastEventAt = now.addingTimeInterval(-3)
        }
        var badge = try await readBadge(path).badge
        #expect(badge.attributes["class"]?.split(separator: " ").contains("badge-reconnecting") == true, "\(badge)")
        #expect(badge.text.lowercased().hasPrefix("reconnecting"), "\(badge)")
        #expect(!badge.text.lowercased().contains("live") && !badge.text.lowercased().contains("stale"), "\(badge)")

        // Inside the threshold: still reconnecting. (Half of it: the page is read a moment
        // later, and on a loaded machine that moment has been more than 2 s.)
        server.setStatus { $0.lastEventAt = Date().addingTimeInterval(-(StatusBadge.staleAfter / 2)) }
        badge = try await readBadge(path).badge
        #expect(badge.attributes["class"]?.split(separator: " ").contains("badge-reconnecting") == true, "\(badge)")

        // Past it: stale since the last event, at its wall-clock minute.
        let lastEvent = Date().addingTimeInterval(-(StatusBadge.staleAfter + 32))
        server.setStatus { $0.lastEventAt = lastEvent }
        badge = try await readBadge(path).badge
        #expect(badge.attributes["class"]?.split(separator: " ").contains("badge-stale") == true, "\(badge)")
        #expect(badge.text.lowercased().hasPrefix("stale since \(UTCClock.hoursMinutes(lastEvent))"), "\(badge)")

        // Connected again: live.
        server.setStatus {
            $0.phase = .open
            $0.connectedSince = Date()
            $0.lastEventAt = Date()
        }
        badge = try await readBadge(path).badge
        #expect(badge.attributes["class"]?.split(separator: " ").contains("badge-live") == true, "\(badge)")
        #expect(badge.text.lowercased().hasPrefix("live "), "\(badge)")
    }
}
