import FeedCore

/// One accepted change as every consumer of the fan-out needs it, worked out once by
/// ``FanoutStage`` before any consumer runs: the store's change, the `/events` event it
/// becomes, and the item changes of the published view it advanced.
///
/// Immutable and shared by every consumer (and every shard of a stream): nothing here is
/// computed again per consumer, per channel or per client.
struct FanoutChange: Sendable {
    /// The change as the store accepted it.
    let change: FeedChange
    /// The `/events` `patch` event (id `EPOCH-SEQ`, the encoded patch as data); `nil` for a
    /// snapshot, which clients get as a `data` event of the new state.
    let patchEvent: [UInt8]?
    /// How the published view's items changed, when this change advanced it from a
    /// previous view (`/events/items`, `/stats`); `nil` when the view stayed, or when there
    /// was none before (a first document: clients get a snapshot).
    let itemChanges: [ItemChange]?

    init(_ change: FeedChange) {
        self.change = change
        switch change.kind {
        case .patch(_, let encoded):
            patchEvent = DocumentEvents.patch(id: change.snapshot.id, encodedPatch: encoded)
        case .snapshot:
            patchEvent = nil
        }
        if change.publishedChanged, let previous = change.previousPublished {
            itemChanges = change.snapshot.published.itemChanges(since: previous)
        } else {
            itemChanges = nil
        }
    }

    /// The state after the change.
    var snapshot: FeedSnapshot { change.snapshot }

    /// Whether the change advanced the published view (what pages show).
    var publishedChanged: Bool { change.publishedChanged }
}
