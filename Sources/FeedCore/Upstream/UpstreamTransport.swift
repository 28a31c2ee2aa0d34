/// One way of reaching upstream: what one attempt does, from connecting to the end of the
/// connection (or of one poll). The loop around the attempts — status, backoff, the
/// reconnect — is ``UpstreamConnection``'s, written once for every transport.
///
/// A transport does I/O at the edge and hands everything it reads to its I/O-free protocol
/// type (an ``SSEDialect``, ``PollingProtocol``, ``MessageProtocol``).
protocol UpstreamTransport: Sendable {
    /// What the transport keeps open across attempts (an HTTP client), made when the loop
    /// starts and released when it ends.
    associatedtype Resources: Sendable

    func makeResources() -> Resources
    func release(_ resources: Resources) async

    /// One attempt; `nil` when the task was cancelled (how it ended is then no error).
    func attempt(with resources: Resources, session: UpstreamSession) async -> UpstreamAttemptOutcome?

    /// Makes the next attempt resume after `position` (see ``UpstreamPosition``); by
    /// default, as SSE's `Last-Event-ID`.
    func resume(from position: String, session: UpstreamSession)
}

extension UpstreamTransport {
    func resume(from position: String, session: UpstreamSession) {
        session.lastEventID = position
    }
}

/// How one attempt ended.
enum UpstreamAttemptOutcome: Sendable, Equatable {
    /// It failed or the connection ended: back off, then reconnect; not before `notBefore`
    /// when upstream asked to wait (``RetryAfter``).
    case ended(UpstreamError, notBefore: Duration? = nil)
    /// A poll succeeded: ask again after `delay`.
    case pollAgain(after: Duration)
}

extension UpstreamTransport where Resources == Void {
    func makeResources() {}
    func release(_ resources: Void) async {}
}
