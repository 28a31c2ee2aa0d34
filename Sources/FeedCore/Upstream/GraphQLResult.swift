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
        let more = errorCount > 1 ? " (and \(errorCount - 1) more)" : ""
        return .reportError("GraphQL: " + DocumentProtocol.oneLine(firstError) + more)
    }
}
