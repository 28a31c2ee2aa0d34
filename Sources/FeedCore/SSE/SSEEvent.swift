/// One event dispatched by ``SSEParser`` (WHATWG HTML 9.2.6, "dispatch the event").
///
/// Compare strings field by field with `==` only when canonical equivalence is what you
/// want: Swift's `String ==` treats `"e\u{301}"` and `"\u{E9}"` as equal. The parser
/// itself never normalises; the strings hold exactly the scalars that were sent.
public struct SSEEvent: Sendable, Equatable {
    /// The event type: the last `event:` value of the event, or `"message"` when the
    /// event had none (or an empty one).
    public var type: String
    /// The data: every `data:` value of the event joined with LF (U+000A).
    public var data: String
    /// The last event ID string at dispatch time (`""` when no `id:` was ever set, or
    /// when the last one was empty). An event without its own `id:` line carries the
    /// id of an earlier event.
    public var id: String

    public init(type: String = "message", data: String, id: String = "") {
        self.type = type
        self.data = data
        self.id = id
    }
}
