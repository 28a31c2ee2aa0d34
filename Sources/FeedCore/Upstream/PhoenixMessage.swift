/// One message of a Phoenix Channels server (an Elixir Phoenix app's socket at
/// `/socket/websocket?vsn=2.0.0`, Supabase Realtime's at `/realtime/v1/websocket?vsn=1.0.0`),
/// read from its JSON. Pure: ``MessageProtocol`` reads it, the WebSocket transport sends
/// ``heartbeat`` in its serializer's form.
///
/// Two serializers write the same five things, a join reference, a reference, a topic, an
/// event and a payload:
/// - 2.0.0 as an array, `[join_ref, ref, "room:lobby", "new_msg", {…}]` (the references text
///   or `null`);
/// - 1.0.0 as an object, `{"topic":…,"event":…,"payload":…,"ref":…}` (`join_ref` too in
///   later servers).
///
/// Phoenix's own events: `phx_reply` answers a join (`--send`) or a heartbeat, its payload's
/// `status` `ok` or `error` with a `response`; `phx_error` says the channel's process failed,
/// `phx_close` that the server closed the channel. Any other event is the application's
/// (Supabase's `broadcast` carries its own `event` and `payload` inside; its `system`
/// messages say how a subscription went).
///
/// The client sends a heartbeat (``heartbeat``, topic `phoenix`) every 30 s, as Phoenix's
/// own client does; a server drops a socket it has heard nothing from for 60 s.
struct PhoenixMessage: Equatable {
    /// How the server writes its messages; the client writes its heartbeat the same way.
    enum Serializer: Equatable {
        /// 2.0.0: five-element arrays.
        case array
        /// 1.0.0: objects.
        case object
    }

    let serializer: Serializer
    let topic: String
    let event: String
    let payload: JSONValue

    /// The longest wait between two heartbeats: Phoenix's own client's.
    static let heartbeatInterval: Duration = .seconds(30)

    /// Phoenix Presence's events: who is connected, not the application's data; items only
    /// when `--event` names them.
    static let presenceEvents: Set<String> = ["presence_state", "presence_diff"]

    /// The members of a 1.0.0 message.
    private static let objectMembers: Set<String> = ["topic", "event", "payload", "ref", "join_ref"]

    /// The message `value` is, or `nil` when it is not a Phoenix server's: a five-element
    /// array of two references (text or `null`), a topic, an event and a payload, or an
    /// object of a text `topic` and `event`, a `payload`, and references at most besides.
    init?(_ value: JSONValue) {
        switch value {
        case .array(let elements):
            guard elements.count == 5, elements[0...1].allSatisfy({ $0 == .null || $0.stringValue != nil }),
                let topic = elements[2].stringValue, let event = elements[3].stringValue
            else { return nil }
            self.init(serializer: .array, topic: topic, event: event, payload: elements[4])
        case .object(let members):
            guard let topic = members["topic"]?.stringValue, let event = members["event"]?.stringValue,
                let payload = members["payload"], members.keys.allSatisfy(Self.objectMembers.contains)
            else { return nil }
            self.init(serializer: .object, topic: topic, event: event, payload: payload)
        default:
            return nil
        }
        guard !topic.isEmpty, !event.isEmpty else { return nil }
    }

    private init(serializer: Serializer, topic: String, event: String, payload: JSONValue) {
        self.serializer = serializer
        self.topic = topic
        self.event = event
        self.payload = payload
    }

    /// The heartbeat a client of a server that writes `serializer` sends.
    static func heartbeat(_ serializer: Serializer) -> String {
        switch serializer {
        case .array: return #"[null,"heartbeat","phoenix","heartbeat",{}]"#
        case .object: return #"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"heartbeat"}"#
        }
    }

    /// What the message means.
    enum Meaning: Equatable {
        /// Phoenix's own, no item: a join or heartbeat answered, a subscription's status.
        case own
        /// A join refused, or a subscription failed, in words.
        case error(String)
        /// The channel is gone (`phx_error`, `phx_close`): the connection is ended, so that
        /// the reconnect joins again.
        case channelEnded(String)
        /// The application's event `name`, its payload `value`.
        case event(name: String, value: JSONValue)
    }

    var meaning: Meaning {
        if topic == "phoenix" { return .own }
        switch event {
        case "phx_reply":
            guard payload["status"]?.stringValue == "error" else { return .own }
            let response = payload["response"] ?? .null
            let reason = ItemExtractor.text(response["reason"]) ?? ItemExtractor.text(response) ?? "refused"
            return .error("Phoenix: \(topic): \(DocumentProtocol.oneLine(reason))")
        case "phx_error":
            return .channelEnded("Phoenix: the channel \(topic) failed on the server")
        case "phx_close":
            return .channelEnded("Phoenix: the server closed the channel \(topic)")
        case "phx_join", "phx_leave", "heartbeat":
            return .own
        case "system":
            // Supabase Realtime: `{"status":"ok","message":"Subscribed to PostgreSQL",…}`.
            guard payload["status"]?.stringValue == "error" else { return .own }
            let message = ItemExtractor.text(payload["message"]) ?? "a subscription failed"
            return .error("Phoenix: \(topic): \(DocumentProtocol.oneLine(message))")
        case "broadcast":
            // Supabase Realtime's broadcast: `{"type":"broadcast","event":…,"payload":…}`.
            if let name = payload["event"]?.stringValue, let inner = payload["payload"] {
                return .event(name: name, value: inner)
            }
            return .event(name: event, value: payload)
        default:
            return .event(name: event, value: payload)
        }
    }
}
