/// ntfy's JSON stream (`/TOPIC/json`), read in append mode: one message a line,
/// `{"id":…,"time":…,"event":"message","topic":…,"message":…}`, its `open` and `keepalive`
/// events heartbeats (``MessageProtocol/isHeartbeat(_:)``).
///
/// A stream that ends is read again `since` the id of the last message read
/// (``resume(after:)``), in place of the URL's own `since` (`all`, a time, an id): ntfy then
/// sends the messages it keeps after that one, so none is lost in between or read twice.
enum NtfyMessages {
    /// Where the stream resumes after `message`: a message event's `id`; `nil` for anything
    /// else (an `open` or `keepalive` names no message).
    static func resume(after message: JSONValue) -> StreamResume? {
        guard let members = message.objectValue, members["event"]?.stringValue == "message",
            members["topic"]?.stringValue != nil, members["time"]?.int64Value != nil,
            let id = members["id"]?.stringValue, !id.isEmpty
        else { return nil }
        return .at(.init(name: "since", value: id))
    }
}
