/// A change exactly as another feedweb published it, for ``FeedStore/adopt(_:)``: its id
/// and the bytes its clients got. Where one comes from: a relay's upstream (another
/// feedweb's `/events`, whose ids pass through) and the cluster log (every node publishes
/// what the leader appended).
public struct PublishedChange: Sendable {
    /// What the change carries.
    public enum Body: Sendable {
        /// A whole document (an SSE `data` event, a log row of kind data): the state
        /// starts over from it. `encoded` is its compact JSON as published, if known.
        case document(JSONValue, encoded: [UInt8]?)
        /// An RFC 6902 patch to the state at the previous id, with the bytes it was
        /// published as (what the history and every client get).
        case patch(JSONPatch, encoded: [UInt8])
    }

    public let id: EventID
    public let body: Body
    /// How many upstream changes it carries, at least 1 (``FeedChange/upstreamChanges``).
    public let upstreamChanges: Int
    /// Upstream's position after it (``FeedChange/upstreamPosition``).
    public let upstreamPosition: String?
    /// When it was committed where it was first accepted (the cluster leader), if known:
    /// the time its adopter gives it too, so every node answers `?at=TIME` alike.
    public let time: WallTime?

    public init(
        id: EventID, body: Body, upstreamChanges: Int = 1, upstreamPosition: String? = nil, time: WallTime? = nil
    ) {
        self.id = id
        self.body = body
        self.upstreamChanges = max(1, upstreamChanges)
        self.upstreamPosition = upstreamPosition
        self.time = time
    }
}
