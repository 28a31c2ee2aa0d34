import FeedCore
import Logging

/// Logs how items are read whenever that changes: the profile found in the first document
/// with items (what was chosen and why), or, while none has items, what the documents
/// hold instead. A consumer of the fan-out stage.
struct ItemReadingLog: Sendable {
    let logger: Logger

    func deliver(_ change: FanoutChange) {
        guard change.publishedChanged, let reading = change.snapshot.published.reading else { return }
        let before = change.change.previousPublished?.reading
        guard before?.origin != reading.origin || before?.notes != reading.notes else { return }
        switch reading.origin {
        case .given:
            return
        case .undecided:
            logger.info("items: \(reading.notes.joined(separator: "; "))")
        case .recognised, .found:
            logger.notice(
                "items \(reading.origin == .found ? "found" : "recognised"): \(reading.notes.joined(separator: "; "))"
            )
        }
    }
}
