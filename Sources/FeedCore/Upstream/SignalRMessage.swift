/// One record of an ASP.NET Core SignalR hub's JSON protocol over its WebSocket (a hub at
/// `ws://HOST/hubs/prices`, reached without negotiation). Pure: ``MessageProtocol`` reads
/// it, the WebSocket transport frames what it sends (``framed(_:)``) and pings
/// (``pingText``).
///
/// Every record is JSON ended by the record separator (`0x1E`); a text message carries one
/// or more. The client opens with the handshake, `{"protocol":"json","version":1}` (given
/// with `--send`, which is how feedweb knows the hub: ``isHandshake(_:)``); the hub answers
/// `{}`, or `{"error":…}` and closes. Then each record's `type` says what it is:
/// - `1`, an invocation of the client's method `target` with `arguments`
///   (`{"type":1,"target":"ReceivePrice","arguments":[{…}]}`), what the hub sends;
/// - `2`, a stream's item (`{"type":2,"invocationId":"1","item":{…}}`), what a stream the
///   client started (`--send` of a `4`) sends;
/// - `3`, a completion, with an `error` when the invocation failed;
/// - `6`, a ping: each side sends one every 15 s, and a hub drops a client it has heard
///   nothing from for 30 s;
/// - `7`, a close, with an `error` when one ended it.
enum SignalRMessage: Equatable {
    /// The hub's own record, no item: the handshake's answer, a ping, a completion.
    case own
    /// The handshake refused, or an invocation failed, in words.
    case error(String)
    /// The hub closes the connection, in words.
    case close(String)
    /// The client's method `name` invoked with `arguments`.
    case invocation(name: String, arguments: [JSONValue])
    /// An item of a stream the client started.
    case streamItem(JSONValue)

    /// What ends every record.
    static let recordSeparator: Character = "\u{1E}"
    /// The client's ping, framed.
    static let pingText = #"{"type":6}"# + String(recordSeparator)
    /// The longest wait between two of the client's pings: the hub's default keep-alive.
    static let pingInterval: Duration = .seconds(15)

    /// Whether `text` is the handshake of SignalR's JSON protocol: an object of a text
    /// `protocol` and a number `version`, and nothing else, with or without its separator.
    static func isHandshake(_ text: String) -> Bool {
        let record = text.last == recordSeparator ? String(text.dropLast()) : text
        guard let members = (try? JSONValue(parsing: record))?.objectValue, members.count == 2,
            members["protocol"]?.stringValue != nil, members["version"]?.doubleValue != nil
        else { return false }
        return true
    }

    /// `text` as a record: ended by the separator, which is added when it is not there.
    static func framed(_ text: String) -> String {
        text.last == recordSeparator ? text : text + String(recordSeparator)
    }

    /// The records of a text message, each without its separator.
    static func records(_ text: String) -> [Substring] {
        text.split(separator: recordSeparator, omittingEmptySubsequences: true)
    }

    /// The record `value` is, or a problem in words when it is none of SignalR's.
    static func reading(_ value: JSONValue) -> Result<SignalRMessage, SignalRRecordError> {
        guard let members = value.objectValue else { return .failure(.notAnObject) }
        guard let type = members["type"] else {
            // The handshake's answer: `{}`, or `{"error":…}`.
            if members.isEmpty { return .success(.own) }
            if let error = ItemExtractor.text(members["error"]) {
                return .success(.error("SignalR: the hub refused the handshake: " + DocumentProtocol.oneLine(error)))
            }
            return .failure(.noType)
        }
        let error = ItemExtractor.text(members["error"]).map(DocumentProtocol.oneLine)
        switch type.int64Value {
        case 1?:
            guard let target = members["target"]?.stringValue, !target.isEmpty else { return .failure(.noTarget) }
            return .success(.invocation(name: target, arguments: members["arguments"]?.arrayValue ?? []))
        case 2?:
            return .success(.streamItem(members["item"] ?? .null))
        case 3?:
            return .success(error.map { .error("SignalR: an invocation failed: " + $0) } ?? .own)
        case 6?, 4?, 5?:
            return .success(.own)
        case 7?:
            return .success(.close("SignalR: the hub closed the connection" + (error.map { ": " + $0 } ?? "")))
        default:
            return .failure(.unknownType)
        }
    }
}

/// Why a SignalR record is not one.
enum SignalRRecordError: Error, Equatable, CustomStringConvertible {
    case notAnObject
    case noType
    case noTarget
    case unknownType

    var description: String {
        switch self {
        case .notAnObject: return "a SignalR record that is not an object"
        case .noType: return "a SignalR record without a type"
        case .noTarget: return "a SignalR invocation without a target"
        case .unknownType: return "a SignalR record of an unknown type"
        }
    }
}
