import FeedCore
import Foundation

/// `/api/stats`: the figures of `/stats` as JSON. Times are ISO 8601, sizes in bytes.
///
/// `buckets` are the completed five-second windows of the last ten minutes since start,
/// oldest first; `events` the notable events among them (`kind`, `label` — a chart mark's
/// own label for `mark` —, `time`, `detail`); `totals` everything since
/// `started_at` up to the request, with `saving_ratio` (polling bytes ÷ received bytes) and `saved_fraction`
/// (1 − received ÷ polling), `null` until they mean something. `comparison` says what the
/// received bytes are (``StatsComparison``): `upstream` (from a streaming upstream) or
/// `screens` (sent to each screen on `/events`, when feedweb polls the upstream itself).
enum StatsJSON {
    static func encode(window: StatsWindow, totals: StatsTotals, ticker: TickerEntry?, startedAt: Date) -> JSONValue {
        func time(_ date: Date) -> JSONValue { .string(RelativeTime.machine(date)) }
        func count<T: BinaryInteger>(_ value: T) -> JSONValue { .int(Int64(clamping: value)) }
        func ratio(_ value: Double?) -> JSONValue {
            guard let value, value.isFinite else { return .null }
            return .double((value * 10_000).rounded() / 10_000)
        }
        return .object([
            "started_at": time(startedAt),
            "bucket_seconds": .double(FeedStatistics.bucketSeconds),
            "poll_interval_seconds": .double(window.pollInterval),
            "comparison": .string(window.comparison.rawValue),
            "window": .object(["start": time(window.start), "end": time(window.end)]),
            "buckets": .array(
                window.buckets.compactMap { $0 }.map { bucket in
                    .object([
                        "start": time(bucket.start),
                        "changes": count(bucket.changes),
                        "added": count(bucket.added),
                        "updated": count(bucket.updated),
                        "removed": count(bucket.removed),
                        "bytes_received": count(bucket.bytesReceived),
                        "polling_bytes": count(bucket.pollingBytes),
                    ])
                }),
            "events": .array(
                window.notable.map { event in
                    .object([
                        "kind": .string(event.kind.rawValue),
                        "label": .string(StatsView.label(event)),
                        "time": time(event.time),
                        "detail": event.detail.map(JSONValue.string) ?? .null,
                    ])
                }),
            "ticker": ticker.map { entry in
                .object([
                    "title": .string(entry.title), "key": .string(entry.key), "new": .bool(entry.isNew),
                    "time": time(entry.time),
                ])
            } ?? .null,
            "totals": .object([
                "changes": count(totals.changes),
                "items_added": count(totals.itemsAdded),
                "items_updated": count(totals.itemsUpdated),
                "items_removed": count(totals.itemsRemoved),
                "bytes_received": count(totals.bytesReceived),
                "polling_bytes": count(totals.pollingBytes),
                "polls": count(totals.polls),
                "reconnects": count(totals.reconnects),
                "rejected_patches": count(totals.rejectedPatches),
                "new_sections": count(totals.newSections),
                "guard_regressions": count(totals.guardRegressions),
                "marks": count(totals.marks),
                "leader_changes": count(totals.leaderChanges),
                "saving_ratio": ratio(totals.savingRatio),
                "saved_fraction": ratio(totals.savedFraction),
            ]),
        ])
    }
}
