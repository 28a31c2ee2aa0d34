import FeedCore

/// What of `/inspect`'s event log a frame redraws: the whole log, or the rows of new events
/// (put on top), of events that left it (removed) and of events whose stages filled in
/// (swapped by id). A feed at a steady rate redraws one or two rows a frame, not the 200.
enum InspectEventsChange: Sendable, Equatable {
    /// The whole log (`#inspect-events`).
    case whole
    /// Row by row (``Templates/inspectEvent``).
    case rows(Rows)

    struct Rows: Sendable, Equatable {
        /// New events, newest first, to put on top in this order.
        var added: [EventID] = []
        /// Events no longer listed.
        var removed: [EventID] = []
        /// Events listed before whose stages changed.
        var updated: [EventID] = []
    }

    /// What redraws the log of `old` as the log of `new` (both oldest first): ``whole`` when
    /// either is empty (the table comes or goes) or the log is drawn by templates of the
    /// user's own (`inspectEvents` or `inspectEvent` replaced: its rows may not be where
    /// the page stream puts them, nor have the ids it swaps and removes them by).
    static func between(_ old: [InspectedEvent], _ new: [InspectedEvent], ownTemplate: Bool) -> InspectEventsChange {
        guard !old.isEmpty, !new.isEmpty, !ownTemplate else { return .whole }
        var before: [EventID: Stages] = [:]
        for event in old { before[event.id] = event.stages }
        var rows = Rows()
        var listed = Set<EventID>()
        for event in new.reversed() {
            listed.insert(event.id)
            if let stages = before[event.id] {
                if stages != event.stages { rows.updated.append(event.id) }
            } else {
                rows.added.append(event.id)
            }
        }
        rows.removed = old.map(\.id).filter { !listed.contains($0) }
        return .rows(rows)
    }
}
