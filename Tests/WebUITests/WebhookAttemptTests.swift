import FeedCore
import Foundation
import Testing

@testable import WebUI

/// What a webhook's answer comes to, without I/O, and what a notification says.
@Suite("Webhook attempts")
struct WebhookAttemptTests {
    @Test("2xx delivered; a busy or failing receiver asked again with backoff or its Retry-After; others given up")
    func answers() {
        #expect(WebhookAttempt.answered(status: 204, retryAfter: nil, attempt: 1) == .delivered)
        #expect(WebhookAttempt.answered(status: 200, retryAfter: nil, attempt: 5) == .delivered)
        #expect(
            WebhookAttempt.answered(status: 503, retryAfter: nil, attempt: 1)
                == .retry(after: .seconds(1), why: "answered 503"))
        #expect(
            WebhookAttempt.answered(status: 500, retryAfter: nil, attempt: 3)
                == .retry(after: .seconds(4), why: "answered 500"))
        #expect(
            WebhookAttempt.answered(status: 429, retryAfter: .seconds(30), attempt: 1)
                == .retry(after: .seconds(30), why: "answered 429"))
        #expect(
            WebhookAttempt.answered(status: 429, retryAfter: .seconds(3600), attempt: 1)
                == .retry(after: WebhookAttempt.longestWait, why: "answered 429"), "at most a minute")
        #expect(WebhookAttempt.answered(status: 503, retryAfter: nil, attempt: 5) == .failed("answered 503, 5 times"))
        for status in [301, 400, 401, 404, 410] {
            #expect(
                WebhookAttempt.answered(status: status, retryAfter: nil, attempt: 1) == .failed("answered \(status)"))
        }
        #expect(
            WebhookAttempt.failed("connection refused", attempt: 2)
                == .retry(after: .seconds(2), why: "connection refused"))
        #expect(WebhookAttempt.failed("connection refused", attempt: 5) == .failed("connection refused, 5 times"))
    }

    @Test("a notification per item and mark it came to match, with the item as the feed sent it")
    func notifications() throws {
        let mark = try ItemMark(parsing: "Above 100:/price>100")
        var profile = ItemProfile.generic
        profile.keyPath = JSONPointer(tokens: ["symbol"])
        profile.marks = [mark]
        func item(_ price: Double) -> FeedItem {
            ItemExtractor(profile: profile).item(from: .object(["symbol": .string("BTC"), "price": .double(price)]))
        }
        let changes = [
            ItemChange(kind: .updated, item: item(101), previous: item(99)),
            ItemChange(kind: .updated, item: item(102), previous: item(101)),
        ]
        let at = Date(timeIntervalSince1970: 1_796_434_000)
        let notifications = WebhookNotification.of(
            changes, at: at, feed: "Prices", links: .paths, origin: "http://127.0.0.1:8080")
        #expect(notifications.count == 1, "only the crossing")
        let body = try JSONValue(parsing: String(decoding: try #require(notifications.first).body, as: UTF8.self))
        #expect(body["text"] == .string("Above 100: BTC") && body["content"] == body["text"])
        #expect(body["url"] == .string("http://127.0.0.1:8080/items/BTC"))
        #expect(body["at"] == .string("2026-12-05T01:26:40Z"))
        #expect(body["item"] == .object(["symbol": .string("BTC"), "price": .double(101)]))
    }
}
