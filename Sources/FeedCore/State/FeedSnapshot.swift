/// The whole state after one accepted change: the mirror, its encoding, and the
/// published view. Immutable and shared; readers hold it without locks.
public final class FeedSnapshot: Sendable {
    /// The id of the change that produced this state.
    public let id: EventID
    /// The mirror: the document exactly as upstream has it.
    public let document: JSONValue
    /// `document` serialized as compact JSON, encoded once for every reader.
    public let encodedDocument: [UInt8]
    /// The published view (may be older than the mirror, see the version guard).
    public let published: PublishedView

    public init(id: EventID, document: JSONValue, published: PublishedView) {
        self.id = id
        self.document = document
        self.encodedDocument = document.serializedBytes()
        self.published = published
    }
}
