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
}
