/// One thing ``FeedStatistics`` counts. Times are passed beside it, never read from a clock.
public enum StatsEvent: Sendable {
    /// Body bytes arrived from upstream (SSE framing and heartbeats included; when
    /// polling, the bodies of the answers).
    case received(bytes: UInt64)
    /// The mirror changed.
    case accepted(AcceptedChange)
    /// The upstream connection was opened again; `reason` is what ended the previous one.
    case reconnect(reason: String?)
    /// An upstream patch (or document) did not apply and was rejected whole.
    case rejectedPatch(reason: String?)
    /// Cluster mode: another node (or this one) took the lead; `detail` names it.
    case leaderChange(detail: String)
}
