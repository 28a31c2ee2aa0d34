import FeedCore
import Logging
import NIOConcurrencyHelpers

/// Logs how items are read whenever that changes: the profile found in the first document
/// with items (what was chosen and why), what a reading again changed (columns gained,
/// decimals raised), or, while none has items, what the documents hold instead. A consumer
/// of the fan-out stage.
///
/// Once, too, when an append stream's events turn out to be versions of fewer items (a
/// ticker's products, a build's states) under a key found, not given: the page shows each
/// item's newest version first and moves it at every version, and `--key-path` would keep
/// one row per item in its place. The log is where the person who started feedweb looks; a
/// kiosk's page is not.
struct ItemReadingLog: Sendable {
    let logger: Logger
    /// Whether the versions were told of.
    private let toldVersions = NIOLockedValueBox(false)

    init(logger: Logger) {
        self.logger = logger
    }

    func deliver(_ change: FanoutChange) {
        guard change.publishedChanged, let reading = change.snapshot.published.reading else { return }
        tellOfVersions(change.snapshot.published, reading: reading)
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

    /// Logs, once, that the items come as versions of fewer items and how to keep each in
    /// its place: in append mode (where the versions left out are no problem the page
    /// shows), under a key that was found.
    private func tellOfVersions(_ published: PublishedView, reading: ItemReading) {
        guard published.hiddenItems > 0, published.itemsProblem == nil, reading.origin == .found,
            let key = reading.profile.keyPath,
            toldVersions.withLockedValue({ told in
                defer { told = true }
                return !told
            })
        else { return }
        let versions = published.hiddenItems == 1 ? "1 event has" : "\(published.hiddenItems) events have"
        logger.notice(
            "items: \(versions) the key (\(key)) of a newer one: they are versions of \(published.items.count) items, each shown once and moved first by each new version; --key-path \(key) keeps each item in its place, and --keep then counts items"
        )
    }
}
