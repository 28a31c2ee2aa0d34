/// One message of an Action Cable server (a Rails app's `/cable`, AnyCable), read from its
/// JSON. Pure: ``MessageProtocol`` reads it.
///
/// - `{"type":"welcome"}`, `{"type":"ping","message":1733360000}` (every 3 s) and
///   `{"type":"confirm_subscription","identifier":…}`: the server's own, no item;
/// - `{"type":"reject_subscription","identifier":…}`: a subscription (`--send
///   '{"command":"subscribe","identifier":"{\"channel\":\"PricesChannel\"}"}'`) refused;
/// - `{"type":"disconnect","reason":"unauthorized","reconnect":false}`: the server ends the
///   connection;
/// - `{"identifier":"{\"channel\":\"PricesChannel\"}","message":{…}}`: what a channel
///   broadcast, its `message`.
///
/// A message is Action Cable's when its `type` is one of these five with at most the members
/// they carry, or when it has exactly an `identifier` of JSON text and a `message`.
enum ActionCableMessage: Equatable {
    /// The server's own message, no item.
    case own
    /// A subscription refused, in words.
    case rejected(String)
    /// The server ends the connection, in words.
    case disconnected(String)
    /// What the channel named in `identifier` broadcast.
    case broadcast(channel: String?, value: JSONValue)

    /// The members each of the server's own messages may have.
    private static let ownMembers: [String: Set<String>] = [
        "welcome": ["type", "sid", "restored", "restored_ids"],
        "ping": ["type", "message"],
        "confirm_subscription": ["type", "identifier"],
        "reject_subscription": ["type", "identifier"],
        "disconnect": ["type", "reason", "reconnect"],
    ]

    /// The message `value` is, or `nil` when it is not an Action Cable server's.
    init?(_ value: JSONValue) {
        guard let members = value.objectValue else { return nil }
        if let type = members["type"]?.stringValue, let allowed = Self.ownMembers[type],
            members.keys.allSatisfy(allowed.contains)
        {
            switch type {
            case "reject_subscription":
                self = .rejected("Action Cable refused the subscription to \(Self.channel(members) ?? "a channel")")
            case "disconnect":
                let reason = members["reason"]?.stringValue.map { ": " + DocumentProtocol.oneLine($0) } ?? ""
                self = .disconnected("Action Cable: the server disconnected feedweb" + reason)
            default:
                self = .own
            }
            return
        }
        guard members.count == 2, case .string(let identifier)? = members["identifier"],
            (try? JSONValue(parsing: identifier))?.objectValue != nil, let message = members["message"]
        else { return nil }
        self = .broadcast(channel: Self.channel(members), value: message)
    }

    /// The channel an `identifier` names (`{"channel":"PricesChannel",…}` as JSON text).
    private static func channel(_ members: JSONObject) -> String? {
        guard let identifier = members["identifier"]?.stringValue else { return nil }
        return (try? JSONValue(parsing: identifier))?["channel"]?.stringValue.map(DocumentProtocol.oneLine)
    }
}
