import CMicroHTTPD
import FeedCore
import Foundation
import Glibc
import NIOConcurrencyHelpers

/// A thread that writes established SSE streams' bytes straight to their sockets: streams
/// the front door opened (``DirectStream``), from their first event, and streams whose
/// connections libmicrohttpd holds suspended.
///
/// libmicrohttpd sends its streams' headers and first events; the first time the queue runs
/// dry the stream is handed to a sender (``StreamConnection/read(into:capacity:)``). From
/// then on publishing an event costs no libmicrohttpd call: the publisher appends the
/// bytes to each client's queue and puts the clients that were idle on their sender's
/// ready list, waking the sender's thread at most once while it sleeps (one `eventfd`
/// write), not once per client. The thread then writes each ready client's whole queue as
/// one HTTP/1.1 chunk: a client that is behind gets everything it missed in one write.
/// The writes of one pass over the ready list go to the kernel together, 64 to an
/// `io_uring_enter` (``SocketWrites``), so a fan-out to thousands of clients costs a
/// system call per 64 clients, not one per client. The programs' senders run at a lower
/// priority than the rest of the process (``HTTPServer/Configuration/streamSenderNiceness``).
///
/// A stream is handed back to end (``StreamConnection/handBack(shutdown:)``): cleanly once
/// its last chunk is complete, or at once when it is dropped or its client hung up (seen
/// here, `EPOLLRDHUP`, or by the server's ``HangupWatcher``). libmicrohttpd's goes back to
/// it (it sends the final chunk; a dropped one's socket is shut down first); the server
/// closes a direct one's socket. Only this thread touches a handed-over socket, its epoll
/// registration and the hand back, so none of them races with another.
///
/// Invariants:
/// - A stream is in `records` (and its socket in the epoll set) exactly between its
///   adoption and its hand back, both on this thread; no one else closes the socket in
///   between (libmicrohttpd's connection stays suspended; a direct stream's socket is
///   closed only at its hand back), so a descriptor number is never confused with a
///   reused one.
/// - `ready` holds each stream at most once (``StreamConnection``'s `scheduled` flag).
/// - A stream has at most one write in flight (`Record.writing`); its bytes stay alive in
///   ``SocketWrites`` until the kernel has reported on them, even if the stream is gone.
final class StreamSender: @unchecked Sendable {
    /// What the sender keeps of a stream it writes to; touched only by its thread. A class:
    /// a fan-out visits and completes each record once per event, in place, without
    /// copying its references out of the table and back.
    ///
    /// The thread's own state, here and in the sender, is `@exclusivity(unchecked)`: one
    /// thread touches it, so the runtime's check of each access (a thread-local look-up,
    /// several per client per event) can find no conflict (BENCHMARKS.md, "Exclusivity
    /// checks off the send path").
    private final class Record {
        let stream: StreamConnection
        let fd: Int32
        let token: UInt64
        /// The unsent end of a chunk that the socket did not take at once.
        @exclusivity(unchecked) var remainder: [UInt8] = []
        /// Whether the socket is registered for `EPOLLOUT` (waiting for room).
        @exclusivity(unchecked) var waitingForRoom = false
        /// Whether a write is in flight.
        @exclusivity(unchecked) var writing = false
        /// Whether the stream is to be serviced again once its write is done (it had more
        /// queued, or is closing).
        @exclusivity(unchecked) var again = false
        /// The events (``WriteMarks/address(of:)``) in the chunk being written, remainder
        /// included: marked written when the kernel reports it. The first (0: none) apart
        /// from the rest, so that a chunk of one event, a fan-out's, allocates nothing.
        @exclusivity(unchecked) var writingEvent: UInt = 0
        @exclusivity(unchecked) var moreWritingEvents: [UInt] = []

        init(stream: StreamConnection, fd: Int32, token: UInt64) {
            self.stream = stream
            self.fd = fd
            self.token = token
        }
    }

    /// The thread's name (`top -H`, `perf report`; 15 bytes show).
    private let name: String
    /// How much nicer than the process the thread runs (0: as nice): the programs' bulk
    /// fan-out runs below people's pages, requests and the upstream.
    private let niceness: Int32
    private let epoll: WakeableEpoll
    /// Guards `ready`, `idle`, `running`, `returningAll` and `adoptedTotal`. A leaf: ``StreamConnection``
    /// marks itself scheduled under its own lock and calls ``markReady(_:)`` after
    /// releasing it; the thread takes it alone.
    private let lock = NIOLock()
    private var ready: [StreamConnection] = []
    /// True while the thread sleeps (or is about to) with nothing ready: the next
    /// ``markReady(_:)`` must wake it.
    private var idle = false
    private var running = false
    /// Set by ``returnAll()``: the thread hands every stream back, then signals
    /// `returnedAll`.
    private var returningAll = false
    private let returnedAll = DispatchSemaphore(value: 0)
    /// Streams adopted since start.
    private var adoptedTotal = 0
    private let thread = OwnedThread()

    // Thread-owned state.
    @exclusivity(unchecked) private var records = RecordTable()
    private let writes: SocketWrites
    /// One pass's chunks by the first bytes they carry: a chunk made of one shared event
    /// is assembled once per pass, not once per client.
    @exclusivity(unchecked) private var frames: [UInt: (event: [UInt8], frame: [UInt8])] = [:]
    /// The chunk made last, also in `frames`: a fan-out frames one event for client after
    /// client, and finds it here without hashing.
    @exclusivity(unchecked) private var lastFrame: (key: UInt, frame: [UInt8])?
    /// When this sender wrote each recent event (for `/inspect`), and this pass's marks.
    let writeMarks = WriteMarks()
    @exclusivity(unchecked) private var pass = WriteMarks.Pass()

    /// The most payload bytes put in one chunk (one write).
    static let maxChunkBytes = 256 * 1024
    /// What a socket reports when its client is gone: a hang-up (the client closed its
    /// side: a stream the front door opened has no other watcher) or an error.
    private static let hangupEvents = EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue
    /// The token of the writes' completions in the epoll set (beside its wake-up's).
    private static let completionsToken: UInt64 = UInt64.max

    /// Creates the thread's epoll set and wake-up descriptor; `nil` when the system
    /// refuses them (streams then stay with libmicrohttpd). With `useIOUring` false, or
    /// when the kernel refuses a ring, writes are one `send` each. The thread raises
    /// its niceness by `niceness` when it starts.
    init?(name: String, useIOUring: Bool = true, niceness: Int32 = 0) {
        guard let epoll = WakeableEpoll() else { return nil }
        self.name = name
        self.niceness = niceness
        self.epoll = epoll
        self.writes = SocketWrites(useIOUring: useIOUring)
        if let completions = writes.completionFD {
            _ = epoll.add(completions, events: EPOLLIN.rawValue, token: Self.completionsToken)
        }
    }

    /// Whether writes go through io_uring (else one `send` each).
    var usesIOUring: Bool { writes.completionFD != nil }

    /// The streams this sender has taken over since start.
    var adoptedCount: Int { lock.withLock { adoptedTotal } }

    func start() {
        lock.withLock { running = true }
        thread.start(name: nil, stackSize: 512 * 1024) { [self] in run() }
    }

    /// Stops the thread, after every stream has been handed back (the daemon has stopped).
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        wake()
        thread.waitForExit(within: .seconds(2))
    }

    /// Hands every stream back to libmicrohttpd now, their sockets shut down (the server is
    /// stopping and the streams did not end in time): after this returns, the thread
    /// touches no connection until a new one is handed over. Waits until the thread has done
    /// so, however long that takes: libmicrohttpd aborts when it is stopped with a connection
    /// still suspended. The thread is woken for it and does it first thing in its next pass.
    func returnAll() {
        let isRunning = lock.withLock {
            returningAll = running
            idle = false
            return running
        }
        guard isRunning else { return }
        wake()
        returnedAll.wait()
    }

    /// Puts `stream` on the ready list (it has bytes to send, or is to be adopted, ended
    /// or dropped). The caller has set the stream's `scheduled` flag (cleared when the
    /// thread services it), so each stream is on the list at most once.
    func markReady(_ stream: StreamConnection) {
        let mustWake = lock.withLock {
            ready.append(stream)
            defer { idle = false }
            return idle
        }
        if mustWake { wake() }
    }

    /// ``markReady(_:)`` for many streams at once (a fan-out's): one lock, one wake.
    func markReady(contentsOf streams: [StreamConnection]) {
        guard !streams.isEmpty else { return }
        let mustWake = lock.withLock {
            ready.append(contentsOf: streams)
            defer { idle = false }
            return idle
        }
        if mustWake { wake() }
    }

    private func wake() {
        epoll.wake()
    }

    // MARK: - The thread

    private func run() {
        // A refused niceness (a process limit) costs the priority, not the sender.
        _ = feedweb_current_thread_setup(name, niceness)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let (batch, stillRunning, returnAll) = lock.withLock { () -> ([StreamConnection], Bool, Bool) in
                let batch = ready
                ready.removeAll(keepingCapacity: true)
                let returnAll = returningAll
                returningAll = false
                if batch.isEmpty && !returnAll { idle = true }
                return (batch, running, returnAll)
            }
            if returnAll {
                for stream in batch where !records.contains(stream.senderToken) {
                    if stream.takeAdoption() != nil { stream.handBack(shutdown: true) }
                }
                for record in records.all { release(record, shutdown: true) }
                returnedAll.signal()
                continue
            }
            guard stillRunning || !batch.isEmpty || writes.hasWritesInFlight else { return }
            serviceAll(batch)
            flush()
            // Sleep only when nothing was ready; else just collect socket events.
            let timeout: Int32 = batch.isEmpty ? (stillRunning ? -1 : 10) : 0
            let count = epoll.wait(into: &events, timeout: timeout)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            for index in 0..<Int(count) {
                let event = events[index]
                switch event.data.u64 {
                case WakeableEpoll.wakeToken:
                    epoll.clearWake()
                case Self.completionsToken:
                    writes.drainCompletionSignal()
                default:
                    guard let record = records[event.data.u64] else { continue }
                    if event.events & Self.hangupEvents != 0 {
                        record.stream.peerClosed()
                        release(record, shutdown: true)
                    } else if event.events & EPOLLOUT.rawValue != 0 {
                        service(record.stream, writable: true)
                    }
                }
            }
            flush()
        }
    }

    /// Sends the pass's writes and handles what the kernel reports on each.
    private func flush() {
        writes.submit { token, result in completed(token, result) }
        writeMarks.publish(pass)
        pass.reset()
        frames.removeAll(keepingCapacity: true)
        lastFrame = nil
    }

    /// Services each stream of a pass's ready list, its stream and then its record asked
    /// for some places ahead (``StreamPrefetcher``): a fan-out's clients are cold.
    private func serviceAll(_ batch: [StreamConnection]) {
        var ahead = StreamPrefetcher(batch.lazy.map(ObjectIdentifier.init))
        let recordDistance = StreamPrefetcher<[ObjectIdentifier]>.distance / 2
        for index in batch.indices {
            ahead.advance()
            if index + recordDistance < batch.count { records.prefetch(batch[index + recordDistance].senderToken) }
            service(batch[index])
        }
    }

    /// Does what `stream` needs now: adopt it, write its queue, or hand it back.
    /// `writable`: the socket just reported room (`EPOLLOUT`).
    private func service(_ stream: StreamConnection, writable: Bool = false) {
        let record: Record
        if let held = records[stream.senderToken] {
            record = held
        } else {
            // Not (or no longer) ours: adopt it if it was just handed over.
            guard let fd = stream.takeAdoption() else { return }
            guard fd >= 0, let adopted = adopt(stream, fd: fd) else {
                stream.handBack(shutdown: false)
                return
            }
            record = adopted
        }
        let token = record.token
        // One write at a time, a remainder before anything new, and a socket without room
        // is written to again when it reports room: only then is the queue taken.
        let canTake =
            !record.writing && record.remainder.isEmpty && !(record.waitingForRoom && !writable)
        switch stream.visit(takingUpTo: canTake ? Self.maxChunkBytes : nil) {
        case .gone:
            release(record, shutdown: true)
        case .alive:
            if record.writing {
                record.again = true
            } else if !record.remainder.isEmpty && (!record.waitingForRoom || writable) {
                // Finish the chunk the socket did not take before starting the next. The
                // record is marked first: a write without io_uring reports at once.
                record.writing = true
                record.again = true
                writes.enqueue(token: token, fd: record.fd, bytes: record.remainder) { token, result in
                    completed(token, result)
                }
            }
        case .send(let chunks, let byteCount, let more):
            record.writing = true
            record.again = more
            record.writingEvent = WriteMarks.address(of: chunks.first) ?? 0
            record.moreWritingEvents = chunks.rest.isEmpty ? [] : chunks.rest.compactMap(WriteMarks.address(of:))
            writes.enqueue(token: token, fd: record.fd, bytes: frame(chunks, byteCount: byteCount)) { token, result in
                completed(token, result)
            }
        case .empty(let closing):
            if closing {
                release(record, shutdown: false)
            } else {
                setWaitingForRoom(record, false)
            }
        }
    }

    /// What the kernel reported on the write of `token`'s stream.
    private func completed(_ token: UInt64, _ report: SocketWrites.Report) {
        guard let record = records[token] else { return }  // handed back meanwhile
        record.writing = false
        // Back on the list when more is queued or it is closing, even while waiting for
        // room, so that a drop meanwhile is seen without waiting for room that may never
        // come.
        let again = record.again
        record.again = false
        let bytes = report.bytes
        let now = report.at
        if report.result > 0 {
            // The kernel took (some of) the chunk now: its events were written to this socket.
            if record.writingEvent != 0 { pass.wrote(record.writingEvent, at: now) }
            for event in record.moreWritingEvents { pass.wrote(event, at: now) }
        }
        let reschedule: Bool
        switch report.result {
        case bytes.count:
            record.remainder = []
            record.writingEvent = 0
            record.moreWritingEvents = []
            reschedule = record.stream.didSend(bytes: bytes.count, blocked: false, reschedule: again, now: now)
            setWaitingForRoom(record, false)
        case 0..<bytes.count:
            record.remainder = Array(bytes[report.result...])
            reschedule = record.stream.didSend(bytes: report.result, blocked: true, reschedule: again, now: now)
            setWaitingForRoom(record, true)
        case -Int(EAGAIN), -Int(EWOULDBLOCK):
            record.remainder = bytes
            reschedule = record.stream.didSend(bytes: 0, blocked: true, reschedule: again, now: now)
            setWaitingForRoom(record, true)
        default:
            release(record, shutdown: true)
            return
        }
        if reschedule { markReady(record.stream) }
    }

    private func adopt(_ stream: StreamConnection, fd: Int32) -> Record? {
        // libmicrohttpd may leave the socket corked after its last send; the events must
        // leave at once.
        var on: Int32 = 1
        var off: Int32 = 0
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let token = records.insert { Record(stream: stream, fd: fd, token: $0) }
        guard epoll.add(fd, events: EPOLLRDHUP.rawValue, token: token), let record = records[token] else {
            records[token] = nil
            return nil
        }
        stream.senderToken = token
        lock.withLock { adoptedTotal += 1 }
        return record
    }

    /// Stops writing to `record`'s stream and gives it back to libmicrohttpd, shutting its
    /// socket down first when it is dropped.
    private func release(_ record: Record, shutdown: Bool) {
        epoll.remove(record.fd)
        writes.submitBeforeHandBack()
        records[record.token] = nil
        record.stream.handBack(shutdown: shutdown)
    }

    /// `chunks` as one HTTP/1.1 chunk: its size in hex, CRLF, the bytes, CRLF. A single
    /// event (the common case: every client up to date gets the same one) is framed once
    /// per pass and shared.
    private func frame(_ chunks: StreamStateMachine.TakenChunks, byteCount: Int) -> [UInt8] {
        func make() -> [UInt8] {
            var frame: [UInt8] = []
            frame.reserveCapacity(byteCount + 16)
            frame.append(contentsOf: String(byteCount, radix: 16).utf8)
            frame.append(contentsOf: [13, 10])
            for chunk in chunks { frame.append(contentsOf: chunk) }
            frame.append(contentsOf: [13, 10])
            return frame
        }
        guard chunks.rest.isEmpty, let key = WriteMarks.address(of: chunks.first) else { return make() }
        if let last = lastFrame, last.key == key { return last.frame }
        // The cache keeps the event itself, so its address cannot be reused this pass.
        if let cached = frames[key] {
            lastFrame = (key, cached.frame)
            return cached.frame
        }
        let made = make()
        frames[key] = (chunks.first, made)
        lastFrame = (key, made)
        return made
    }

    private func setWaitingForRoom(_ record: Record, _ waiting: Bool) {
        guard record.waitingForRoom != waiting else { return }
        epoll.modify(
            record.fd, events: EPOLLRDHUP.rawValue | (waiting ? EPOLLOUT.rawValue : 0), token: record.token)
        record.waitingForRoom = waiting
    }

    /// The records by token, in slots: a token is a slot number and the slot's generation,
    /// so a stale token (a write reported after its stream was handed back, the slot since
    /// reused) finds nothing. No hashing per look-up.
    private struct RecordTable {
        private var slots: [(generation: UInt32, record: Record?)] = []
        private var free: [Int] = []

        private static func slot(_ token: UInt64) -> Int { Int(token & 0xFFFF_FFFF) }
        private static func generation(_ token: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: token >> 32) }

        func contains(_ token: UInt64) -> Bool { self[token] != nil }

        /// Starts loading `token`'s record into the cache (see ``StreamConnection/prefetch(_:)``).
        func prefetch(_ token: UInt64) {
            let slot = Self.slot(token)
            guard slot < slots.count, let record = slots[slot].record else { return }
            feedweb_prefetch_lines(Unmanaged.passUnretained(record).toOpaque(), 2)
        }

        /// Every record held.
        var all: [Record] { slots.compactMap(\.record) }

        /// Stores the record `make` builds for its new token; returns the token (never 0
        /// nor `UInt64.max`, the epoll set's own tokens).
        mutating func insert(_ make: (UInt64) -> Record) -> UInt64 {
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
            } else {
                slot = slots.count
                slots.append((0, nil))
            }
            // Generations run 1 ..< UInt32.max, so a token is neither 0 nor UInt64.max.
            let generation = slots[slot].generation % (UInt32.max - 1) + 1
            let token = UInt64(generation) << 32 | UInt64(slot)
            slots[slot] = (generation, make(token))
            return token
        }

        subscript(token: UInt64) -> Record? {
            get {
                let slot = Self.slot(token)
                guard slot < slots.count, slots[slot].generation == Self.generation(token) else { return nil }
                return slots[slot].record
            }
            set {
                let slot = Self.slot(token)
                guard slot < slots.count, slots[slot].generation == Self.generation(token),
                    slots[slot].record != nil
                else { return }
                slots[slot].record = newValue
                if newValue == nil { free.append(slot) }
            }
        }
    }
}
