/// The append protocol (`--mode append`), as Wikimedia EventStreams speaks it: every
/// `message` event's data is one JSON item, not a document. feedweb keeps the newest
/// ``keep`` items as the document `{"items":[…]}`, newest first (see
/// ``FeedStore/prependItem(_:keep:)``).
///
/// - `message` (named, as EventStreams sends it, or unnamed): one item, any JSON value.
///   Data that is not JSON is counted and ignored: there is no snapshot to resynchronise
///   from, and a reconnect without `Last-Event-ID` would only lose events.
/// - `error`: an upstream error object, reported like in the document protocol.
/// - `monitor`: ignored (logged at debug level).
/// - anything else: counted and ignored.
///
/// The event `id` is opaque (EventStreams sends a JSON array of Kafka offsets); the
/// connection keeps it and sends it back as `Last-Event-ID` when it reconnects.
public struct AppendProtocol: Sendable {
    /// How many items the document keeps (`--keep`), at least 1.
    public let keep: Int

    public init(keep: Int) {
        self.keep = max(1, keep)
    }

    public func interpret(_ event: SSEEvent) -> UpstreamCommand {
        switch event.type {
        case "message":
            do {
                return .prependItem(try JSONValue(parsing: event.data), keep: keep)
            } catch {
                return .ignore(reason: "message event is not JSON: \(error)", counted: true)
            }
        case "error":
            return .reportError(DocumentProtocol.describeError(event.data))
        case "monitor":
            return .ignore(reason: "monitor", counted: false)
        default:
            return .ignore(reason: "unknown event type in append mode", counted: true)
        }
    }
}
