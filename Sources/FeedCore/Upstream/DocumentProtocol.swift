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

    /// A one-line description of an upstream error event's data: `CODE: MESSAGE (CAUSE)`
    /// from either Streamdata shape (`{status, cause, message, …}` or `{code, message,
    /// category, …}`), the data itself (cut to 300 characters) when it is not a JSON
    /// object, `upstream error` when it says nothing.
    static func describeError(_ data: String) -> String {
        guard let value = try? JSONValue(parsing: data), case .object = value else {
            return data.isEmpty ? "upstream error" : oneLine(data)
        }
        let message = ItemExtractor.text(value["message"])
        let cause = ItemExtractor.text(value["cause"])
        var text = message ?? cause ?? ItemExtractor.text(value["category"]) ?? "upstream error"
        if let cause, message != nil, cause != message { text += " (\(cause))" }
        if let code = ItemExtractor.text(value["status"] ?? value["code"]) { text = "\(code): \(text)" }
        return oneLine(text)
    }

    /// `text` on one line (line breaks as spaces), cut to 300 characters.
    private static func oneLine(_ text: String) -> String {
        String(String(text.prefix(300)).map { $0.isNewline ? " " : $0 })
    }
}
