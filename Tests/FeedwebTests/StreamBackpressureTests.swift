import FeedCore
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// A client that stops reading: it must not delay anyone else; while its queue is at the
/// bound it is given the newest state in place of its backlog (its memory stays bounded),
/// and it is dropped by the stall rule (nothing taken for 5 s), which frees its slot. A
/// client that reads too slowly: see SlowReaderCatchUpTests.swift. Serialized: each test
/// floods feedweb, and two floods at once would slow each other's readers; for the same
/// reason `make test` runs this suite on its own, after the parallel ones (Makefile).
@Suite(.serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct StreamBackpressureTests {
    /// The patch number a flood patch carries at the start of its padding.
    static func floodNumber(_ event: SSEEvent) -> Int? {
        guard let start = event.data.range(of: "\"k=")?.upperBound else { return nil }
        return Int(event.data[start...].prefix { $0.isNumber })
    }

    @Test func aClientThatNeverReadsIsCaughtUpThenDroppedAndDelaysNoOne() async throws {
        var initial = NewswireFeed.document(stories: [3, 2, 1])
        if case .object(var object) = initial {
            object["padding"] = .string("")
            initial = .object(object)
        }
        let upstream = try await LiveFeedUpstream(document: initial)
        // The bound is what a reading client may fall behind by before it is dropped: at
        // this flood's ~1.5 MB/s, 1 MiB lets the daemon thread miss the CPU for ~0.7 s (as
        // it may on two busy cores) without dropping the readers. The stalled client's
        // kernel buffers hold ~2 MB more, so it goes ~2-3 s into the flood.
        let bound = 1024 * 1024
        let feedweb = try InProcessFeedweb(upstream: upstream.url) {
            $0.streams.maxQueuedBytesPerClient = bound
            $0.server.maxStreams = 3
            $0.history = 8
        }
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port, within: 10)

        let readers = [
            try await BackgroundSSEReader(port: feedweb.port), try await BackgroundSSEReader(port: feedweb.port),
        ]
        let stalled = try await StalledStreamClient(port: feedweb.port)
        try await Eventually.check("the stalled client to get its first bytes", within: 5) { stalled.unreadBytes > 0 }
        try await Eventually.check("the readers to get the document", within: 5) {
            readers.allSatisfy { $0.events.first?.event.type == "data" }
        }
        #expect(try await SSETestClient(port: feedweb.port).status == 503, "all three slots taken")

        // Flood: 48 KiB patches, one every 10 ms or so, until the stalled client's slot is
        // free again.
        let padding = String(repeating: "p", count: 48 * 1024)
        let port = feedweb.port
        let droppedAfter = NIOLockedValueBox<Double?>(nil)
        let floodStart = Date()
        let flood = try await UpstreamFlood.run(
            upTo: 600, pause: .milliseconds(10),
            push: { k in
                try await upstream.change([Patch.replace("/padding", .string("k=\(k);" + padding))], bumpVersion: false)
            },
            until: { k in
                if droppedAfter.withLockedValue({ $0 }) == nil, k % 4 == 0 {
                    let probe = try await SSETestClient(port: port, timeout: 2)
                    if probe.status == 200 {
                        droppedAfter.withLockedValue { $0 = Date().timeIntervalSince(floodStart) }
                    }
                    probe.close()
                }
                guard let dropped = droppedAfter.withLockedValue({ $0 }) else { return false }
                return Date().timeIntervalSince(floodStart) > dropped + 0.5
            })
        let sent = flood.sent
        let (startedAt, sentAt) = (flood.startedAt, flood.sentAt)
        let floodBytes = sent * padding.utf8.count

        // The stalled client was dropped, and its slot was freed.
        let dropTime = try #require(
            droppedAfter.withLockedValue { $0 }, "the stalled client was never dropped (\(floodBytes) bytes sent)")
        #expect(dropTime < 15, "dropped \(dropTime) s into the flood")
        let (cut, closed) = try await stalled.drain(within: 10)
        #expect(closed, "the server closed the stalled connection")
        #expect(cut.count < floodBytes, "it did not get the whole flood (\(cut.count) of \(floodBytes) bytes)")
        #expect(!cut.suffix(5).elementsEqual(Array("0\r\n\r\n".utf8)), "cut off, not ended cleanly")

        // It was the 5 s no-progress rule that dropped it, not the bound (past the bound an
        // `/events` client gets a fresh `data` in place of its backlog): the server last
        // took bytes for it no earlier than when the upstream began to send the last patch
        // it got, and the drop was seen 5 s after that, give or take the once-a-second sweep.
        let text = String(decoding: cut, as: UTF8.self)
        let lastSeen = text.components(separatedBy: "\"k=").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
            .max()
        let lastTaken = try #require(lastSeen, "the stalled client got some patches before it stalled")
        let takenAt = try #require(startedAt[lastTaken]).timeIntervalSince(floodStart)
        #expect(lastTaken < sent, "patches after \(lastTaken) never reached it")
        #expect(
            dropTime - takenAt > 4.5 && dropTime - takenAt < 9,
            "dropped \(dropTime - takenAt) s after its last progress (patch \(lastTaken) of \(sent)): the stall rule")
        // Meanwhile its queue was replaced by the newest state at the bound, not grown.
        let metrics = try await HTTPTestClient.get(port: feedweb.port, "/metrics", timeout: 5)
        let catchUps = try PrometheusText(parsing: metrics.text).value(
            "feedweb_stream_catchups_total", ["stream": "events"])
        #expect((catchUps ?? 0) >= 1, "the stalled client was caught up at the bound: \(catchUps ?? -1)")

        // The readers got every patch, in order.
        let finalDocument = upstream.document
        do {
            try await Eventually.check("the readers to get all \(sent) patches", within: 15, poll: .milliseconds(50)) {
                readers.allSatisfy { reader in reader.events.last.flatMap { Self.floodNumber($0.event) } == sent }
            }
        } catch {
            let seen = readers.map { reader in
                let tail = reader.events.suffix(8).compactMap { received -> String? in
                    guard let n = Self.floodNumber(received.event), let sent = sentAt[n] else { return nil }
                    return
                        "\(n)@\(Int(received.at.timeIntervalSince(floodStart) * 1000))ms+\(Int(received.at.timeIntervalSince(sent) * 1000))"
                }
                return "\(tail) failure: \(reader.failure ?? (reader.endedByServer ? "ended" : "-"))"
            }
            let state = try? await FeedwebProbe.state(port: feedweb.port).id
            let sends = (sent - 12...sent).compactMap { n in
                sentAt[n].map { "\(n)@\(Int($0.timeIntervalSince(floodStart) * 1000))" }
            }
            Issue.record("readers have \(seen); state \(state ?? "-"); sent \(sends); drop seen at \(dropTime)")
            throw error
        }
        var latencies: [Double] = []
        for (index, reader) in readers.enumerated() {
            let events = reader.events
            #expect(reader.failure == nil && !reader.endedByServer, "reader \(index): \(reader.failure ?? "ended")")
            let numbers = events.compactMap { Self.floodNumber($0.event) }
            #expect(numbers == Array(1...sent), "reader \(index) got every patch once, in order")
            var document = try JSONValue(parsing: #require(events.first).event.data)
            var previous = try #require(EventID(parsing: events[0].event.id))
            for received in events.dropFirst() {
                try JSONPatch(parsing: received.event.data).apply(to: &document)
                let id = try #require(EventID(parsing: received.event.id))
                #expect(id.seq == previous.seq + 1)
                previous = id
                if let n = Self.floodNumber(received.event), let sent = sentAt[n] {
                    latencies.append(received.at.timeIntervalSince(sent))
                }
            }
            #expect(document == finalDocument, "reader \(index) holds the upstream's document")
        }
        // Nobody waited for the stalled client. It made its last progress no earlier than
        // `takenAt`, so the stall rule could not drop it before `takenAt` + 5 s: a sender
        // that waited for it would have held every reader back until then. Each reader got
        // patches the upstream sent a second or more after that progress while the stalled
        // client was still connected.
        let stallStart = floodStart.addingTimeInterval(takenAt)
        for (index, reader) in readers.enumerated() {
            let duringStall = reader.events.filter { received in
                guard let n = Self.floodNumber(received.event), let sent = sentAt[n] else { return false }
                return sent > stallStart.addingTimeInterval(1) && received.at < stallStart.addingTimeInterval(5)
            }
            #expect(
                !duringStall.isEmpty,
                "reader \(index) got nothing sent after the stalled client's last progress until it could be dropped")
        }
        latencies.sort()
        let median = latencies[latencies.count / 2]
        let worst = latencies.last ?? 0
        // Waiting for the stalled client would cost the readers the 5 s until it is dropped;
        // these bounds stay below that and leave room for a loaded machine (what was seen:
        // BENCHMARKS.md, "The tests' time bounds").
        #expect(median < 1, "median delivery latency \(median) s")
        #expect(worst < 4, "worst delivery latency \(worst) s: nobody waited for the stalled client")
        print(
            "backpressure: \(sent) patches (\(floodBytes / 1024) KiB), dropped after \(dropTime) s,"
                + " \(dropTime - takenAt) s after its last progress;"
                + " stalled client got \(cut.count) bytes up to patch \(lastTaken);"
                + " latency median \(median) s, worst \(worst) s")

        for reader in readers { await reader.stop() }
        try await feedweb.stop()
        await upstream.shutdown()
    }
}
