import FeedCore
import Foundation
import Glibc
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import WebUI

/// Established HTTP/1.1 streams (opened at the front door, or by libmicrohttpd) are written
/// by the server's sender threads, not by libmicrohttpd: every event arrives, in order, as well-formed chunks; a client that is
/// behind gets what it missed in one chunk rather than one per event; and the stream still
/// ends cleanly (the final chunk) when the server stops. Each with the writes submitted
/// through io_uring, and with one `send` each (where the kernel refuses io_uring).
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct StreamSenderTests {
    /// An `/events` response read off a raw socket: the head, then the chunked body,
    /// decoded strictly, then the SSE events' ids.
    struct EventReader {
        let socket: RawSocket
        private var head: [UInt8] = []
        private var inHead = true
        private var body = ChunkedDecoder()
        private var text = ""
        /// The ids of the events read so far, in order.
        private(set) var ids: [String] = []
        /// The data chunks read so far.
        var chunks: Int { body.chunkCount }
        /// Whether the body ended with its final chunk.
        var ended: Bool { body.finished }

        init(_ socket: RawSocket) { self.socket = socket }

        /// Reads until `count` events with an id have arrived in all, or the body ended.
        mutating func read(untilEvents count: Int, within seconds: Double) async throws {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ids.count < count && !body.finished {
                var bytes = try await socket.receive(before: deadline)
                if inHead {
                    head += bytes
                    guard let end = head.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
                    let headText = String(decoding: head[..<end.lowerBound], as: UTF8.self)
                    #expect(headText.lowercased().contains("transfer-encoding: chunked"), "\(headText)")
                    bytes = Array(head[end.upperBound...])
                    inHead = false
                }
                text += String(decoding: try body.feed(bytes), as: UTF8.self)
                while let end = text.range(of: "\n\n") {
                    let event = text[..<end.lowerBound]
                    text = String(text[end.upperBound...])
                    if let line = event.split(separator: "\n").first(where: { $0.hasPrefix("id:") }) {
                        ids.append(line.dropFirst(3).trimmingCharacters(in: .whitespaces))
                    }
                }
            }
        }
    }

    /// Whether this kernel lets a process make an io_uring (`kernel.io_uring_disabled` 0).
    static var kernelAllowsIOUring: Bool {
        (try? String(contentsOfFile: "/proc/sys/kernel/io_uring_disabled", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }

    /// A change that sets the version to `version` and, with `padding`, a first story's
    /// title of that many bytes (so that the events outgrow the sockets' buffers).
    static func bump(_ store: FeedStore, to version: Int, padding: Int = 0) throws {
        var operations: [JSONValue] = [
            .object(["op": .string("replace"), "path": .string("/num_results"), "value": .int(Int64(version))])
        ]
        if padding > 0 {
            operations.append(
                .object([
                    "op": .string("replace"), "path": .string("/results/0/title"),
                    "value": .string("\(version) " + String(repeating: "x", count: padding)),
                ]))
        }
        try store.apply(JSONPatch(json: .array(operations)))
    }

    @Test(arguments: [true, false])
    func aClientThatIsBehindGetsWhatItMissedInFewerChunksThanEvents(ioUring: Bool) async throws {
        let server = try TestServer(
            document: NewswireFeed.document(count: 3, version: 1), writesThroughIOUring: ioUring)
        #expect(server.server.sendersUseIOUring == (ioUring && Self.kernelAllowsIOUring))
        // A tiny receive buffer and segment: the server's socket fills after a few events,
        // so the rest wait in the client's queue while the sender waits for room. (With
        // loopback's 64 KiB segments the kernel sizes the server's send buffer to megabytes,
        // which would take all 400 events as fast as they come, one write each.)
        let socket = try await RawSocket(port: server.port, receiveBuffer: 4096, maxSegment: 1024)
        try await socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        var reader = EventReader(socket)
        // The first `data` event: the stream is established.
        try await reader.read(untilEvents: 1, within: 5)
        try await Eventually.check("the stream handed to a sender", within: 5) {
            server.server.streamsHandedOver.programs == 1
        }
        let chunksBefore = reader.chunks

        // 200 changes of 2 KB: far more than the kernel holds on the way to a client that
        // reads nothing, less than the 1 MiB bound past which it would be caught up with a
        // fresh `data` instead.
        let changes = 200
        for version in 2...(changes + 1) { try Self.bump(server.store, to: version, padding: 2048) }
        // Then read at full speed: through a 4 KiB window (and the peer's delayed
        // acknowledgements) the backlog would take longer than the wait.
        var wide: Int32 = 1 << 20
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVBUF, &wide, socklen_t(MemoryLayout<Int32>.size))
        try await reader.read(untilEvents: changes + 1, within: 10)
        // Every change, in order: the ids' sequence numbers count up by one.
        let seqs = reader.ids.compactMap { EventID(parsing: $0)?.seq }
        #expect(seqs.count == changes + 1)
        #expect(seqs == Array((seqs.first ?? 0)..<((seqs.first ?? 0) + UInt64(changes + 1))))
        let chunks = reader.chunks - chunksBefore
        #expect(chunks < changes, "\(changes) events in \(chunks) chunks: the backlog went out together")
    }

    @Test(arguments: [true, false])
    func aStreamEndsWithTheFinalChunkWhenTheServerStops(ioUring: Bool) async throws {
        let server = try TestServer(
            document: NewswireFeed.document(count: 3, version: 1), writesThroughIOUring: ioUring)
        let socket = try await RawSocket(port: server.port)
        try await socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        var reader = EventReader(socket)
        try await reader.read(untilEvents: 1, within: 5)
        // The stream is a sender's (opened at the front door, or handed over by libmicrohttpd
        // when its queue ran dry): two more events from the sender, then the server stops.
        try await Eventually.check("the stream handed to a sender", within: 5) {
            server.server.streamsHandedOver.programs == 1
        }
        for version in 2...3 { try Self.bump(server.store, to: version) }
        try await reader.read(untilEvents: 3, within: 5)
        #expect(reader.ids.count == 3)
        server.server.stop(timeout: .milliseconds(1500))
        try await reader.read(untilEvents: 4, within: 5)
        #expect(reader.ended, "the body ended with its final chunk, not a cut connection")
    }

    @Test func twoStopsAtOnceStopTheServerOnceAndBothReturnStopped() async throws {
        // A service group shutting down and its owner may both stop the server;
        // libmicrohttpd aborts the process if a daemon is stopped twice.
        let server = try TestServer(document: NewswireFeed.document(count: 3, version: 1))
        let socket = try await RawSocket(port: server.port)
        try await socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        var reader = EventReader(socket)
        try await reader.read(untilEvents: 1, within: 5)
        let stopped = NIOLockedValueBox(0)
        let both = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: both) {
                server.server.stop(timeout: .milliseconds(1500))
                // Returned: the server is stopped, whichever call did it.
                stopped.withLockedValue { $0 += server.server.openStreamCount == 0 ? 1 : 0 }
            }
        }
        #expect(both.wait(timeout: .now() + 10) == .success)
        #expect(stopped.withLockedValue { $0 } == 2)
        try await reader.read(untilEvents: 2, within: 5)
        #expect(reader.ended, "the stream ended with its final chunk")
    }

    @Test func aFanOutToMoreClientsThanOneSubmissionHoldsReachesEveryClientInOrder() async throws {
        // Each of two senders gets more clients than a submission takes, so one pass goes to
        // the kernel in several.
        let count = 4 * Int(SocketWrites(useIOUring: true).entries) + 1
        let server = try TestServer(document: NewswireFeed.document(count: 3, version: 1), maxStreams: count)
        var readers: [EventReader] = []
        for _ in 0..<count {
            let socket = try await RawSocket(port: server.port)
            try await socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            var reader = EventReader(socket)
            try await reader.read(untilEvents: 1, within: 5)
            readers.append(reader)
        }
        try await Eventually.check("every stream handed to a sender", within: 5) {
            server.server.streamsHandedOver.programs == count
        }
        let changes = 3
        for version in 2...(changes + 1) { try Self.bump(server.store, to: version) }
        for index in readers.indices {
            try await readers[index].read(untilEvents: changes + 1, within: 10)
            let seqs = readers[index].ids.compactMap { EventID(parsing: $0)?.seq }
            let first = seqs.first ?? 0
            #expect(seqs == Array(first..<(first + UInt64(changes + 1))), "client \(index): \(seqs)")
        }
    }

    @Test func theProgramsSendersRunTenNicerThanThePagesSender() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 3, version: 1))
        #expect(server.server.streamsHandedOver == (programs: 0, people: 0))
        // Every sender thread of this process (other tests' servers' too), once this
        // server's have started: a thread sets its niceness before it names itself, so a
        // named one has its niceness.
        let (programs, people) = try await Eventually.value("the server's sender threads named", within: 5) {
            () -> ([Int], [Int])? in
            let niceness = try Self.senderThreadsNiceness()
            let enough = niceness.programs.count >= server.server.configuration.streamSenders
            return enough && !niceness.people.isEmpty ? niceness : nil
        }
        for nice in programs {
            #expect(people.allSatisfy { min(19, $0 + 10) == nice }, "programs \(programs), people \(people)")
        }
    }

    /// The niceness of every thread of this process named as a programs' sender
    /// (`fw-send-N`) or as the pages' sender (`fw-send-pages`).
    static func senderThreadsNiceness() throws -> (programs: [Int], people: [Int]) {
        var programs: [Int] = []
        var people: [Int] = []
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        for task in tasks {
            guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After the name in parentheses: state is field 3, niceness field 19.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]) else { continue }
            switch name.trimmingCharacters(in: .whitespacesAndNewlines) {
            case "fw-send-pages": people.append(nice)
            case let other where other.hasPrefix("fw-send-"): programs.append(nice)
            default: break
            }
        }
        return (programs, people)
    }

    @Test func aPageStreamIsWrittenByTheSenderForPeopleNotBehindTheFanOut() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 3, version: 1))
        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        _ = try await page.expectNext("items")
        _ = try await page.expectNext("status")
        let events = try await SSETestClient(port: server.port, path: "/events")
        _ = try await events.expectNext("data")
        // Each is handed over when its first bytes are sent: the page stream to the pages'
        // own sender, the /events stream to a programs' sender.
        try await Eventually.check("both streams handed over", within: 5) {
            server.server.streamsHandedOver == (programs: 1, people: 1)
        }
        // And the senders write them: one change reaches both.
        try Self.bump(server.store, to: 2)
        server.handlers.pageStreams.refresh()
        _ = try await events.expectNext("patch")
        _ = try await page.expectNext("status")
    }
}
