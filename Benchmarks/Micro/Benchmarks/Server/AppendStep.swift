import Benchmark
import FeedCore
import Foundation
import MicroFixtures
@_spi(Benchmarks) import WebUI

/// One append-mode change, the whole way through but the sockets: the commit
/// (`prependItem`, which computes the item changes), then what the streams make of it
/// once for all of their clients: the `/events` patch event, the `/events/items` events of
/// the change's item changes, and the list entry of the added item.
///
/// The store holds 1,000 Wikimedia `recentchange` events of ~1.3 KB (`keep: 1000`, so
/// every step adds one item and drops the oldest). The page stream's list fragment
/// (`PageRenderer.storyFragment`) is internal to WebUI; the step renders the list page of
/// a view holding only the added item instead: the same `story` template, plus the page
/// frame around it.
func appendStepBenchmarks() {
    let keep = 1_000
    let store = RecentChangeFixtures.store(count: keep)
    // Distinct events, cycled: an event comes back long after it left the 1,000 kept.
    let incoming = ((keep + 1)...(keep + 4_096)).map(RecentChangeFixtures.item)
    let itemBytes = RecentChangeFixtures.itemText(keep + 1).utf8.count
    let now = Date()
    nonisolated(unsafe) var next = 0
    Benchmark(
        "Append step: commit + item changes + encode + fragment render (\(keep) items of \(itemBytes) B)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))
    ) { _ in
        // The commit: the patch, the mirror's items, the published view and its item changes.
        let change = store.prependItem(incoming[next % incoming.count], keep: keep)
        next += 1
        guard case .patch(_, let encodedPatch) = change.kind else { fatalError("an append is a patch") }
        // `/events`: the patch event.
        blackHole(DocumentEvents.patch(id: change.snapshot.id, encodedPatch: encodedPatch))
        // `/events/items`: the events of the item changes, as every client of all sections gets them.
        let view = change.snapshot.published
        let changes = view.itemChanges(since: change.previousPublished)
        let id = EventID(epoch: store.epoch, seq: view.seq)
        blackHole(ItemEvents.changes(changes, section: nil, id: id, withOwn: view.profile.layout == .table))
        let added = changes.first { $0.kind == .added }?.item
        // The page stream: the added item's list entry.
        guard let added else { fatalError("an append adds an item") }
        let entryView = PublishedView(epoch: store.epoch, seq: view.seq, version: nil, items: ChunkedArray([added]))
        blackHole(BenchmarkEntry.listPage(view: entryView, now: now))
    }

    // The commit alone, on a store of its own: what of the step is the store's.
    let commitStore = RecentChangeFixtures.store(count: keep)
    nonisolated(unsafe) var nextCommit = 0
    Benchmark(
        "Append step, commit only: prependItem (\(keep) items of \(itemBytes) B)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))
    ) { _ in
        blackHole(commitStore.prependItem(incoming[nextCommit % incoming.count], keep: keep))
        nextCommit += 1
    }
}
