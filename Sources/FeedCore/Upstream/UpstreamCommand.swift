/// What one upstream event asks the pipeline to do.
public enum UpstreamCommand: Sendable {
    /// Replace the document (`data`, `snapshot`, an unnamed JSON object, a WebSocket
    /// message in document mode); the store turns a later one into the diff patch.
    case replaceDocument(JSONValue)
    /// Apply a patch atomically.
    case applyPatch(JSONPatch)
    /// Append mode: put one item first in the document's `items` array and keep at most
    /// `keep` of them (see ``AppendProtocol`` and ``FeedStore/prependItem(_:keep:)``).
    case prependItem(JSONValue, keep: Int)
    /// Append mode: put an edited item in place of the kept one with its key (Mastodon's
    /// `status.update`); nothing when none has it (``FeedStore/replaceItem(_:position:arrival:)``).
    case replaceItem(JSONValue)
    /// Append mode: take out the kept item whose key is this id (Mastodon's `delete`);
    /// nothing when none has it (``FeedStore/removeItem(keyed:position:arrival:)``).
    case removeItem(key: String)
    /// Append mode: put an item in place of the kept one with the same id at `idAt`, or
    /// first when none has it (a Kubernetes watch's `ADDED` and `MODIFIED`;
    /// ``FeedStore/putItem(_:idAt:keep:position:arrival:)``).
    case putItem(JSONValue, idAt: JSONPointer, keep: Int)
    /// Append mode: take out the kept item whose id at `idAt` is this one (a Kubernetes
    /// watch's `DELETED`); nothing when none has it
    /// (``FeedStore/removeItem(withID:at:position:arrival:)``).
    case removeItemByID(JSONValue, idAt: JSONPointer)
    /// Upstream reported an error, or sent something unusable that is counted as one (a
    /// WebSocket message that is not JSON, a Firebase `put` through a scalar); keep the
    /// state and the stream.
    case reportError(String)
    /// Upstream said the stream is over (Firebase `cancel`, `auth_revoked`): shown as an
    /// upstream error, the state kept, and the connection ended so that the usual
    /// reconnect follows.
    case endStream(String)
    /// Nothing to do (`monitor`, an unknown type); `counted` says whether it is counted as
    /// ignored.
    case ignore(reason: String, counted: Bool)
    /// The event is broken (data not JSON, not a patch): reject it, keep the last good
    /// state, and resynchronise with a fresh snapshot.
    case reject(String)
}
