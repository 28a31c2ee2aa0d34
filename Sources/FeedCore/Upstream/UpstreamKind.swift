/// What an upstream source speaks, and so which transport and which protocol type read it.
public enum UpstreamKind: Sendable {
    /// An SSE stream (`--upstream http(s)://…`), read by a fresh dialect per connection.
    case sse(dialect: @Sendable () -> any SSEDialect)
    /// A JSON document polled every `interval` with conditional requests (`--poll URL`).
    case poll(interval: Duration)
    /// A WebSocket (`--upstream ws(s)://…`), each message read as `mode` says.
    case webSocket(WebSocketProtocol)

    /// The Streamdata document protocol over SSE (`--mode document`, the default).
    public static var document: UpstreamKind { .sse { StatelessDialect(DocumentProtocol.interpret) } }

    /// One item per SSE event, the newest `keep` kept (`--mode append`).
    public static func append(keep: Int) -> UpstreamKind { .sse { AppendProtocol(keep: keep) } }

    /// Firebase's REST streaming over SSE (`--mode firebase`).
    public static var firebase: UpstreamKind { .sse { FirebaseProtocol() } }

    /// How it is reached.
    var transport: UpstreamEndpoint.Transport {
        if case .webSocket = self { return .webSocket }
        return .http
    }
}
