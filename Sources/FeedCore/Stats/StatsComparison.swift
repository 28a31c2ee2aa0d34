/// What `/stats` weighs against polling the full document at the poll interval, and so
/// what its "received" bytes are.
public enum StatsComparison: String, Sendable, Equatable {
    /// The bytes feedweb received from a streaming upstream (a snapshot, then patches),
    /// against polling that upstream: what streaming saves feedweb.
    case upstream
    /// The bytes each screen gets from feedweb's stream (`/events`: the first change's
    /// whole document, then each change as a patch), against each screen polling the API
    /// itself: what feedweb saves its screens when it polls the upstream for them
    /// (`--poll`), where feedweb's own download is the polling.
    case screens
}
