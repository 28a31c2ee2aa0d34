/// What one upstream event asks the pipeline to do.
public enum UpstreamCommand: Sendable {
    /// Replace the document (`data`, `snapshot`, or an unnamed JSON object).
    case replaceDocument(JSONValue)
    /// Apply a patch atomically.
    case applyPatch(JSONPatch)
    /// Append mode: put one item first in the document's `items` array and keep at most
    /// `keep` of them (see ``AppendProtocol`` and ``FeedStore/prependItem(_:keep:)``).
    case prependItem(JSONValue, keep: Int)
    /// Upstream reported an error; keep the state and the stream.
    case reportError(String)
    /// Nothing to do (`monitor`, an unknown type); `counted` says whether it is counted as
    /// ignored.
    case ignore(reason: String, counted: Bool)
    /// The event is broken (data not JSON, not a patch): reject it, keep the last good
    /// state, and resynchronise with a fresh snapshot.
    case reject(String)
}
