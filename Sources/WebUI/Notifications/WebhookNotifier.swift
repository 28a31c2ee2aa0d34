import AsyncHTTPClient
import FeedCore
import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Tells the web when an item comes to match a `--mark`: each ``WebhookNotification`` is
/// POSTed to every `--webhook`, with its `--webhook-header`s. A consumer of the fan-out
/// (``FanoutStage``): it only queues, so no page and no stream waits for a webhook.
///
/// - Each webhook has its own queue and sends in order, one notification at a time, so a
///   slow or failing one delays no other. A queue holds at most ``queueLimit``: past that
///   the oldest waiting is dropped, counted and logged, so a receiver that is down never
///   grows memory without bound.
/// - Each notification is tried as ``WebhookAttempt`` says (5 attempts, backoff, the
///   receiver's `Retry-After`); one given up is logged and counted, and the next follows.
/// - Only changes notify: the first document after a start (a restart, a restored state)
///   is the items as they are, and notifies nothing.
/// - In a cluster, only the node that leads notifies (``isSender``), so a mark is told
///   once; a notification queued when the lead moves is still sent.
///
/// Metrics: `feedweb_webhook_notifications_total{result="delivered"|"failed"|"dropped"}`.
final class WebhookNotifier: Sendable {
    /// One `--webhook`: where, and the headers sent with each notification.
    struct Target: Sendable {
        let url: String
        let headers: [(name: String, value: String)]

        /// How the logs name it: its scheme and host only (`https://hooks.slack.com/…`), as
        /// a chat's webhook keeps its secret in the path.
        var shown: String {
            guard let components = URLComponents(string: url), let scheme = components.scheme,
                let host = components.host
            else { return "(a webhook)" }
            let port = components.port.map { ":\($0)" } ?? ""
            return "\(scheme)://\(host)\(port)/…"
        }
    }

    /// The most notifications waiting for one webhook.
    static let queueLimit = 1000

    private let targets: [Target]
    private let queues: [AsyncStream<WebhookNotification>.Continuation]
    private let streams: [AsyncStream<WebhookNotification>]
    private let feed: String
    private let links: PageLinks
    /// Where feedweb listens, for the items' URLs when ``links`` are paths (``serve(at:)``).
    /// A leaf lock.
    private let origin = NIOLockedValueBox("")
    private let isSender: @Sendable () -> Bool
    private let logger: Logger
    private let counters: Counters

    /// `feedweb_webhook_notifications_total`, by result.
    struct Counters: Sendable {
        let delivered: Counter
        let failed: Counter
        let dropped: Counter
    }

    init(
        targets: [Target], feed: String, links: PageLinks, counters: Counters, logger: Logger,
        isSender: @escaping @Sendable () -> Bool = { true }
    ) {
        self.counters = counters
        self.targets = targets
        var queues: [AsyncStream<WebhookNotification>.Continuation] = []
        var streams: [AsyncStream<WebhookNotification>] = []
        for _ in targets {
            let (stream, queue) = AsyncStream.makeStream(
                of: WebhookNotification.self, bufferingPolicy: .bufferingNewest(Self.queueLimit))
            streams.append(stream)
            queues.append(queue)
        }
        self.queues = queues
        self.streams = streams
        self.feed = feed
        self.links = links
        self.isSender = isSender
        self.logger = logger
    }

    /// Where feedweb listens once it does (`http://127.0.0.1:8080`): the origin of the items'
    /// URLs when the links are paths (no `--public-origin`).
    func serve(at origin: String) {
        self.origin.withLockedValue { $0 = origin }
    }

    /// Queues a notification for each item of `change` that came to match a mark, for
    /// every webhook. The fan-out's consumer: returns at once.
    func deliver(_ change: FanoutChange) {
        guard let changes = change.itemChanges, changes.contains(where: { !$0.newMarks.isEmpty }), isSender() else {
            return
        }
        let notifications = WebhookNotification.of(
            changes, at: Date(), feed: feed, links: links, origin: origin.withLockedValue { $0 })
        for (target, queue) in zip(targets, queues) {
            for notification in notifications {
                if case .dropped(let oldest) = queue.yield(notification) {
                    counters.dropped.increment()
                    logger.warning(
                        "webhook \(target.shown): \(Self.queueLimit) notifications waiting; dropped the oldest (\(oldest.text))"
                    )
                }
            }
        }
    }

    /// Sends what is queued until cancelled; then what still waits is dropped, and said.
    func run() async {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(5), read: .seconds(10))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        await withTaskGroup(of: Void.self) { group in
            for (target, stream) in zip(targets, streams) {
                group.addTask { await self.send(stream, to: target, with: client) }
            }
            await withTaskCancellationHandler {
                await group.waitForAll()
            } onCancel: {
                for queue in queues { queue.finish() }
            }
        }
        try? await client.shutdown()
    }

    /// Sends each notification of `stream` to `target` in turn, until the stream ends.
    private func send(_ stream: AsyncStream<WebhookNotification>, to target: Target, with client: HTTPClient) async {
        let shown = target.shown
        var left = 0
        for await notification in stream {
            if Task.isCancelled {
                left += 1
                continue
            }
            var attempt = 1
            while true {
                let outcome = await self.attempt(notification, to: target, with: client, number: attempt)
                switch outcome {
                case .delivered:
                    counters.delivered.increment()
                case .failed(let why):
                    counters.failed.increment()
                    logger.warning("webhook \(shown): gave up telling \(notification.text): \(why)")
                case .retry(let wait, let why):
                    logger.notice("webhook \(shown): \(why); trying again in \(wait)")
                    do { try await Task.sleep(for: wait) } catch { break }
                    attempt += 1
                    continue
                }
                break
            }
        }
        if left > 0 { logger.notice("webhook \(shown): stopping with \(left) notification(s) not sent") }
    }

    /// One attempt to POST `notification` to `target`.
    private func attempt(_ notification: WebhookNotification, to target: Target, with client: HTTPClient, number: Int)
        async -> WebhookAttempt
    {
        var request = HTTPClientRequest(url: target.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "feedweb")
        for header in target.headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: notification.body))
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { Int64($0) }.map {
                Duration.seconds(max(0, $0))
            }
            return WebhookAttempt.answered(status: Int(response.status.code), retryAfter: retryAfter, attempt: number)
        } catch {
            return WebhookAttempt.failed("\(error)", attempt: number)
        }
    }
}
