import CMicroHTTPD
import Foundation
import Glibc
import NIOConcurrencyHelpers

/// A thread that writes established SSE streams' bytes straight to their sockets, while
/// libmicrohttpd holds those connections suspended.
///
/// libmicrohttpd sends a stream's headers and first events; the first time its queue runs
/// dry the stream is handed to a sender (``StreamConnection/read(into:capacity:)``), and
/// from then on publishing an event costs no libmicrohttpd call: the publisher appends the
/// bytes to each client's queue and puts the clients that were idle on their sender's
/// ready list, waking the sender's thread at most once while it sleeps (one `eventfd`
/// write), not once per client. The thread then writes each ready client's whole queue as
/// one HTTP/1.1 chunk in one `send`: a client that is behind gets everything it missed in
/// one write.
///
/// A stream goes back to libmicrohttpd to end: cleanly once its last chunk is complete
/// (libmicrohttpd then sends what is left and the final chunk), or at once when it is
/// dropped or its client hung up (the socket is shut down first). Only this thread
/// touches a handed-over socket, its epoll registration and the hand back, so none of
/// them races with another.
///
/// Invariants:
/// - A stream is in `records` (and its socket in the epoll set) exactly between its
///   adoption and its hand back, both on this thread; libmicrohttpd cannot close the
///   socket in between (the connection stays suspended), so a descriptor number is never
///   confused with a reused one.
/// - `ready` holds each stream at most once (``StreamConnection``'s `scheduled` flag).
final class StreamSender: @unchecked Sendable {
    /// What the sender keeps of a stream it writes to; touched only by its thread.
    private struct Record {
        let stream: StreamConnection
        let fd: Int32
        /// The unsent end of a chunk that the socket did not take at once.
        var remainder: [UInt8] = []
        /// Whether the socket is registered for `EPOLLOUT` (waiting for room).
        var waitingForRoom = false
    }

    private let name: String
    private let epollFD: Int32
    private let wakeFD: Int32
    /// Guards `ready`, `idle`, `running` and `adoptedTotal`. A leaf: taken under `StreamConnection.lock`
    /// is never needed (``StreamConnection`` marks itself scheduled under its own lock and
    /// calls ``markReady(_:)`` after releasing it); the thread takes it alone.
    private let lock = NIOLock()
    private var ready: [StreamConnection] = []
    /// True while the thread sleeps (or is about to) with nothing ready: the next
    /// ``markReady(_:)`` must wake it.
    private var idle = false
    private var running = false
    /// Streams adopted since start.
    private var adoptedTotal = 0
    private let exited = DispatchSemaphore(value: 0)

    /// Thread-owned state.
    private var records: [ObjectIdentifier: Record] = [:]
    private var tokens: [UInt64: ObjectIdentifier] = [:]
    private var tokenOf: [ObjectIdentifier: UInt64] = [:]
    private var nextToken: UInt64 = 1
    /// Where a chunk is assembled before it is sent; reused for every client.
    private var scratch: [UInt8] = []

    /// The most payload bytes put in one chunk (one `send`).
    static let maxChunkBytes = 256 * 1024
    /// The token of the wake-up descriptor in the epoll set.
    private static let wakeToken: UInt64 = 0

    /// Creates the thread's epoll set and wake-up descriptor; `nil` when the system
    /// refuses them (streams then stay with libmicrohttpd).
    init?(name: String) {
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        let wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeToken
        guard epollFD >= 0, wakeFD >= 0, epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
            if epollFD >= 0 { close(epollFD) }
            if wakeFD >= 0 { close(wakeFD) }
            return nil
        }
        self.name = name
        self.epollFD = epollFD
        self.wakeFD = wakeFD
    }

    deinit {
        close(epollFD)
        close(wakeFD)
    }

    /// The streams this sender has taken over since start.
    var adoptedCount: Int { lock.withLock { adoptedTotal } }

    func start() {
        lock.withLock { running = true }
        let thread = Thread { [self] in
            run()
            exited.signal()
        }
        thread.name = name
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// Stops the thread, after every stream has been handed back (the daemon has stopped).
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        wake()
        _ = exited.wait(timeout: .now() + 2)
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

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: - The thread

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let (batch, stillRunning) = lock.withLock { () -> ([StreamConnection], Bool) in
                let batch = ready
                ready.removeAll(keepingCapacity: true)
                if batch.isEmpty { idle = true }
                return (batch, running)
            }
            guard stillRunning || !batch.isEmpty else { return }
            for stream in batch { service(stream) }
            // Sleep only when nothing was ready; else just collect socket events.
            let timeout: Int32 = batch.isEmpty ? -1 : 0
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), timeout)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            for index in 0..<Int(count) {
                let event = events[index]
                if event.data.u64 == Self.wakeToken {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, MemoryLayout<UInt64>.size)
                    continue
                }
                guard let id = tokens[event.data.u64], let record = records[id] else { continue }
                if event.events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
                    record.stream.peerClosed()
                    release(record, shutdown: true)
                } else if event.events & EPOLLOUT.rawValue != 0 {
                    service(record.stream, writable: true)
                }
            }
        }
    }

    /// Does what `stream` needs now: adopt it, send its queue, or hand it back.
    /// `writable`: the socket just reported room (`EPOLLOUT`).
    private func service(_ stream: StreamConnection, writable: Bool = false) {
        let id = ObjectIdentifier(stream)
        if records[id] == nil {
            // Not (or no longer) ours: adopt it if it was just handed over.
            guard let fd = stream.takeAdoption() else { return }
            guard fd >= 0, adopt(stream, fd: fd) else {
                stream.returnToLibmicrohttpd(shutdown: false)
                return
            }
        }
        guard var record = records[id] else { return }
        let state = stream.beginService()
        guard state == .open || state == .closing else {
            release(record, shutdown: true)
            return
        }
        // A socket without room is written to again when it reports room.
        if record.waitingForRoom && !writable {
            records[id] = record
            return
        }
        // Finish a chunk the socket did not take before starting the next.
        if !record.remainder.isEmpty {
            switch send(&record, remainder: true) {
            case .complete: break
            case .blocked:
                records[id] = record
                return
            case .failed:
                release(record, shutdown: true)
                return
            }
        }
        switch stream.takeForSending(maxBytes: Self.maxChunkBytes) {
        case .send(let chunks, let byteCount, let more):
            assemble(chunks, byteCount: byteCount)
            let result = send(&record, remainder: false)
            guard result != .failed else {
                release(record, shutdown: true)
                return
            }
            if result == .complete { setWaitingForRoom(&record, false) }
            records[id] = record
            // Marked scheduled by `takeForSending`: back on the list even when blocked, so
            // that a drop meanwhile is seen without waiting for room that may never come.
            if more { markReady(stream) }
        case .empty(let closing):
            if closing {
                release(record, shutdown: false)
            } else {
                setWaitingForRoom(&record, false)
                records[id] = record
            }
        }
    }

    private func adopt(_ stream: StreamConnection, fd: Int32) -> Bool {
        // libmicrohttpd may leave the socket corked after its last send; the events must
        // leave at once.
        var on: Int32 = 1
        var off: Int32 = 0
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let token = nextToken
        var event = epoll_event()
        event.events = 0  // hang-ups and errors are always reported
        event.data.u64 = token
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else { return false }
        nextToken += 1
        let id = ObjectIdentifier(stream)
        records[id] = Record(stream: stream, fd: fd)
        tokens[token] = id
        tokenOf[id] = token
        lock.withLock { adoptedTotal += 1 }
        return true
    }

    /// Stops writing to `record`'s stream and gives it back to libmicrohttpd, shutting its
    /// socket down first when it is dropped.
    private func release(_ record: Record, shutdown: Bool) {
        let id = ObjectIdentifier(record.stream)
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, record.fd, nil)
        if let token = tokenOf.removeValue(forKey: id) { tokens[token] = nil }
        records[id] = nil
        record.stream.returnToLibmicrohttpd(shutdown: shutdown)
    }

    /// Puts `chunks` in `scratch` as one HTTP/1.1 chunk: its size in hex, CRLF, the
    /// bytes, CRLF.
    private func assemble(_ chunks: [[UInt8]], byteCount: Int) {
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(byteCount + 16)
        scratch.append(contentsOf: String(byteCount, radix: 16).utf8)
        scratch.append(contentsOf: [13, 10])
        for chunk in chunks { scratch.append(contentsOf: chunk) }
        scratch.append(contentsOf: [13, 10])
    }

    private enum SendResult {
        case complete, blocked, failed
    }

    /// Sends `record.remainder` (or `scratch`) without blocking; what the socket does not
    /// take is kept as the remainder and the socket is watched for room.
    private func send(_ record: inout Record, remainder: Bool) -> SendResult {
        let bytes = remainder ? record.remainder : scratch
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(record.fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                record.remainder = Array(bytes[offset...])
                record.stream.didSend(bytes: offset, blocked: true)
                setWaitingForRoom(&record, true)
                return .blocked
            }
            return .failed
        }
        record.remainder = []
        record.stream.didSend(bytes: bytes.count, blocked: false)
        return .complete
    }

    private func setWaitingForRoom(_ record: inout Record, _ waiting: Bool) {
        guard record.waitingForRoom != waiting, let token = tokenOf[ObjectIdentifier(record.stream)] else { return }
        var event = epoll_event()
        event.events = waiting ? EPOLLOUT.rawValue : 0
        event.data.u64 = token
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, record.fd, &event)
        record.waitingForRoom = waiting
    }
}
