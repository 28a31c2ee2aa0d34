/// CouchDB's changes feed (`/DB/_changes?feed=continuous`, with `&include_docs=true` the
/// documents too), read in append mode as the set of documents it changes, not as a log of
/// revisions: one JSON object a line,
/// `{"seq":…,"id":"doc-7","changes":[{"rev":"2-…"}],"doc":{"_id":"doc-7",…}}`.
///
/// - A change with its `doc`: the document, put in place of the kept one with its `_id`, or
///   first when none has it.
/// - A change without (no `include_docs`): the row itself, put by its `id`.
/// - `"deleted": true`: the kept document or row with that id taken out.
/// - `{"last_seq":…,"pending":…}`, the line a feed ends with: ignored, not counted.
///
/// Any other message is not a change (``command(for:keep:)`` returns `nil`).
///
/// A feed that ends is read again `since` the last change read (``resume(after:)``), in
/// place of the URL's own `since` (`now` included), so nothing that changed in between is
/// lost and nothing before it is read again.
enum CouchChanges {
    /// Where a document keeps its id, and where a change row does.
    static let documentIDPath = JSONPointer(tokens: ["_id"])
    static let rowIDPath = JSONPointer(tokens: ["id"])

    /// The command for `message`, or `nil` when it is not a change: an object with a
    /// `seq`, a text `id` and an array of `changes`, or the feed's last line.
    static func command(for message: JSONValue, keep: Int) -> UpstreamCommand? {
        guard let members = message.objectValue else { return nil }
        if isLastLine(members) { return .ignore(reason: "the changes feed's last line", counted: false) }
        guard isChange(members), let id = members["id"]?.stringValue else { return nil }
        let document = members["doc"].flatMap { $0.objectValue != nil ? $0 : nil }
        let idPath = document == nil ? rowIDPath : documentIDPath
        if members["deleted"] == .bool(true) { return .removeItemByID(.string(id), idAt: idPath) }
        return .putItem(document ?? message, idAt: idPath, keep: keep)
    }

    /// Where the feed resumes after `message`: a change's `seq`, or the last line's
    /// `last_seq` (text as CouchDB 2 and later write them, a number as 1.x does); `nil` for
    /// anything else.
    static func resume(after message: JSONValue) -> StreamResume? {
        guard let members = message.objectValue else { return nil }
        let sequence: JSONValue?
        if isLastLine(members) {
            sequence = members["last_seq"]
        } else if isChange(members) {
            sequence = members["seq"]
        } else {
            return nil
        }
        switch sequence {
        case .string(let text)? where !text.isEmpty: return .at(.init(name: "since", value: text))
        case .int(let number)? where number >= 0: return .at(.init(name: "since", value: String(number)))
        default: return nil
        }
    }

    /// Whether `members` are the feed's last line: a `last_seq`, and a `pending` at most.
    private static func isLastLine(_ members: JSONObject) -> Bool {
        members["last_seq"] != nil && members.keys.allSatisfy { ["last_seq", "pending"].contains($0) }
    }

    /// Whether `members` are a change: a `seq`, a text `id` that is not empty and an array of
    /// `changes`.
    private static func isChange(_ members: JSONObject) -> Bool {
        members["seq"] != nil && members["id"]?.stringValue?.isEmpty == false && members["changes"]?.arrayValue != nil
    }
}
