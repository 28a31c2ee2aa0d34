/// The events of `/events/items`, feedweb's item-level protocol: an `event: snapshot` with
/// every item of a section, then `added`, `updated` and `removed` events carrying the
/// normalised item (a table's with its own JSON too) and its key. Ids are the `EPOCH-SEQ`
/// of the change that published.
///
/// Every event a stream sends in this protocol is made here, once per section and change
/// or view, and the same bytes are then queued to every client of that section.
public enum ItemEvents {
    /// The `snapshot` event of `section` (`nil`: every item) in `view`.
    public static func snapshot(of view: PublishedView, section: String?) -> [UInt8] {
        let withOwn = view.profile.layout == .table
        let items = view.items(inSection: section).map { $0.json(withOwn: withOwn) }
        return SSEEncoder.event(
            type: "snapshot", data: JSONValue.array(items).serializedString(), id: view.id.description)
    }

    /// The events of `changes` for a client of `section`, in order, with id `id`; with
    /// `withOwn`, each item's own JSON too (a table's: ``FeedItem/json(withOwn:)``). Empty
    /// when none of them is in the section.
    public static func changes(_ changes: [ItemChange], section: String?, id: EventID, withOwn: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for change in changes {
            guard let visible = change.filtered(to: section) else { continue }
            let data: JSONValue
            switch visible.kind {
            case .added, .updated: data = visible.item.json(withOwn: withOwn)
            case .removed:
                data = .object([
                    "key": .string(visible.item.key), "section": visible.item.section.map(JSONValue.string) ?? .null,
                ])
            }
            SSEEncoder.event(
                type: visible.kind.rawValue, data: data.serializedString(), id: id.description, into: &bytes)
        }
        return bytes
    }
}
