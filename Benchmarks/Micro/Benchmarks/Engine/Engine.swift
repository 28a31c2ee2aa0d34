import Benchmark
import FeedCore
import MicroFixtures

// FeedCore's hot paths: what every upstream event costs before any client sees it.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 200_000
    )

    // MARK: SSE parse

    /// Feeds `stream` to a fresh parser in `chunk`-byte reads, as the upstream connection does.
    func parse(_ stream: (bytes: [UInt8], events: Int), chunk: Int) {
        var parser = SSEParser()
        var events: [SSEEvent] = []
        events.reserveCapacity(256)
        var count = 0
        stream.bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(offset + chunk, all.count)
                events.removeAll(keepingCapacity: true)
                do {
                    try parser.parse(UnsafeRawBufferPointer(rebasing: all[offset..<end]), into: &events)
                } catch {
                    fatalError("\(error)")
                }
                count += events.count
                for event in events { blackHole(event.data.utf8.count) }
                offset = end
            }
        }
        precondition(count == stream.events, "parsed \(count) events of \(stream.events)")
    }

    let patches = Fixtures.sseStream(bytes: 1_000_000, withDocument: false)
    Benchmark(
        "SSE parse: 1 MB of patch events (\(patches.events) events, ~\(patches.bytes.count / patches.events) B each), 16 KiB reads"
    ) { _ in
        parse(patches, chunk: 16 * 1024)
    }
    var onePatchBytes: [UInt8] = []
    SSEEncoder.event(type: "patch", data: Fixtures.stampPatch(seq: 7), id: "7", into: &onePatchBytes)
    let onePatch = (bytes: onePatchBytes, events: 1)
    Benchmark(
        "SSE parse: one patch event (\(onePatch.bytes.count) B)",
        configuration: .init(scalingFactor: .kilo)
    ) { benchmark in
        for _ in benchmark.scaledIterations { parse(onePatch, chunk: 16 * 1024) }
    }
    let withDocument = Fixtures.sseStream(bytes: 1_000_000, withDocument: true)
    Benchmark(
        "SSE parse: the 35 KB data event + 1 MB of patches, 1 KiB reads"
    ) { _ in
        parse(withDocument, chunk: 1024)
    }

    // MARK: JSON Patch on the ~35 KB document

    let stamp = Array(Fixtures.stampPatch(seq: 7).utf8)
    let storyPatch = Array(Fixtures.storyPatch(seq: 7).utf8)
    Benchmark(
        "Patch parse+apply: typical 3-op patch (\(stamp.count) B) on the \(Fixtures.documentBytes.count / 1000) KB document",
        configuration: .init(scalingFactor: .kilo)
    ) { benchmark in
        var document = Fixtures.document()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            do { try JSONPatch(parsing: stamp).apply(to: &document) } catch { fatalError("\(error)") }
        }
        benchmark.stopMeasurement()
        blackHole(document)
    }
    Benchmark(
        "Patch parse+apply: story patch, 5 ops (\(storyPatch.count) B)",
        configuration: .init(scalingFactor: .kilo)
    ) { benchmark in
        var document = Fixtures.document()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            do { try JSONPatch(parsing: storyPatch).apply(to: &document) } catch { fatalError("\(error)") }
        }
        benchmark.stopMeasurement()
        blackHole(document)
    }
    Benchmark("Patch apply only: story patch, 5 ops", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var document = Fixtures.document()
        let patch: JSONPatch
        do { patch = try JSONPatch(parsing: storyPatch) } catch { fatalError("\(error)") }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            do { try patch.apply(to: &document) } catch { fatalError("\(error)") }
        }
        benchmark.stopMeasurement()
        blackHole(document)
    }
    // What an accepted patch costs the engine: the mirror patched, the published view
    // (items extracted again: the version grows with every patch), the history entry, the
    // whole document re-encoded for new /events clients and /api/state. Parsing the patch
    // is not included (see above).
    let store = Fixtures.store()
    var storePatches: [JSONPatch] = []
    for seq in 1...2_100 {
        do { storePatches.append(try JSONPatch(parsing: Array(Fixtures.stampPatch(seq: seq).utf8))) } catch {
            fatalError("\(error)")
        }
    }
    nonisolated(unsafe) var next = 0
    Benchmark(
        "FeedStore.apply: typical patch (mirror, published view, history, re-encoded document)",
        configuration: .init(maxIterations: 2_000)
    ) { _ in
        do { blackHole(try store.apply(storePatches[next % storePatches.count])) } catch { fatalError("\(error)") }
        next += 1
    }

    // A commit whose cost should follow the change, not the document: one story's title
    // replaced in a ~1 MB document (600 stories), alternating between two values so that
    // every commit is a real change. The version (`/num_results`) does not move, so the
    // published view stays; the mirror, its items and the history do the work.
    let largeStoryCount = 600
    let largeDocument = Fixtures.document(storyIDs: 1...largeStoryCount, numResults: Int64(largeStoryCount))
    let largeStore = FeedStore(configuration: .init(profile: .nytNewswire), epoch: "bench")
    largeStore.replaceDocument(largeDocument)
    var titlePatches: [JSONPatch] = []
    for title in ["An edited headline, first version", "An edited headline, second version"] {
        let text = #"[{"op":"replace","path":"/results/300/title","value":"\#(title)"}]"#
        do { titlePatches.append(try JSONPatch(parsing: Array(text.utf8))) } catch { fatalError("\(error)") }
    }
    nonisolated(unsafe) var nextTitle = 0
    Benchmark(
        "FeedStore commit: one-op patch to a 1 MB document (\(largeDocument.serializedBytes().count) B, \(largeStoryCount) stories)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))
    ) { _ in
        do {
            guard let change = try largeStore.apply(titlePatches[nextTitle % titlePatches.count]) else {
                fatalError("the title patch changed nothing")
            }
            blackHole(change)
        } catch { fatalError("\(error)") }
        nextTitle += 1
    }

    // MARK: Diff (the polling mode's hot path)

    let base = Fixtures.document()
    let shifted = Fixtures.document(storyIDs: [1000] + Array(1...19))
    Benchmark("Diff: one story added on top, one dropped (35 KB documents)") { _ in
        blackHole(JSONDiff.diff(from: base, to: shifted))
    }
    var edited = base
    do {
        try JSONPatch(parsing: Array(#"[{"op":"replace","path":"/results/5/title","value":"x"}]"#.utf8))
            .apply(to: &edited)
    } catch { fatalError("\(error)") }
    let editedUnshared: JSONValue
    do { editedUnshared = try JSONParser.parse(edited.serializedBytes()) } catch { fatalError("\(error)") }
    Benchmark("Diff: one title edited, independently parsed documents") { _ in
        blackHole(JSONDiff.diff(from: base, to: editedUnshared))
    }

    // MARK: JSON

    let documentBytes = Fixtures.documentBytes
    Benchmark("JSON parse: the 35 KB document") { _ in
        do { blackHole(try JSONParser.parse(documentBytes)) } catch { fatalError("\(error)") }
    }
    Benchmark("JSON serialize: the 35 KB document") { _ in
        blackHole(base.serializedBytes())
    }
}
