/// What one stream endpoint has sent its clients since start, for `/metrics`.
///
/// Counted when bytes are queued to a client (a shared event queued to 1,000 clients counts
/// 1,000 events), not when the kernel takes them: a dropped client's queue was counted.
public struct StreamTraffic: Sendable, Equatable {
    /// Chunks queued to clients (events, heartbeats and a new client's first events).
    public var eventsQueued: UInt64 = 0
    /// Bytes in those chunks.
    public var bytesQueued: UInt64 = 0
    /// Clients dropped because they stopped reading (the queue bound or the stall rule).
    public var droppedClients: UInt64 = 0
    /// Times a client too far behind had its queue replaced by the newest state (a fresh
    /// `data` on `/events`, a `snapshot` on `/events/items`) instead of being dropped.
    public var catchUps: UInt64 = 0

    public init() {}

    /// Two counts added up (the shards of one stream).
    static func + (left: StreamTraffic, right: StreamTraffic) -> StreamTraffic {
        var sum = left
        sum.eventsQueued &+= right.eventsQueued
        sum.bytesQueued &+= right.bytesQueued
        sum.droppedClients &+= right.droppedClients
        sum.catchUps &+= right.catchUps
        return sum
    }

    mutating func count(_ bytes: [UInt8]) {
        eventsQueued &+= 1
        bytesQueued &+= UInt64(bytes.count)
    }

    mutating func count(_ chunks: [[UInt8]]) {
        for chunk in chunks where !chunk.isEmpty { count(chunk) }
    }
}
