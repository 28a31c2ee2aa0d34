import Foundation

/// One thing that happened to the upstream subscription, as the source (an
/// ``UpstreamConnection``, of any kind) saw it: what `/readyz`, the status
/// badge, `/stats` and `/metrics` fold over (``UpstreamStatus/apply(_:)``,
/// ``UpstreamStatusPublisher``).
///
/// Events say what happened, never what a counter now reads: a consumer that counts them
/// sees each once, in the order the source published them. An event carries a time (a
/// wall-clock instant taken by the source when it happened) where the status keeps one;
/// sizes are in bytes.
public enum UpstreamEvent: Sendable, Equatable {
    /// The first attempt to connect (or to poll) starts.
    case connecting
    /// A later attempt starts; `reason` is what ended the previous one (the error also
    /// reported by the ``backingOff(until:error:at:)`` or
    /// ``stoppedByUpstream(until:error:at:)`` before it).
    case reconnecting(reason: String?)
    /// Upstream answered: the SSE stream is open, or a poll succeeded after none or a
    /// failure.
    case opened(at: Date)
    /// A stream's request was answered (an SSE response head, a WebSocket upgrade): HTTP
    /// `status`, `requestedAt` when the request went out, `at` when the answer came. Every
    /// answer counts, a refusal too; `/inspect` lists them as upstream exchanges.
    case answered(status: Int, requestedAt: Date, at: Date)
    /// One poll's whole exchange: HTTP `status`, the body's `bytes`, from `requestedAt`
    /// to `at` (its body read).
    case polled(status: Int, bytes: UInt64, requestedAt: Date, at: Date)
    /// Body bytes arrived: one read of the SSE stream (framing, comments and heartbeats
    /// included), or the body of one poll's answer.
    case received(bytes: UInt64)
    /// `count` upstream events (or one successful poll) were handled: their effect is in
    /// the store. More than one when the events of one read were committed together.
    case eventHandled(count: Int = 1, at: Date)
    /// A patch (or document) could not be applied and was rejected whole; the connection
    /// ends to resynchronise. `reason` says why, in words.
    case rejected(reason: String)
    /// Upstream sent an `event: error` with `message`.
    case upstreamError(message: String)
    /// An event was counted and ignored (an unknown type, data a dialect cannot read);
    /// `reason` says why, in words.
    case ignored(reason: String)
    /// The connection (or poll) ended with `error` at `at`; the next attempt is at `until`.
    case backingOff(until: Date, error: String, at: Date)
    /// Upstream answered 204 (stop) at `at`; the next attempt is at `until`, after the
    /// longest backoff.
    case stoppedByUpstream(until: Date, error: String, at: Date)
    /// The source was shut down.
    case stopped
    /// Cluster mode: `node` took the lead of the cluster in `term` (every node publishes
    /// it when its reader sees the term change).
    case leaderChanged(node: String, term: UInt64)
}
