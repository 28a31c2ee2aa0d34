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

    /// Whether this change advanced the published view.
    public var publishedChanged: Bool {
        previousPublished !== snapshot.published
    }
}
