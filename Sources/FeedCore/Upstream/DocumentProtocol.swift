/// The Streamdata.io document protocol, and the whole-document feeds that name their events
/// otherwise: turns each SSE event into an ``UpstreamCommand``. A fresh value reads each
/// connection (``SSEDialect``).
///
/// - `data` / `snapshot`: a complete JSON document.
/// - `patch`: an RFC 6902 patch array.
/// - `error`: a JSON error object (`{status, cause, message, …}` or `{code, message, …}`).
/// - `monitor`: ignored (logged at debug level).
/// - an event without a type (`message`) whose data is a JSON object or array: a document;
///   an array that is a JSON Patch (every element an operation) is a patch.
/// - `next` (GraphQL over SSE, the `graphql-sse` protocol): its result's `data` is the
///   document, its `errors` without data an upstream error (``GraphQLResult``); `complete`
///   is ignored.
/// - any other name: a patch when its data is one; otherwise, while the connection has
///   sent no document, the first such event whose data is a JSON array, or an object
///   holding an array or an object (`event: prices`, `event: state`), is a document, and
///   so is every later event of that name. A heartbeat's scalars (`{"time":…}`) are not a
///   document, nor are events named for liveness (``livenessNames``).
/// - anything else: counted and ignored, with the reason shown while no document came.
///
/// Invariant: ``documentEvents`` is set at most once per connection, and never after a
/// document came by another event, so a Streamdata stream (which begins with `data`) is
/// read exactly as the protocol says.
public struct DocumentProtocol: SSEDialect, Sendable {
    /// The name of the events that carry the document on this connection, when it is none
    /// of the protocol's own; `nil` until one is learned.
    public private(set) var documentEvents: String?
    /// Whether a document came on this connection (by any event).
    private var hasDocument = false

    /// Event names that say a stream is alive and never carry its document, compared in
    /// lower case.
    public static let livenessNames: Set<String> = [
        "heartbeat", "ping", "pong", "keepalive", "keep-alive", "open", "hello", "welcome", "connected",
        "ready", "complete", "close", "end", "done",
    ]

    public init() {}

    public var learned: String? { documentEvents.map { "events named \($0) carry the document" } }

    public mutating func interpret(_ event: SSEEvent) -> UpstreamCommand {
        switch event.type {
        case "data", "snapshot":
            do {
                return document(try JSONValue(parsing: event.data))
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
            return .reportError(Self.describeError(event.data))
        case "monitor":
            return .ignore(reason: "monitor", counted: false)
        case "message":
            guard let value = try? JSONValue(parsing: event.data) else {
                return .ignore(reason: "an unnamed event's data is not JSON", counted: true)
            }
            if let patch = Self.patch(value) { return .applyPatch(patch) }
            guard value.objectValue != nil || value.arrayValue != nil else {
                return .ignore(reason: "an unnamed event's data is not a JSON object or array", counted: true)
            }
            return document(value)
        case "next":
            guard let value = try? JSONValue(parsing: event.data), let result = GraphQLResult(value) else {
                return named(event)
            }
            guard let command = result.command else {
                return .ignore(reason: "a GraphQL result without data or errors", counted: true)
            }
            if case .replaceDocument = command { hasDocument = true }
            return command
        default:
            return named(event)
        }
    }

    /// An event of a name the protocol does not know.
    private mutating func named(_ event: SSEEvent) -> UpstreamCommand {
        let name = event.type
        if Self.livenessNames.contains(name.lowercased()) {
            return .ignore(reason: "\(name) (no document)", counted: false)
        }
        guard let value = try? JSONValue(parsing: event.data) else {
            return .ignore(reason: "a \(name) event's data is not JSON", counted: true)
        }
        if let patch = Self.patch(value) { return .applyPatch(patch) }
        if let documentEvents {
            guard name == documentEvents else {
                return .ignore(
                    reason: "\(name) events are not the document's (\(documentEvents) events are)", counted: true)
            }
            guard value.objectValue != nil || value.arrayValue != nil else {
                return .ignore(reason: "a \(name) event's data is not a JSON object or array", counted: true)
            }
            return document(value)
        }
        if !hasDocument, value.objectValue?.isEmpty == false, !Self.holdsContainer(value) {
            return .ignore(
                reason: "\(name) events are not read: each holds an object of plain values, an item rather than a "
                    + "whole document (--mode append reads each such event as one item)", counted: true)
        }
        guard !hasDocument, Self.holdsContainer(value) else {
            return .ignore(
                reason: "\(name) events are not read: feedweb reads data, snapshot and patch events, unnamed ones, "
                    + "and the first other events whose data is a JSON array or an object holding one",
                counted: true)
        }
        documentEvents = name
        return document(value)
    }

    private mutating func document(_ value: JSONValue) -> UpstreamCommand {
        hasDocument = true
        return .replaceDocument(value)
    }

    /// Whether `value` could be a document of items: an array, or an object with a member
    /// that is an array or an object.
    static func holdsContainer(_ value: JSONValue) -> Bool {
        if value.arrayValue != nil { return true }
        guard let object = value.objectValue else { return false }
        return object.contains { $0.value.arrayValue != nil || $0.value.objectValue != nil }
    }

    /// `value` as a JSON Patch when it is one: a non-empty array whose every element is an
    /// object with an `op` RFC 6902 names and a string `path`, and decodes as an operation.
    static func patch(_ value: JSONValue) -> JSONPatch? {
        guard let elements = value.arrayValue, !elements.isEmpty else { return nil }
        let operations: Set<String> = ["add", "remove", "replace", "move", "copy", "test"]
        for element in elements {
            guard let object = element.objectValue, case .string(let op)? = object["op"], operations.contains(op),
                case .string? = object["path"]
            else { return nil }
        }
        return try? JSONPatch(json: value)
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
    static func oneLine(_ text: String) -> String {
        String(String(text.prefix(300)).map { $0.isNewline ? " " : $0 })
    }
}
