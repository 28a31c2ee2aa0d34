import DequeModule
import Foundation

/// What the feed has been doing: counts per five-second window over the last ten minutes,
/// the notable events among them, the latest headline, the bytes received against what
/// polling would have cost, and totals since start. The numbers behind `/stats`,
/// `/api/stats` and the totals in `/metrics`.
///
/// A pure value: every event comes with its time (``record(_:at:)``), and time moves only
/// when it is told (``advance(to:)``); nothing here reads a clock or does I/O.
///
/// Invariants:
/// - Memory is bounded whatever the feed does and however long it runs: a ring of
///   ``windowBuckets`` + 1 buckets (the ten minutes shown and the window filling now), at
///   most ``maxNotableEvents`` notable events (those older than the window are dropped),
///   at most ``maxSections`` remembered section names.
/// - Time only moves forward. An event stamped earlier than the newest window still lands
///   in its own window while that is kept; older ones count in the totals only.
/// - ``totals`` count everything recorded since start, whatever the windows kept.
public struct FeedStatistics: Sendable {
    /// The length of one window, in seconds.
    public static let bucketSeconds: TimeInterval = 5
    /// The completed windows shown: ten minutes.
    public static let windowBuckets = 120
    /// The most notable events kept; the oldest go first.
    public static let maxNotableEvents = 100
    /// The most section names remembered to tell a new one; past it, no section is new.
    public static let maxSections = 1000

    /// When counting started.
    public let startedAt: Date
    /// What the bytes received are weighed as against polling (``StatsComparison``).
    public let comparison: StatsComparison
    /// Everything counted since ``startedAt``.
    public private(set) var totals = StatsTotals()
    /// The newest story published, with when (`nil` until one is).
    public private(set) var ticker: TickerEntry?

    private var ring = BucketRing(capacity: Self.windowBuckets + 1)
    /// The newest window time has reached; the ring holds `head - windowBuckets ... head`.
    private var head: Int64
    private var polling: PollingCounterfactual
    private var notable = Deque<NotableEvent>()
    private var sections = Set<String>()
    /// Whether the sections of a first published view were taken as the baseline (they
    /// are not "new": a marker for each would only bury the first window).
    private var hasSectionBaseline = false

    /// Starts counting at `startedAt`; `pollInterval` is what the counterfactual poller
    /// waits between polls, in seconds (`--interval`, or
    /// ``UpstreamConfiguration/defaultPollInterval`` for streaming sources); `comparison`
    /// says what the bytes received (``StatsEvent/received(bytes:)``) are.
    public init(
        startedAt: Date, pollInterval: TimeInterval = UpstreamConfiguration.defaultPollInterval.timeInterval,
        comparison: StatsComparison = .upstream
    ) {
        self.startedAt = startedAt
        self.comparison = comparison
        head = StatsBucket.index(of: startedAt)
        polling = PollingCounterfactual(interval: pollInterval)
    }

    /// Takes the state already there when counting starts (restored from the state file):
    /// its sections are the baseline, its size what a poll would download, its newest
    /// story the ticker. `headline`'s time is when that view was published.
    public mutating func seed(sections: [String], documentBytes: Int, headline: TickerEntry?) {
        takeSectionBaseline(sections)
        polling.setDocumentBytes(documentBytes)
        if let headline { ticker = headline }
    }

    /// Counts `event`, which happened at `time`.
    public mutating func record(_ event: StatsEvent, at time: Date) {
        advance(to: time)
        switch event {
        case .received(let bytes):
            polling.start(at: time)
            totals.bytesReceived += bytes
            updateBucket(at: time) { $0.bytesReceived += bytes }
        case .accepted(let change):
            polling.setDocumentBytes(change.documentBytes)
            totals.changes += UInt64(change.upstreamChanges)
            totals.itemsAdded += UInt64(max(0, change.added))
            totals.itemsUpdated += UInt64(max(0, change.updated))
            totals.itemsRemoved += UInt64(max(0, change.removed))
            updateBucket(at: time) {
                $0.changes += change.upstreamChanges
                $0.added += change.added
                $0.updated += change.updated
                $0.removed += change.removed
            }
            if change.published {
                noteSections(change.sections, at: time)
                for mark in change.marks {
                    totals.marks += 1
                    note(.mark, detail: mark.item, label: mark.label, at: time)
                }
                if let headline = change.headline {
                    ticker = TickerEntry(title: headline.title, key: headline.key, isNew: headline.isNew, time: time)
                }
            }
            if change.isGuardRegression {
                totals.guardRegressions += 1
                let detail = Self.versionText(change.version).map { "version \($0)" } ?? "no version"
                note(
                    .guardRegression,
                    detail: "\(detail), published \(Self.versionText(change.publishedVersion) ?? "?")", at: time)
            }
        case .reconnect(let reason):
            totals.reconnects += 1
            note(.reconnect, detail: reason, at: time)
        case .rejectedPatch(let reason):
            totals.rejectedPatches += 1
            note(.rejectedPatch, detail: reason, at: time)
        case .leaderChange(let detail):
            totals.leaderChanges += 1
            note(.leaderChange, detail: detail, at: time)
        }
    }

    /// Moves time to `time` (never back): rolls windows older than the kept ten minutes off
    /// and counts the polls the counterfactual poller made before `time`.
    public mutating func advance(to time: Date) {
        head = max(head, StatsBucket.index(of: time))
        let oldest = head - Int64(Self.windowBuckets)
        let oldestStart = StatsBucket(index: oldest).start
        var polling = self.polling
        polling.advance(to: time, reportFrom: oldestStart) { pollTime, bytes in
            updateBucket(at: pollTime) { $0.pollingBytes += bytes }
        }
        self.polling = polling
        totals.pollingBytes = polling.totalBytes
        totals.polls = polling.polls
        while let first = notable.first, first.time < oldestStart { notable.removeFirst() }
    }

    /// The ten minutes of completed windows before the one `now` falls in, oldest first,
    /// with their notable events and the totals so far. Advances time to `now`.
    public mutating func window(at now: Date) -> StatsWindow {
        advance(to: now)
        let first = head - Int64(Self.windowBuckets)
        let startIndex = StatsBucket.index(of: startedAt)
        let buckets = (first..<head).map { index -> StatsBucket? in
            index < startIndex ? nil : (ring.bucket(index) ?? StatsBucket(index: index))
        }
        let start = StatsBucket(index: first).start
        let end = StatsBucket(index: head).start
        let events = notable.filter { $0.time >= start && $0.time < end }.sorted { $0.time < $1.time }
        return StatsWindow(
            endIndex: head, buckets: buckets, notable: events, totals: totals, pollInterval: polling.interval,
            comparison: comparison)
    }

    // MARK: - Internals

    /// How much the value holds (for tests of its bounds): ring slots, notable events,
    /// remembered sections.
    var retained: (buckets: Int, notable: Int, sections: Int) {
        (ring.capacity, notable.count, sections.count)
    }

    private mutating func updateBucket(at time: Date, _ change: (inout StatsBucket) -> Void) {
        let index = StatsBucket.index(of: time)
        guard index <= head, index >= head - Int64(Self.windowBuckets) else { return }
        ring.update(index, change)
    }

    private mutating func note(_ kind: NotableEvent.Kind, detail: String?, label: String? = nil, at time: Date) {
        notable.append(NotableEvent(kind: kind, time: time, detail: detail, label: label))
        while notable.count > Self.maxNotableEvents { notable.removeFirst() }
    }

    private mutating func takeSectionBaseline(_ names: [String]) {
        for name in names where sections.count < Self.maxSections { sections.insert(name) }
        hasSectionBaseline = true
    }

    private mutating func noteSections(_ names: [String], at time: Date) {
        guard hasSectionBaseline else {
            takeSectionBaseline(names)
            return
        }
        for name in names where !sections.contains(name) && sections.count < Self.maxSections {
            sections.insert(name)
            totals.newSections += 1
            note(.newSection, detail: name, at: time)
        }
    }

    /// A version number as the feed would write it: `42`, or `41.5`.
    private static func versionText(_ version: Double?) -> String? {
        guard let version, version.isFinite else { return nil }
        if version == version.rounded(), abs(version) < 1e15 { return String(Int64(version)) }
        return String(version)
    }
}
