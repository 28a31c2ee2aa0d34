import Foundation
import Logging
import NIOConcurrencyHelpers

/// What every attempt of one ``UpstreamConnection`` shares: the endpoint and settings, the
/// store it feeds, the log, where its events are published, and the reconnect state (the
/// ``ReconnectPolicy`` and the last event id) that outlives each connection.
///
/// The lock guards ``State`` only: decided under it, acted on after (events are published,
/// the store written, only once it is released). No other lock is taken while it is held.
final class UpstreamSession: Sendable {
    struct State: Sendable {
        var policy: ReconnectPolicy
        /// Sent as `Last-Event-ID`; cleared after a rejected event so that a resuming
        /// upstream answers with a snapshot.
        var lastEventID = ""
        /// Relay mode: the upstream feedweb's epoch last adopted by the store.
        var adoptedEpoch: String?
        /// The last `X-Poll-Interval` upstream asked (``RetryAfter``), logged when it changes.
        var pollIntervalAsked: Duration?
    }

    let endpoint: UpstreamEndpoint
    let configuration: UpstreamConfiguration
    let store: FeedStore
    let logger: Logger
    /// The log handed to the HTTP and WebSocket libraries: at most at `info`, since at
    /// `debug` and `trace` they log what they send, request headers (secrets) included.
    let libraryLogger: Logger
    let publisher: UpstreamStatusPublisher
    /// ``endpoint``'s URL redacted: the only form of it that is logged or shown.
    let shownURL: String
    private let state: NIOLockedValueBox<State>

    init(
        endpoint: UpstreamEndpoint, configuration: UpstreamConfiguration, policy: ReconnectPolicy, store: FeedStore,
        logger: Logger
    ) {
        self.endpoint = endpoint
        self.configuration = configuration
        self.store = store
        self.logger = logger
        var libraryLogger = logger
        libraryLogger.logLevel = max(logger.logLevel, .info)
        self.libraryLogger = libraryLogger
        shownURL = URLRedaction.redacted(endpoint.url.absoluteString)
        publisher = UpstreamStatusPublisher(source: shownURL)
        state = NIOLockedValueBox(State(policy: policy))
    }

    /// Publishes `event` (see ``UpstreamStatusPublisher/publish(_:)``).
    func publish(_ event: UpstreamEvent) {
        publisher.publish(event)
    }

    /// The id a reconnect sends as `Last-Event-ID` (`""`: none).
    var lastEventID: String {
        get { state.withLockedValue { $0.lastEventID } }
        set { state.withLockedValue { $0.lastEventID = newValue } }
    }

    /// Relay mode: the upstream feedweb's epoch last adopted by the store (`nil`: none).
    var adoptedEpoch: String? {
        get { state.withLockedValue { $0.adoptedEpoch } }
        set { state.withLockedValue { $0.adoptedEpoch = newValue } }
    }

    /// The stream reached `lastEventID`, and upstream set the reconnection time to
    /// `retry` milliseconds (`nil`: unchanged).
    func advance(lastEventID: String, retry: Int?) {
        state.withLockedValue { state in
            state.lastEventID = lastEventID
            if let retry { state.policy.retryInterval = .milliseconds(retry) }
        }
    }

    /// The connection delivered an event (or a poll succeeded): the next delay starts from
    /// the base again.
    func delivered() {
        state.withLockedValue { $0.policy.reset() }
    }

    /// The delay before the next attempt after one that ended with `error`, counting the
    /// attempt: the full cap after a 204, else the policy's backoff with jitter above it; never
    /// shorter than `notBefore`, what upstream asked (``RetryAfter``).
    func delay(after error: UpstreamError, notBefore: Duration? = nil) -> Duration {
        let delay = state.withLockedValue { state in
            error == .noContent
                ? state.policy.delayAfterStopRequest() : state.policy.nextDelay(random: .random(in: 0..<1))
        }
        return max(delay, notBefore ?? .zero)
    }

    /// What upstream's answer with `status` and `headers` asks feedweb to wait
    /// (``RetryAfter``), logged when it asks anything.
    func askedWait(status: Int, headers: [(name: String, value: String)]) -> Duration? {
        guard let asked = RetryAfter.asked(status: status, headers: headers, now: .now()) else { return nil }
        let seconds = String(format: "%.0f", asked.wait.timeInterval)
        switch asked.header {
        case "Retry-After":
            logger.warning("upstream: HTTP \(status) asks to wait \(seconds) s (Retry-After); the next request waits")
        case "X-Poll-Interval":
            // Said on every answer: logged when it changes, as the API's pace, not a failure.
            let changed = state.withLockedValue { state in
                defer { state.pollIntervalAsked = asked.wait }
                return state.pollIntervalAsked != asked.wait
            }
            if changed { logger.info("upstream: polled at most every \(seconds) s, as its X-Poll-Interval asks") }
        default:
            logger.warning(
                "upstream: HTTP \(status) says the rate limit is spent until its reset in \(seconds) s (\(asked.header)); the next request waits"
            )
        }
        return asked.wait
    }
}
