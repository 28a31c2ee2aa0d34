/// What an upstream source speaks, and so which transport and which protocol type read it.
public enum UpstreamKind: Sendable {
    /// An SSE stream (`--upstream http(s)://…`), read by a fresh dialect per connection; an
    /// answer that is a stream of JSON texts instead (NDJSON, a streamed `application/json`)
    /// is read by `jsonTexts`, or refused where it is `nil`.
    case sse(dialect: @Sendable () -> any SSEDialect, jsonTexts: MessageProtocol? = nil)
    /// A JSON document polled every `interval` with conditional requests (`--poll URL`).
    case poll(interval: Duration)
    /// A WebSocket (`--upstream ws(s)://…`), each message read as `mode` says.
    case webSocket(MessageProtocol)
    /// An MQTT broker (`--upstream mqtt(s)://…`), each message read as `mode` says
    /// (``MQTTMessages``).
    case mqtt(mode: MessageProtocol.Mode)

    /// The Streamdata document protocol over SSE (`--mode document`, the default).
    public static var document: UpstreamKind {
        .sse(dialect: { DocumentProtocol() }, jsonTexts: MessageProtocol(mode: .document))
    }

    /// One item per SSE event, the newest `keep` kept (`--mode append`); with
    /// `chosenEvents` (`--event`), only the events so named are items.
    public static func append(keep: Int, chosenEvents: Set<String> = []) -> UpstreamKind {
        .sse(
            dialect: { AppendProtocol(keep: keep, chosenEvents: chosenEvents) },
            jsonTexts: MessageProtocol(mode: .append(keep: keep), chosenEvents: chosenEvents))
    }

    /// Firebase's REST streaming over SSE (`--mode firebase`); nothing else.
    public static var firebase: UpstreamKind { .sse(dialect: { FirebaseProtocol() }) }

    /// How it is reached.
    var transport: UpstreamEndpoint.Transport {
        switch self {
        case .webSocket: return .webSocket
        case .mqtt: return .mqtt
        case .sse, .poll: return .http
        }
    }
}
