import FeedCore
import Testing

@Suite("SSE parser")
struct SSEParserTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    // MARK: The bound on event size

    @Test("an event whose data grows past maxEventBytes throws")
    func eventLargerThanLimitThrows() {
        var parser = SSEParser(maxEventBytes: 1024)
        let line = "data: " + String(repeating: "x", count: 600) + "\n"
        // First line: 607 bytes, fine. Second: 606 bytes + 601 bytes of data > 1024.
        #expect(throws: SSEParserError.eventTooLarge(limit: 1024)) {
            _ = try parser.parse(bytes(line + line + "\n"))
        }
        #expect(parser.bufferedByteCount == 0)
        #expect(parser.bufferCapacity == 0)
    }

    @Test("the limit holds however the bytes are split")
    func limitIndependentOfChunking() throws {
        let stream = bytes(
            "data: " + String(repeating: "y", count: 700) + "\ndata: " + String(repeating: "z", count: 400) + "\n\n")
        for size in [1, 3, 64, 700, 5000] {
            var parser = SSEParser(maxEventBytes: 1024)
            var events: [SSEEvent] = []
            var thrown: SSEParserError?
            var i = 0
            while i < stream.count {
                let end = min(i + size, stream.count)
                do {
                    try parser.parse(stream[i..<end], into: &events)
                } catch {
                    thrown = error
                    break
                }
                #expect(parser.bufferedByteCount <= 1024)
                i = end
            }
            #expect(thrown == .eventTooLarge(limit: 1024), "chunk size \(size)")
            #expect(events.isEmpty)
        }
    }

    @Test("a line that never ends throws once it passes the limit, and keeps nothing")
    func neverEndingLineThrows() {
        var parser = SSEParser(maxEventBytes: 10_000)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        var accepted = 0
        var thrown: SSEParserError?
        for _ in 0..<1000 {
            do {
                _ = try parser.parse(chunk)
                accepted += 1
                #expect(parser.bufferedByteCount == accepted * 1000)
            } catch {
                thrown = error
                break
            }
        }
        // 10 chunks make exactly 10,000 bytes; the 11th goes past the limit.
        #expect(accepted == 10)
        #expect(thrown == .eventTooLarge(limit: 10_000))
        #expect(parser.bufferedByteCount == 0)
        #expect(parser.bufferCapacity == 0)
        // The parser stays failed: the caller must drop the connection.
        #expect(throws: SSEParserError.eventTooLarge(limit: 10_000)) {
            _ = try parser.parse(bytes("\n\n"))
        }
    }

    @Test("an event exactly at the limit passes; one byte more throws")
    func eventAtLimitPasses() throws {
        // The line "data: " + 994 bytes is 1000 bytes; the data buffer then holds 995
        // (value + LF), and the blank line adds nothing.
        let value = String(repeating: "v", count: 994)
        var parser = SSEParser(maxEventBytes: 1000)
        let events = try parser.parse(bytes("data: \(value)\n\n"))
        #expect(events == [SSEEvent(data: value)])

        // Two lines: the second line plus the data buffer must fit too.
        var twoLines = SSEParser(maxEventBytes: 1000)
        let first = String(repeating: "a", count: 494)  // 500-byte line, 495 data bytes
        let second = String(repeating: "b", count: 499)  // 505-byte line: 505 + 495 = 1000
        #expect(
            try twoLines.parse(bytes("data: \(first)\ndata: \(second)\n\n")) == [SSEEvent(data: first + "\n" + second)])

        var over = SSEParser(maxEventBytes: 1000)
        #expect(throws: SSEParserError.eventTooLarge(limit: 1000)) {
            _ = try over.parse(bytes("data: \(value)v\n\n"))
        }
        var overSecond = SSEParser(maxEventBytes: 1000)
        #expect(throws: SSEParserError.eventTooLarge(limit: 1000)) {
            _ = try overSecond.parse(bytes("data: \(first)\ndata: \(second)b\n\n"))
        }
    }

    @Test("long comment lines count against the limit too")
    func commentLinesAreBounded() {
        var parser = SSEParser(maxEventBytes: 100)
        #expect(throws: SSEParserError.eventTooLarge(limit: 100)) {
            _ = try parser.parse(bytes(": " + String(repeating: "c", count: 200) + "\n"))
        }
    }

    @Test("memory of a large event is given back after dispatch")
    func memoryNotRetained() throws {
        var parser = SSEParser()
        let big = String(repeating: "{\"k\":1}", count: 300_000)  // 2.1 MB
        let stream = bytes("event: data\ndata: \(big)\n\n")
        var events: [SSEEvent] = []
        var i = 0
        while i < stream.count {  // 16 KiB chunks: the line is carried across chunks
            let end = min(i + 16_384, stream.count)
            try parser.parse(stream[i..<end], into: &events)
            if end < stream.count { #expect(parser.bufferedByteCount > 0) }
            i = end
        }
        #expect(events.count == 1)
        #expect(events.first?.data.utf8.count == big.utf8.count)
        #expect(parser.bufferedByteCount == 0)
        #expect(parser.bufferCapacity < 300 * 1024)

        // Small events keep their (small) buffers for reuse and never grow them.
        for n in 0..<1000 { _ = try parser.parse(bytes("data: \(n)\n\n")) }
        #expect(parser.bufferCapacity < 300 * 1024)
    }

    @Test("events completed before an error are kept by parse(_:into:)")
    func eventsBeforeErrorAreKept() {
        var parser = SSEParser(maxEventBytes: 64)
        var events: [SSEEvent] = []
        let stream = bytes("data: a\n\ndata: b\n\ndata: " + String(repeating: "x", count: 100) + "\n\n")
        #expect(throws: SSEParserError.eventTooLarge(limit: 64)) {
            try parser.parse(stream, into: &events)
        }
        #expect(events == [SSEEvent(data: "a"), SSEEvent(data: "b")])
    }

    // MARK: State across connections

    @Test("the last event ID string goes into a parser for the next connection")
    func lastEventIDCarriedIntoNewParser() throws {
        var first = SSEParser()
        let events = try first.parse(bytes("retry: 2500\nid: 42\ndata: a\n\nid: 43\ndata: unfinished"))
        first.finish()
        #expect(events == [SSEEvent(data: "a", id: "42")])
        #expect(first.lastEventID == "42")  // committed at the blank line
        #expect(first.lastEventIDBuffer == "43")  // read, never committed
        #expect(first.reconnectionTime == 2500)

        var second = first.parserForReconnection()
        #expect(second.lastEventID == "42")
        #expect(second.lastEventIDBuffer == "42")
        #expect(second.reconnectionTime == 2500)
        #expect(second.maxEventBytes == first.maxEventBytes)
        #expect(second.bytesConsumed == 0)
        // A BOM is stripped again at the start of the new stream.
        let resumed = try second.parse([0xEF, 0xBB, 0xBF] + bytes("data: b\n\nid: 44\ndata: c\n\ndata: d\n\n"))
        #expect(
            resumed == [SSEEvent(data: "b", id: "42"), SSEEvent(data: "c", id: "44"), SSEEvent(data: "d", id: "44")]
        )

        var explicit = SSEParser(maxEventBytes: 4096, lastEventID: "7", reconnectionTime: 100)
        #expect(try explicit.parse(bytes("data: e\n\n")) == [SSEEvent(data: "e", id: "7")])
        #expect(explicit.reconnectionTime == 100)
        #expect(explicit.maxEventBytes == 4096)
    }

    /// Mimics NIO's `ByteBuffer.withUnsafeReadableBytes`, which `rethrows`.
    private func withReadableBytes<T>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try bytes.withUnsafeBytes { try body($0) }
    }

    @Test("resume(lastEventID:) seeds a new parser, as the upstream connection uses it")
    func resumeSeedsLastEventID() throws {
        var parser = SSEParser(maxEventBytes: 1024)
        parser.resume(lastEventID: "e1-5")
        #expect(parser.lastEventID == "e1-5")
        #expect(parser.lastEventIDBuffer == "e1-5")
        let events = try withReadableBytes(bytes("data: a\n\nid: e1-6\ndata: b\n\n")) { raw in try parser.parse(raw) }
        #expect(events == [SSEEvent(data: "a", id: "e1-5"), SSEEvent(data: "b", id: "e1-6")])
        #expect(parser.lastEventID == "e1-6")
        do {
            _ = try withReadableBytes(bytes("data: " + String(repeating: "x", count: 2000))) { raw in
                try parser.parse(raw)
            }
            Issue.record("expected eventTooLarge")
        } catch let error as SSEParserError {
            #expect(error == .eventTooLarge(limit: 1024))
        }
        #expect(parser.lastEventID == "e1-6")
    }

    @Test("parse after finish throws")
    func parseAfterFinishThrows() throws {
        var parser = SSEParser()
        _ = try parser.parse(bytes("data: x\n"))
        parser.finish()
        parser.finish()  // harmless twice
        #expect(parser.bufferedByteCount == 0)
        #expect(throws: SSEParserError.parseAfterFinish) {
            _ = try parser.parse(bytes("\n"))
        }
    }

    // MARK: Details

    @Test("retry values beyond Int.max are clamped to Int.max")
    func hugeRetryIsClamped() throws {
        var parser = SSEParser()
        _ = try parser.parse(bytes("retry: 9223372036854775807\n"))
        #expect(parser.reconnectionTime == Int.max)
        _ = try parser.parse(bytes("retry: 100\nretry: 9223372036854775808\n"))
        #expect(parser.reconnectionTime == Int.max)
        _ = try parser.parse(bytes("retry: 99999999999999999999999999999999\nretry: 12x\n"))
        #expect(parser.reconnectionTime == Int.max)
        _ = try parser.parse(bytes("retry: 0001\n"))
        #expect(parser.reconnectionTime == 1)
    }

    @Test("bytesConsumed counts every byte, BOM included")
    func bytesConsumedCounts() throws {
        var parser = SSEParser()
        _ = try parser.parse([0xEF, 0xBB])
        _ = try parser.parse([UInt8]())
        _ = try parser.parse([0xBF] + bytes("data: 1\n\r"))
        #expect(parser.bytesConsumed == 12)
    }

    @Test("every input type gives the same events")
    func collectionOverloads() throws {
        let text = "event: t\r\nid: 9\r\ndata: é\r\n\r\n"
        let expected = [SSEEvent(type: "t", data: "é", id: "9")]
        var a = SSEParser()
        #expect(try a.parse(bytes(text)) == expected)
        var b = SSEParser()
        #expect(try b.parse(text.utf8) == expected)
        var c = SSEParser()
        #expect(try c.parse(bytes("xx" + text).dropFirst(2)) == expected)
        var d = SSEParser()
        #expect(try d.parse(bytes(text).lazy.map { $0 }) == expected)  // not contiguous
        var e = SSEParser()
        let raw = try bytes(text).withUnsafeBytes { (buffer) throws(SSEParserError) in try e.parse(buffer) }
        #expect(raw == expected)
    }

    @Test("field values are decoded only when the whole line is there")
    func multiByteSplitEverywhere() throws {
        let text = "event: ü\nid: 😀\ndata: e\u{301} 中文 🎉\n\n"
        let all = bytes(text)
        for cut in 0...all.count {
            var parser = SSEParser()
            var events: [SSEEvent] = []
            try parser.parse(all[..<cut], into: &events)
            try parser.parse(all[cut...], into: &events)
            #expect(events.count == 1)
            #expect(events.first.map { SSETestSupport.same($0.data, "e\u{301} 中文 🎉") } == true, "cut at \(cut)")
            #expect(events.first.map { SSETestSupport.same($0.type, "ü") && SSETestSupport.same($0.id, "😀") } == true)
        }
    }

    // MARK: A realistic stream

    @Test("a Streamdata-like stream: a data snapshot, patches, heartbeats and ids")
    func streamdataLikeStream() throws {
        let snapshot = #"{"quotes":[{"symbol":"ACME","price":12.5,"name":"Acmé Corp"},{"symbol":"INIT","price":7}]}"#
        let patches = [
            #"[{"op":"replace","path":"/quotes/0/price","value":12.75}]"#,
            #"[{"op":"add","path":"/quotes/-","value":{"symbol":"NEW","price":1}},{"op":"remove","path":"/quotes/1"}]"#,
        ]
        let wire = """
            retry: 3000
            : heartbeat

            id: 1
            event: data
            data: \(snapshot)

            : heartbeat

            id: 2
            event: patch
            data: \(patches[0])

            : heartbeat
            event: patch
            id: 3
            data: \(patches[1])

            : heartbeat

            event: error
            data: {"message":"upstream hiccup"}

            id: 4
            event: patch
            data: [

            """.replacingOccurrences(of: "\n", with: "\r\n")
        let expected = [
            SSEEvent(type: "data", data: snapshot, id: "1"),
            SSEEvent(type: "patch", data: patches[0], id: "2"),
            SSEEvent(type: "patch", data: patches[1], id: "3"),
            SSEEvent(type: "error", data: #"{"message":"upstream hiccup"}"#, id: "3"),
        ]
        let all = bytes(wire)
        for seed in UInt64(0)..<20 {
            let chunks = seed == 0 ? [all] : SSETestSupport.randomSplit(all, seed: seed)
            let outcome = try SSETestSupport.run(chunks)
            #expect(
                SSETestSupport.sameEvents(outcome.events, expected),
                "seed \(seed): \(SSETestSupport.show(outcome.events))")
            #expect(outcome.lastEventIDBuffer == "4", "seed \(seed)")
            #expect(outcome.lastEventID == "3", "seed \(seed)")  // the last event never completed
            #expect(outcome.reconnectionTime == 3000)
        }
    }
}
