import FeedCore
import Logging

/// Logs how items are read whenever that changes: the profile found in the first document
/// with items (what was chosen and why), what a reading again changed (columns gained,
/// decimals raised), or, while none has items, what the documents hold instead. A consumer
/// of the fan-out stage.
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
        case .found where before?.origin == .found:
            // Read again (columns gained, decimals raised): what is new, not all of it again.
            let known = Set(before?.notes ?? [])
            logger.notice("items read again: \(reading.notes.filter { !known.contains($0) }.joined(separator: "; "))")
        case .recognised, .found:
            logger.notice(
                "items \(reading.origin == .found ? "found" : "recognised"): \(reading.notes.joined(separator: "; "))"
            )
        }
    }
}
