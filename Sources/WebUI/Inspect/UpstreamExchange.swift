import Foundation

/// One exchange with upstream, as `/inspect` lists it: a connect (or reconnect) and what
/// became of it, or one poll.
struct UpstreamExchange: Sendable, Equatable {
    enum Kind: String, Sendable {
        case connect
        case reconnect
        case poll
    }

    let kind: Kind
    /// When it started (the attempt, or the request).
    var startedAt: Date
    /// Upstream's HTTP status, once it answered.
    var status: Int?
    /// Body bytes received in it.
    var bytes: UInt64 = 0
    /// What ended it badly, in words (URLs redacted as the logs redact them).
    var error: String?
    /// When it ended (`nil`: still open, a stream).
    var endedAt: Date?

    /// How long it lasted, or has lasted by `now`.
    func duration(now: Date) -> TimeInterval {
        max(0, (endedAt ?? now).timeIntervalSince(startedAt))
    }
}
