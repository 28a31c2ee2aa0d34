/// One accepted change, as observers of ``FeedStore`` receive it.
public struct FeedChange: Sendable {
    /// How the mirror changed.
    public enum Kind: Sendable {
        /// The first document (or one after the state was reset): no patch describes it.
        case snapshot
        /// The patch that turned the previous mirror into the new one, with its compact
        /// JSON encoding (shared by history and every SSE client).
        case patch(JSONPatch, encoded: [UInt8])
    }

    public let kind: Kind
    /// The state after the change.
    public let snapshot: FeedSnapshot
    /// The published view before the change (`nil` before the first document).
    public let previousPublished: PublishedView?
    /// How many upstream changes this one carries, at least 1: more when upstream outran
    /// feedweb and the events that arrived together were committed as one (append mode,
    /// see ``FeedStore/prependItems(_:keep:)``). `/stats` and `/metrics` count these.
    public let upstreamChanges: Int
    /// Upstream's position once this change is in: the SSE id of its (last) event, or a
    /// poll's validators, as ``UpstreamPosition`` writes them; `nil` when upstream has
    /// none (a WebSocket). A cluster leader stores it with the change, so that the next
    /// leader resumes upstream right after it.
    public let upstreamPosition: String?
    /// When the upstream event it came from reached feedweb, if it came from upstream.
    public let arrival: UpstreamArrival?
    /// When it was committed (``MonotonicTime``, nanoseconds).
    public let committedAt: UInt64
    /// When it was committed, on the wall clock (never before the change before it; a
    /// cluster node's adopted change keeps the leader's time).
    public let time: WallTime

    public init(
        kind: Kind, snapshot: FeedSnapshot, previousPublished: PublishedView?, upstreamChanges: Int = 1,
        upstreamPosition: String? = nil, arrival: UpstreamArrival? = nil, committedAt: UInt64 = MonotonicTime.now(),
        time: WallTime = .now()
    ) {
        self.kind = kind
        self.snapshot = snapshot
        self.previousPublished = previousPublished
        self.upstreamChanges = max(1, upstreamChanges)
        self.upstreamPosition = upstreamPosition
        self.arrival = arrival
        self.committedAt = committedAt
        self.time = time
    }

    /// Whether this change advanced the published view.
    public var publishedChanged: Bool {
        previousPublished !== snapshot.published
    }
}
