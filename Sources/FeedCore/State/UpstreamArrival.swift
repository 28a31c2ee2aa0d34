/// When the upstream event a change came from reached feedweb: the read that carried its
/// last bytes, and the moment it was parsed into an event (``MonotonicTime``, nanoseconds).
/// Carried with the change (``FeedChange/arrival``), so `/inspect` can show an event's way
/// from upstream to the last socket.
public struct UpstreamArrival: Sendable, Equatable {
    /// When the read that completed the event returned.
    public var received: UInt64
    /// When the event had been parsed (and its command worked out).
    public var parsed: UInt64

    public init(received: UInt64, parsed: UInt64) {
        self.received = received
        self.parsed = parsed
    }
}
