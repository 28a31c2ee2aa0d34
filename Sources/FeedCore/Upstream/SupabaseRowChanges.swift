/// Supabase Realtime's changes to a PostgreSQL table (a channel joined with
/// `{"config":{"postgres_changes":[{"event":"*","schema":"public","table":"prices"}]}}`),
/// read in append mode as the set of rows they change, not as a log: each
/// `postgres_changes` event's payload is
/// `{"ids":[…],"data":{"type":"UPDATE","table":"prices","record":{…},"old_record":{…},…}}`
/// (the older server's events, named `INSERT`, `UPDATE` and `DELETE`, carry the `data`'s
/// members as their payload).
///
/// - `INSERT` and `UPDATE`: the `record`, put in place of the kept row with its `id`, or
///   first when none has it; a row without an `id` is put first (with `--key-path`, in place
///   of the kept row with its key).
/// - `DELETE`: the kept row whose `id` is the `old_record`'s taken out (a table's replica
///   identity writes at least its primary key there).
///
/// Any other payload is not a row change (``command(for:keep:)`` returns `nil`).
enum SupabaseRowChanges {
    /// Where a row keeps its id: Supabase's tables' `id` primary key.
    static let idPath = JSONPointer(tokens: ["id"])

    /// What row changes are in document mode: edits of a set, not documents.
    static let inDocumentMode =
        "a table's row changes (Supabase's postgres_changes) are edits of its rows, not documents; read them with --mode append"

    /// The command for a change's `payload`, or `nil` when it is not one.
    static func command(for payload: JSONValue, keep: Int) -> UpstreamCommand? {
        let change = payload["data"]?.objectValue != nil ? payload["data"] ?? .null : payload
        guard let type = change["type"]?.stringValue, change["table"]?.stringValue != nil else { return nil }
        switch type {
        case "INSERT", "UPDATE":
            guard let record = change["record"], record.objectValue != nil else { return nil }
            if let id = record["id"], id != .null { return .putItem(record, idAt: idPath, keep: keep) }
            return .prependItem(record, keep: keep)
        case "DELETE":
            guard let id = change["old_record"]?["id"], id != .null else {
                return .ignore(reason: "a deleted row without its id (the table's replica identity)", counted: true)
            }
            return .removeItemByID(id, idAt: idPath)
        default:
            return nil
        }
    }
}
