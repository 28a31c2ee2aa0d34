/// The Streamdata.io document protocol: turns each SSE event into an ``UpstreamCommand``.
///
/// - `data` / `snapshot`: a complete JSON document.
/// - `patch`: an RFC 6902 patch array.
/// - `error`: a JSON error object (`{status, cause, message, …}` or `{code, message, …}`).
/// - `monitor`: ignored (logged at debug level).
/// - an event without a type (`message`) whose data is a JSON object: a document.
/// - anything else: counted and ignored.
public enum DocumentProtocol {
    public static func interpret(_ event: SSEEvent) -> UpstreamCommand {
        switch event.type {
        case "data", "snapshot":
            do {
                return .replaceDocument(try JSONValue(parsing: event.data))
            } catch {
                return .reject("\(event.type) event is not JSON: \(error)")
            }
        case "patch":
            do {
                return .applyPatch(try JSONPatch(parsing: event.data))
            } catch {
                return .reject("patch event is not a JSON Patch: \(error)")
            }
        case "error":
            return .reportError(describeError(event.data))
        case "monitor":
            return .ignore(reason: "monitor", counted: false)
        case "message":
            if let value = try? JSONValue(parsing: event.data), case .object = value {
                return .replaceDocument(value)
            }
            return .ignore(reason: "message event whose data is not a JSON object", counted: true)
        default:
            return .ignore(reason: "unknown event type", counted: true)
        }
    }

    /// A one-line description of an upstream error event's data.
    static func describeError(_ data: String) -> String {
        guard let value = try? JSONValue(parsing: data), case .object = value else {
            return data.isEmpty ? "upstream error" : String(data.prefix(300))
        }
        let message = value["message"]?.stringValue ?? value["cause"]?.stringValue ?? "upstream error"
        let code = value["status"] ?? value["code"]
        if let code, let text = ItemExtractor.text(code) { return "\(text): \(message)" }
        return message
    }
}
