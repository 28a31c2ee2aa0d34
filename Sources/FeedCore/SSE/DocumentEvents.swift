/// The events of the document protocol that feedweb consumes and re-broadcasts (the
/// Streamdata.io pattern): a `data` event with the whole document, then one `patch` event,
/// an RFC 6902 JSON Patch, per change. Ids are `EPOCH-SEQ` (``EventID``).
///
/// Every event a stream sends in this protocol is made here, once per change or state,
/// and the same bytes are then queued to every client that needs them.
public enum DocumentEvents {
    /// The two encodings a client can ask for.
    public enum Mode: Hashable, Sendable {
        /// A `data` event first, then a `patch` per change.
        case patches
        /// A full `data` event on every change (`Accept: application/json`).
        case snapshots
    }

    /// The reconnection time sent to clients, in milliseconds.
    public static let retryMilliseconds = 2000

    /// The `retry:` line every new client gets first.
    public static func retry() -> [UInt8] {
        SSEEncoder.retry(milliseconds: retryMilliseconds)
    }

    /// The `patch` event of change `id`, whose patch is `encodedPatch` (UTF-8 JSON).
    public static func patch(id: EventID, encodedPatch: [UInt8]) -> [UInt8] {
        SSEEncoder.event(type: "patch", utf8Data: encodedPatch, id: id.description)
    }

    /// The `data` event of `snapshot`: its whole document, with its id. The document's
    /// bytes are the snapshot's own when it has made them, else encoded straight into the
    /// event, which is then the only copy of them (not a second one in the snapshot).
    public static func data(of snapshot: FeedSnapshot) -> [UInt8] {
        let id = snapshot.id.description
        if let encoded = snapshot.encodedDocumentIfMade {
            return SSEEncoder.event(type: "data", utf8Data: encoded, id: id)
        }
        return SSEEncoder.event(type: "data", id: id, dataByteCount: snapshot.encodedByteCount) {
            snapshot.encodeDocument(into: &$0)
        }
    }
}
