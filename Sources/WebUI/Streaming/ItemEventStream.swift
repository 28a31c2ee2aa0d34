import FeedCore

/// `/events/items`: the published view at item level. A new client gets `retry:` and an
/// `event: snapshot` with every item (of its `?section=`), then `added`, `updated` and
/// `removed` events carrying the normalised item and its key. Ids are `EPOCH-SEQ` of the
/// change that published; a client resuming inside the store's history gets only what it
/// missed.
public final class ItemEventStream: Sendable {
    let broadcaster: Broadcaster<String?, PublishedView>
    private let store: FeedStore

    /// - Parameter onPublish: see ``Broadcaster/init(initial:onPublish:)``.
    public init(store: FeedStore, onPublish: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil) {
        self.store = store
        self.broadcaster = Broadcaster(initial: store.snapshot?.published, onPublish: onPublish)
        store.observe { [weak self] change in
            guard change.publishedChanged else { return }
            self?.publish(change)
        }
    }

    public var clientCount: Int { broadcaster.count }

    private func publish(_ change: FeedChange) {
        let view = change.snapshot.published
        guard let previous = change.previousPublished else {
            broadcaster.publish(
                view, encode: { section, view in self.snapshotEvent(view, section: section) },
                catchUp: { section, view in self.snapshotEvent(view, section: section) })
            return
        }
        let changes = view.itemChanges(since: previous)
        let id = view.id
        // A client too far behind gets a fresh `snapshot` of its section in place of its backlog.
        broadcaster.publish(
            view, encode: { section, _ in Self.encode(changes, section: section, id: id) },
            catchUp: { section, view in self.snapshotEvent(view, section: section) })
    }

    /// Subscribes `stream` to the items of `section` (`nil`: all).
    public func subscribe(_ stream: StreamConnection, section: String?, lastEventID: String?) {
        broadcaster.subscribe(stream, to: section) { current in
            var first: [[UInt8]] = [SSEEncoder.retry(milliseconds: DocumentEventStream.retryMilliseconds)]
            guard let current else { return first }
            if let text = lastEventID, let id = EventID(parsing: text),
                let missed = store.resumeItems(after: id, through: current.seq)
            {
                for step in missed {
                    first.append(
                        Self.encode(step.itemChanges, section: section, id: EventID(epoch: id.epoch, seq: step.seq)))
                }
                return first
            }
            first.append(snapshotEvent(current, section: section))
            return first
        }
    }

    public func unsubscribe(_ stream: StreamConnection) {
        broadcaster.unsubscribe(stream)
    }

    private func snapshotEvent(_ view: PublishedView, section: String?) -> [UInt8] {
        let items = view.items(inSection: section)
        return SSEEncoder.event(
            type: "snapshot", data: JSONValue.array(items.map(\.json)).serializedString(),
            id: view.id.description)
    }

    static func encode(_ changes: [ItemChange], section: String?, id: EventID) -> [UInt8] {
        var bytes: [UInt8] = []
        for change in changes {
            guard let visible = change.filtered(to: section) else { continue }
            let data: JSONValue
            switch visible.kind {
            case .added, .updated: data = visible.item.json
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
