/// Where an upstream source is, as text a cluster leader stores with each change it
/// appends (``FeedChange/upstreamPosition``), so that the next leader resumes the source
/// right after the last change in the log instead of starting over:
///
/// - SSE (every dialect): the id of the last event the change came from, sent as
///   `Last-Event-ID` when connecting (a resuming upstream then sends only what followed).
/// - polling: the validators of the last document, `{"etag":…,"last_modified":…}`, sent
///   as `If-None-Match` / `If-Modified-Since` (an unchanged document is then a `304`).
/// - a JSON stream that says where it can resume (``StreamResume``: a Kubernetes watch's
///   `resourceVersion`, CouchDB's `since`): `{"resume":NAME,"at":VALUE}`, set in the next
///   request's query instead of sending `Last-Event-ID`.
/// - WebSocket: none (the protocol has no resume).
///
/// An empty position is no position.
public enum UpstreamPosition {
    /// A poll's validators as a position (`nil` when there are none).
    public static func encode(_ validators: PollingProtocol.Validators) -> String? {
        guard !validators.isEmpty else { return nil }
        var members: JSONObject = [:]
        if let etag = validators.etag { members["etag"] = .string(etag) }
        if let lastModified = validators.lastModified { members["last_modified"] = .string(lastModified) }
        return JSONValue.object(members).serializedString()
    }

    /// The validators a poll's position holds; `nil` for anything else.
    public static func validators(from position: String) -> PollingProtocol.Validators? {
        guard let value = try? JSONValue(parsing: position), case .object(let members) = value else { return nil }
        let validators = PollingProtocol.Validators(
            etag: members["etag"]?.stringValue, lastModified: members["last_modified"]?.stringValue)
        return validators.isEmpty ? nil : validators
    }

    /// A stream's resume point as a position.
    public static func encode(_ query: StreamResume.ResumeQuery) -> String {
        JSONValue.object(["resume": .string(query.name), "at": .string(query.value)]).serializedString()
    }

    /// The resume point a stream's position holds; `nil` for anything else (an SSE event id,
    /// a poll's validators).
    public static func resumeQuery(from position: String) -> StreamResume.ResumeQuery? {
        guard position.hasPrefix("{"), let value = try? JSONValue(parsing: position), case .object(let members) = value,
            members.count == 2, let name = members["resume"]?.stringValue, !name.isEmpty,
            let at = members["at"]?.stringValue
        else { return nil }
        return StreamResume.ResumeQuery(name: name, value: at)
    }
}
