import Foundation

/// What polling would have cost: the bytes a client would have downloaded had it fetched
/// the full document every ``interval`` seconds instead of receiving a snapshot and patches.
///
/// The poller starts when upstream first sends bytes (``start(at:)``): its polls happen at
/// `start + k × interval` for k = 0, 1, 2, …, and each downloads the document as it is
/// then. By time `t` it has made ⌈(t − start) ÷ interval⌉ polls: a poll counts once time
/// has passed it, so a change recorded at the very instant of a poll is already in it.
/// Polls that fall before the first document is known are counted, at the first
/// document's size, once it is (upstream's first bytes arrive just before the document
/// they carry).
///
/// Pure arithmetic: time is passed in, memory is constant, and a gap of any length costs
/// no more work than the polls the caller asks to see one by one.
public struct PollingCounterfactual: Sendable, Equatable {
    /// Seconds between polls (`--interval`, or ``UpstreamConfiguration/defaultPollInterval``
    /// for streaming sources); at least 0.1.
    public let interval: TimeInterval
    /// The first poll (`nil`: upstream has sent nothing yet).
    public private(set) var start: Date?
    /// The size of the document, in bytes (`nil`: no document yet).
    public private(set) var documentBytes: Int?
    /// Bytes all counted polls downloaded.
    public private(set) var totalBytes: UInt64 = 0
    /// Polls counted.
    public private(set) var polls: UInt64 = 0

    /// - Parameter interval: seconds between polls; one that is not finite counts as
    ///   ``UpstreamConfiguration/defaultPollInterval``.
    public init(interval: TimeInterval) {
        self.interval = max(0.1, interval.isFinite ? interval : UpstreamConfiguration.defaultPollInterval.timeInterval)
    }

    /// Starts the poller at `time`, unless it has started.
    public mutating func start(at time: Date) {
        if start == nil { start = time }
    }

    /// The document is now `bytes` long: polls from now on download that much.
    public mutating func setDocumentBytes(_ bytes: Int) {
        documentBytes = max(0, bytes)
    }

    /// Counts every poll made before `time` and not counted yet. `each` is called with the
    /// time and size of every such poll at or after `reportFrom` (those before it are only
    /// added to the totals), so a caller that keeps recent windows sees only theirs.
    public mutating func advance(to time: Date, reportFrom: Date? = nil, each: (Date, UInt64) -> Void = { _, _ in }) {
        guard let start, let documentBytes else { return }
        let due = Self.pollsMade(from: start, to: time, interval: interval)
        guard due > polls else { return }
        let size = UInt64(documentBytes)
        var first = polls
        if let reportFrom {
            first = max(first, Self.pollsMade(from: start, to: reportFrom, interval: interval))
        }
        if first < due {
            for number in first..<due {
                each(start.addingTimeInterval(Double(number) * interval), size)
            }
        }
        totalBytes += (due - polls) * size
        polls = due
    }

    /// ⌈(time − start) ÷ interval⌉, at least 0: the polls made before `time`.
    static func pollsMade(from start: Date, to time: Date, interval: TimeInterval) -> UInt64 {
        let count = (time.timeIntervalSince(start) / interval).rounded(.up)
        guard count.isFinite, count > 0 else { return 0 }
        return UInt64(min(count, 1e15))
    }
}
