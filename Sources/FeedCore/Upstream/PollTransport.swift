import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Polling a JSON REST API (`--poll URL --interval SECONDS`): one attempt is one
/// conditional GET (following redirects); a new document goes to
/// ``FeedStore/replaceDocument(_:)``, which turns a changed one into the diff patch. The
/// decisions are ``PollingProtocol``'s.
///
/// Status, as every source publishes it: ``UpstreamEvent/opened(at:)`` on the first
/// successful answer (`200` with JSON, or `304`) after none or a failure, then one
/// ``UpstreamEvent/eventHandled(count:at:)`` per successful answer and one
/// ``UpstreamEvent/received(bytes:)`` per answer's body. A failure ends the attempt
/// like any other (backoff from the interval, doubling up to `--max-backoff` or the
/// interval, if longer); the state and the validators are kept. The whole request is
/// bounded by `--read-timeout`.
struct PollTransport: HTTPTransport {
    let clientConfiguration: HTTPClient.Configuration
    let interval: Duration
    private let validators = ValidatorsBox()

    init(clientConfiguration: HTTPClient.Configuration, interval: Duration) {
        self.clientConfiguration = clientConfiguration
        self.interval = interval
    }

    func attempt(with client: HTTPClient, session: UpstreamSession) async -> UpstreamAttemptOutcome? {
        var redirects = UpstreamRedirects(start: session.endpoint.url, body: session.configuration.pollBody)
        let sent = validators.value
        let maxBodyBytes = session.configuration.maxEventBytes
        let requestedAt = Date()
        var asked: Duration?
        do {
            let deadline = NIODeadline.now() + HTTPUpstream.timeAmount(session.configuration.readTimeout)
            let response = try await HTTPUpstream.request(
                client, redirects: &redirects, deadline: deadline, session: session
            ) { redirects in
                PollingProtocol.requestHeaders(
                    configured: redirects.headers(session.endpoint.headers), validators: sent,
                    posting: redirects.body != nil
                )
                .filter { UpstreamEndpoint.isValidHeaderValue($0.value) }
            }
            let code = Int(response.status.code)
            var body: [UInt8] = []
            defer {
                session.publish(
                    .polled(status: code, bytes: UInt64(body.count), requestedAt: requestedAt, at: Date()))
            }
            if PollingProtocol.wantsBody(status: code) {
                if let why = PollingProtocol.unreadable(contentType: response.headers.first(name: "Content-Type")) {
                    return .ended(.unusableAnswer(why))
                }
                let buffer: ByteBuffer
                do {
                    buffer = try await response.body.collect(upTo: maxBodyBytes)
                } catch is NIOTooManyBytesError {
                    return .ended(.unusableAnswer("upstream's answer exceeded \(maxBodyBytes) bytes"))
                }
                body = Array(buffer.readableBytesView)
                session.publish(.received(bytes: UInt64(body.count)))
            }
            var reason: String?
            if PollingProtocol.wantsReason(status: code) {
                let said = await HTTPUpstream.reason(of: response, session: session)
                reason = said.reason
                session.publish(.received(bytes: UInt64(said.bytes)))
            }
            let received = MonotonicTime.now()
            let headers = response.headers.map { (name: $0.name, value: $0.value) }
            asked = session.askedWait(status: code, headers: headers)
            let answer = PollingProtocol.interpret(
                status: code, headers: headers, body: body, sent: sent, reason: reason,
                posted: session.configuration.pollBody != nil)
            let arrival = UpstreamArrival(received: received, parsed: MonotonicTime.now())
            switch answer {
            case .notModified:
                session.logger.debug("upstream: 304 not modified")
            case .document(let document, let validators):
                self.validators.value = validators
                if let change = session.store.replaceDocument(
                    document, position: UpstreamPosition.encode(validators), arrival: arrival)
                {
                    session.logger.debug("upstream: new document, change \(change.snapshot.id.seq)")
                }
            case .failure(let message):
                return .ended(.unusableAnswer(message), notBefore: asked)
            }
        } catch {
            return TransportFailure.outcome(of: error, url: redirects.url)
        }
        session.delivered()
        let now = Date()
        if !session.publisher.status.isConnected {
            session.publish(.opened(at: now))
            session.logger.info("upstream: polling \(session.shownURL) every \(interval)")
        }
        session.publish(.eventHandled(at: now))
        // A rate limit spent by this poll: the next waits for its reset.
        return .pollAgain(after: max(interval, asked ?? .zero))
    }

    /// The next request is conditional on the validators `position` holds.
    func resume(from position: String, session: UpstreamSession) {
        if let validators = UpstreamPosition.validators(from: position) { self.validators.value = validators }
    }
}

/// The validators of the last document, sent with the next request. Guards the value
/// only; a leaf lock.
private final class ValidatorsBox: Sendable {
    private let box = NIOLockedValueBox(PollingProtocol.Validators())

    var value: PollingProtocol.Validators {
        get { box.withLockedValue { $0 } }
        set { box.withLockedValue { $0 = newValue } }
    }
}
