/// A GraphQL execution result as a subscription over SSE sends it in a `next` event (the
/// `graphql-sse` protocol): `{"data": …, "errors": […]}` in its distinct-connections
/// mode, or `{"id": …, "payload": {"data": …}}` in its single-connection mode.
///
/// Its `data` is the feed's document, so items are found at `/quotes` rather than under
/// an envelope. A result with errors and no data is the upstream's error, in its words.
struct GraphQLResult {
    /// The result's `data`, when it holds a value.
    let data: JSONValue?
    /// The first error's `message`, or `nil` without errors.
    let firstError: String?
    /// How many errors the result has.
    let errorCount: Int

    /// Reads `value` as a result; `nil` when it is not one (an object with `data` or
    /// `errors`, directly or under `payload`, and no members a result does not have).
    init?(_ value: JSONValue) {
        guard var object = value.objectValue else { return nil }
        if case .object(let payload)? = object["payload"], object.keys.allSatisfy({ $0 == "payload" || $0 == "id" }) {
            object = payload
        }
        let members: Set<String> = ["data", "errors", "extensions", "hasNext", "label", "path"]
        guard object["data"] != nil || object["errors"] != nil, object.keys.allSatisfy(members.contains) else {
            return nil
        }
        data = object["data"].flatMap { $0.isNull ? nil : $0 }
        let errors = object["errors"]?.arrayValue ?? []
        errorCount = errors.count
        firstError = errors.first.map { ItemExtractor.text($0["message"]) ?? "GraphQL error" }
    }

    /// What the result does to the feed: its data replaces the document; errors without
    /// data are reported; `nil` when it says nothing.
    var command: UpstreamCommand? {
        if let data { return .replaceDocument(data) }
        guard let firstError else { return nil }
        return Self.error(firstError, count: errorCount)
    }

    /// `count` GraphQL errors, the first saying `first`, as upstream's error:
    /// `GraphQL: Cannot query field "x" (and 1 more)`.
    static func error(_ first: String, count: Int) -> UpstreamCommand {
        let more = count > 1 ? " (and \(count - 1) more)" : ""
        return .reportError("GraphQL: " + DocumentProtocol.oneLine(first) + more)
    }

    /// What a message of GraphQL over a WebSocket (`graphql-transport-ws`, and the older
    /// `subscriptions-transport-ws`: an object of a `type`, an `id` and a `payload`, nothing
    /// else) does to the feed, in `--mode document`: `next` (or `data`) carries a result (its
    /// data the document, its errors reported); `error` and `connection_error` are the
    /// upstream's errors; `connection_ack`, `ka` and `complete` say nothing. `nil` for any
    /// other message.
    static func command(overWebSocket message: JSONValue) -> UpstreamCommand? {
        guard let members = message.objectValue, let type = members["type"]?.stringValue,
            members.keys.allSatisfy({ $0 == "type" || $0 == "id" || $0 == "payload" })
        else { return nil }
        switch type {
        case "next", "data":
            guard let payload = members["payload"], let result = GraphQLResult(payload) else { return nil }
            return result.command ?? .ignore(reason: "a GraphQL result without data or errors", counted: true)
        case "error", "connection_error":
            let errors = members["payload"]?.arrayValue ?? members["payload"].map { [$0] } ?? []
            let first = errors.first.flatMap { ItemExtractor.text($0["message"]) } ?? "GraphQL error"
            return error(first, count: errors.count)
        case "connection_ack", "ka", "complete":
            return .ignore(reason: "GraphQL's \(type)", counted: false)
        default:
            return nil
        }
    }
}
