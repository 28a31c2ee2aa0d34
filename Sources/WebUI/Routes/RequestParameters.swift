import FeedCore

/// A moment of the feed's past, as `?at=` names it: a change by its id, or a wall time.
enum PastMoment: Sendable, Equatable {
    /// After change `EPOCH-SEQ`.
    case change(EventID)
    /// After the last change committed at or before this time.
    case time(WallTime)

    /// `EPOCH-SEQ`, or an RFC 3339 time (`2026-11-24T14:03:00Z`, with or without a fraction
    /// of a second, any offset); `nil` for anything else.
    init?(_ text: String) {
        if let id = EventID(parsing: text) {
            self = .change(id)
        } else if let time = WallTime(rfc3339: text) {
            self = .time(time)
        } else {
            return nil
        }
    }
}

/// The request parameters more than one endpoint reads, parsed one way everywhere.
extension HTTPRequest {
    /// `?section=`: the section to show (`nil` for none or an empty value: every section).
    var sectionFilter: String? {
        query("section").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where a resuming stream client left off: the `Last-Event-ID` header, else the
    /// `lastEventId` or `last_event_id` query argument (for clients that cannot set headers).
    var lastEventID: String? {
        header("Last-Event-ID") ?? query("lastEventId") ?? query("last_event_id")
    }

    /// `?at=`: the moment of the past asked for; `nil` when absent (now), `.some(nil)` when
    /// present and not a moment (400).
    var pastMoment: PastMoment?? {
        guard let text = query("at") else { return nil }
        return .some(PastMoment(text))
    }
}
