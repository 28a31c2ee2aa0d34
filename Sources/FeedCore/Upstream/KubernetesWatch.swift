/// A Kubernetes watch (`GET /api/v1/pods?watch=1`, any resource's `?watch=true`), read in
/// append mode: one JSON object per line, `{"type":…,"object":{…}}`, the edits of a set of
/// objects, each identified by its `metadata.uid` (``idPath``):
///
/// - `ADDED` and `MODIFIED`: the object in place of the kept one with its uid, or first when
///   none has it (a new watch sends `ADDED` again for every object there is);
/// - `DELETED`: the kept object with its uid taken out;
/// - `BOOKMARK`: only a resource version; ignored, not counted;
/// - `ERROR`: the API's `Status` object (`410 Expired: too old resource version`), shown as
///   an upstream error.
///
/// Any other message is not a watch event (``command(for:keep:)`` returns `nil`).
///
/// A watch that ends (an API server ends each after its timeout, minutes) is watched again
/// from the `resourceVersion` of the last event read (``resume(after:)``), so the objects
/// deleted or changed in between arrive as `DELETED` and `MODIFIED`, not lost; after a
/// `410 Expired` the next watch starts over, from a list of the objects when some are kept
/// (``KubernetesList``).
enum KubernetesWatch {
    /// What a watch's event read in document mode is shown as: the way to read it.
    static let inDocumentMode =
        "a Kubernetes watch event, not a document: --mode append keeps the watch's objects in step"

    /// Where a Kubernetes object keeps its id.
    static let idPath = JSONPointer(tokens: ["metadata", "uid"])

    /// The command for `message`, or `nil` when it is not a watch event: an object of
    /// exactly a `type` of the five and an `object` that is an object.
    static func command(for message: JSONValue, keep: Int) -> UpstreamCommand? {
        guard let (type, object) = event(message) else { return nil }
        switch type {
        case "ADDED", "MODIFIED":
            return .putItem(object, idAt: idPath, keep: keep)
        case "DELETED":
            guard let id = object.value(at: idPath), !id.isNull else {
                return .ignore(reason: "DELETED names no metadata.uid", counted: true)
            }
            return .removeItemByID(id, idAt: idPath)
        case "BOOKMARK":
            return .ignore(reason: "bookmark", counted: false)
        case "ERROR":
            return .reportError(describe(status: object))
        default:
            return nil
        }
    }

    /// Where the watch resumes after `message`: the `resourceVersion` of an event's object
    /// (a bookmark's too), ``StreamResume/startOver`` after an `ERROR` whose code is 410
    /// (the version is too old), `nil` for anything else.
    static func resume(after message: JSONValue) -> StreamResume? {
        guard let (type, object) = event(message) else { return nil }
        switch type {
        case "ADDED", "MODIFIED", "DELETED", "BOOKMARK":
            guard let version = object.value(at: resourceVersionPath)?.stringValue, !version.isEmpty else { return nil }
            return .at(.init(name: "resourceVersion", value: version))
        case "ERROR":
            return object["code"]?.int64Value == 410 ? .startOver : nil
        default:
            return nil
        }
    }

    /// A watch event's envelope: an object of exactly a text `type` and an `object` that is
    /// an object; `nil` for anything else.
    private static func event(_ message: JSONValue) -> (type: String, object: JSONValue)? {
        guard let members = message.objectValue, members.count == 2, let type = members["type"]?.stringValue,
            let object = members["object"], object.objectValue != nil
        else { return nil }
        return (type, object)
    }

    /// Where an object keeps the version a watch resumes from.
    static let resourceVersionPath = JSONPointer(tokens: ["metadata", "resourceVersion"])

    /// A `Status` in words: `410 Expired: too old resource version: 1 (2)`, at most 300
    /// characters on one line.
    static func describe(status: JSONValue) -> String {
        let code = ItemExtractor.text(status["code"])
        let reason = ItemExtractor.text(status["reason"])
        let message = ItemExtractor.text(status["message"]) ?? "watch error"
        let head = [code, reason].compactMap { $0 }.joined(separator: " ")
        let text = head.isEmpty ? message : "\(head): \(message)"
        return String(String(text.prefix(300)).map { $0.isNewline ? " " : $0 })
    }
}
