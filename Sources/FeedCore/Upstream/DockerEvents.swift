/// Docker's event stream (`/events` of the Engine API, through its socket's proxy or a TCP
/// port), read in append mode: one JSON object a line,
/// `{"Type":"container","Action":"start","Actor":{"ID":…,"Attributes":{…}},"scope":"local",
/// "time":1733360000,"timeNano":1733360000123456789}`.
///
/// A stream that ends (the daemon restarted, a proxy timed out) is read again `since` just
/// after the last event read (``resume(after:)``), in place of the URL's own `since`: the
/// daemon then sends the events it keeps from that moment on, so none in between is lost
/// and the last is not read twice.
enum DockerEvents {
    /// Where the stream resumes after `message`: one nanosecond after an event's `timeNano`,
    /// as Docker reads a `since` (`SECONDS.NANOSECONDS`); `nil` for anything else.
    static func resume(after message: JSONValue) -> StreamResume? {
        guard let members = message.objectValue, members["Type"]?.stringValue != nil,
            members["Action"]?.stringValue != nil, members["Actor"]?.objectValue != nil,
            let nanoseconds = members["timeNano"]?.int64Value, nanoseconds >= 0, nanoseconds < Int64.max
        else { return nil }
        let next = nanoseconds + 1
        let fraction = String(next % 1_000_000_000)
        let since = "\(next / 1_000_000_000)." + String(repeating: "0", count: 9 - fraction.count) + fraction
        return .at(.init(name: "since", value: since))
    }
}
