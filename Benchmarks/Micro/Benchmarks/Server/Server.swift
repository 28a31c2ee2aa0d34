import Benchmark
import FeedCore
import Foundation
import MicroFixtures
@_spi(Benchmarks) import WebUI

// WebUI's hot paths: rendering a page once per change, and the fan-out of one change to the
// `/events` clients (encoded once, the same bytes queued to every client).

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 200_000
    )

    let store = Fixtures.store()
    guard let snapshot = store.snapshot, let item = snapshot.published.items.first else {
        fatalError("the fixture has no items")
    }
    let view = snapshot.published
    let now = Date()

    // MARK: Pages

    Benchmark(
        "Page render: the list / (\(view.items.count) stories, \(BenchmarkEntry.listPage(view: view, now: now).count) B)"
    ) { _ in
        blackHole(BenchmarkEntry.listPage(view: view, now: now))
    }
    Benchmark("Page render: an item page (\(BenchmarkEntry.itemPage(item: item, now: now).count) B)") { _ in
        blackHole(BenchmarkEntry.itemPage(item: item, now: now))
    }

    // MARK: Fan-out

    let encodedPatch = Array(Fixtures.stampPatch(seq: 7).utf8)
    let id = EventID(epoch: "k3j9x0q2m1", seq: 123_456)
    Benchmark(
        "Fan-out encode: one patch into SSE bytes (\(DocumentEvents.patch(id: id, encodedPatch: encodedPatch).count) B), once per change",
        configuration: .init(scalingFactor: .kilo)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DocumentEvents.patch(id: id, encodedPatch: encodedPatch))
        }
    }

    // One patch through the whole server side but the sockets: FeedStore.apply (parsing the
    // patch is the upstream's), the fan-out stage, the /events broadcaster encoding it once and queueing the
    // same bytes to each subscribed client (in memory: no libmicrohttpd connection behind
    // them, so no resume). The clients stay subscribed across iterations, as in a running
    // server, and their queues grow by one event per iteration (a few MB in all).
    for clients in [1_000, 10_000] {
        let store = Fixtures.store()
        let shards = Shard.shards(of: store, for: nil)
        let stream = DocumentEventStream(store: store, shards: shards)
        let delivered = BenchmarkEntry.fanOut(of: store, to: stream)
        var connections: [StreamConnection] = []
        for _ in 0..<clients {
            let connection = StreamConnection(maxQueuedBytes: 64 * 1024 * 1024)
            stream.subscribe(connection, on: shards[0], mode: .patches, lastEventID: nil)
            connections.append(connection)
        }
        var patches: [JSONPatch] = []
        for seq in 1...2_100 {
            do { patches.append(try JSONPatch(parsing: Array(Fixtures.stampPatch(seq: seq).utf8))) } catch {
                fatalError("\(error)")
            }
        }
        nonisolated(unsafe) var next = 0
        Benchmark(
            "Fan-out: one patch applied and queued to \(clients) /events clients",
            configuration: .init(maxDuration: .seconds(3), maxIterations: 2_000)
        ) { _ in
            withExtendedLifetime((stream, connections)) {
                do { blackHole(try store.apply(patches[next % patches.count])) } catch { fatalError("\(error)") }
                delivered()
            }
            next += 1
        }
    }

    // MARK: One change, end to end

    appendStepBenchmarks()
}
