import CMicroHTTPD
import DequeModule
import Glibc
import NIOConcurrencyHelpers

/// One client of an SSE endpoint: the bytes queued for it, who sends them, and the
/// suspend/resume handshake with libmicrohttpd.
///
/// libmicrohttpd sends the response head and the first events. The first time the queue
/// runs dry, the connection is suspended and, when the server has a ``StreamSender``, handed
/// to it: from then on the sender writes the queue to the socket itself, and publishing
/// costs no libmicrohttpd call. The stream goes back to libmicrohttpd to end.
///
/// Invariants (all under `lock`):
/// - `suspended` is true exactly while libmicrohttpd holds the connection suspended;
///   whoever clears it calls `MHD_resume_connection` exactly once.
/// - `owner` is `.sender` only while suspended; only the sender's thread moves it back.
/// - `scheduled` is true exactly while the stream is on its sender's ready list: whoever
///   sets it calls ``StreamSender/markReady(_:)`` once, after releasing `lock`.
/// - `queuedBytes` is the number of unsent bytes in `queue` (counting from `headOffset`);
///   it never exceeds `maxQueuedBytes` except for a single event that arrived on an empty
///   queue (one event always fits).
/// - Queued chunks are shared `[UInt8]` buffers: an event encoded once is referenced, not
///   copied, by every client's queue.
public final class StreamConnection: @unchecked Sendable {
    /// Why a stream ended, for counting and logs.
    public enum State: Sendable, Equatable {
        /// Sending; new events are queued.
        case open
        /// Ending cleanly: the queue is sent, then the stream ends with its final chunk.
        case closing
        /// Dropped because the client stopped reading; the queue was freed.
        case dropped
        /// The client hung up; the queue was freed.
        case disconnected
        /// The request is complete; nothing more is sent.
        case finished
    }

    /// Guards everything below it. Taken holding a `Broadcaster.lock` (to queue), or by
    /// libmicrohttpd's content reader on the daemon thread, or alone.
    ///
    /// While it is held only libmicrohttpd is called (`MHD_suspend_connection`,
    /// `MHD_resume_connection`, which take its internal mutexes); no feedweb lock is taken,
    /// and `onEnd` is handed back by ``finish()`` to run after it is released. See
    /// `Broadcaster.lock` for the whole order.
    private let lock = NIOLock()
    private var queue = Deque<[UInt8]>()
    private var headOffset = 0
    private var queuedBytes = 0
    private var suspended = false
    private var state: State = .open
    private var connection: ConnectionHandle?
    /// The connection's socket (-1: unknown), for a sender and for shutting it down.
    private var socket: Int32 = -1
    private var waitingSince: UInt64?
    /// Set by the server when the request starts; handed back once by ``finish()``.
    private var onEnd: (@Sendable () -> Void)?
    private var hangupRegistration: HangupRegistration?
    /// Who writes the queue to the socket.
    private var owner: Owner = .libmicrohttpd
    private var scheduled = false
    /// Bytes the sender has taken from the queue and not yet seen written (stalls count
    /// them as waiting).
    private var inFlightBytes = 0
    /// The stream's token in its sender's records: touched only by the sender's thread
    /// (no lock), 0 until adopted.
    var senderToken: UInt64 = 0
    /// The sender to hand the connection to once libmicrohttpd has sent the first bytes;
    /// `nil`: libmicrohttpd sends everything (an HTTP/1.0 client, or no sender).
    private var sender: StreamSender?

    private enum Owner {
        /// libmicrohttpd calls ``read(into:capacity:)`` (resumed when bytes are queued).
        case libmicrohttpd
        /// Suspended and handed to `sender`; `adopted` once its thread has taken it.
        case sender(adopted: Bool)
    }

    /// The stream's socket in the server's ``HangupWatcher``.
    struct HangupRegistration {
        let token: UInt64
        let fd: Int32
    }

    /// The bound on unsent bytes before the client is dropped.
    public let maxQueuedBytes: Int

    /// Creates a stream whose queue holds at most `maxQueuedBytes` unsent bytes.
    public init(maxQueuedBytes: Int) {
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// The stream's state.
    public var currentState: State {
        lock.withLock { state }
    }

    /// Bytes queued and not yet sent.
    public var pendingBytes: Int {
        lock.withLock { queuedBytes + inFlightBytes }
    }

    /// Binds the stream to its libmicrohttpd connection; `onEnd` runs once when the
    /// request completes. With `sender`, the stream is handed to it once libmicrohttpd has
    /// sent the first bytes (the response must be chunked: HTTP/1.1).
    func attach(
        _ connection: ConnectionHandle, socket: Int32, sender: StreamSender? = nil,
        onEnd: @escaping @Sendable () -> Void
    ) {
        lock.withLock {
            self.connection = connection
            self.socket = socket
            self.sender = sender
            self.onEnd = onEnd
        }
    }

    func setHangupRegistration(token: UInt64, fd: Int32) {
        lock.withLock { hangupRegistration = HangupRegistration(token: token, fd: fd) }
    }

    /// What ``enqueue(_:)`` did.
    public enum EnqueueResult: Sendable, Equatable {
        /// The bytes are queued.
        case queued
        /// The bytes would have passed the bound: the client was dropped by this call.
        case dropped
        /// The stream is closing or gone; nothing was queued.
        case notOpen
        /// The bytes would have passed the bound and the caller asked to be told
        /// (``FullQueue/report``): nothing was queued, the client is still open.
        case full
    }

    /// What ``enqueue(_:whenFull:)`` does when the bytes would pass the bound.
    public enum FullQueue: Sendable {
        /// Drop the client and free its queue.
        case drop
        /// Queue nothing and answer ``EnqueueResult/full``: the caller catches the client
        /// up instead (``catchUp(with:)``).
        case report
    }

    /// Queues `bytes` for sending; if they would pass the bound, drops the client (and
    /// frees its queue at once) or reports it, as `whenFull` says.
    @discardableResult
    public func enqueue(_ bytes: [UInt8], whenFull: FullQueue = .drop) -> EnqueueResult {
        let (result, sender) = enqueue(bytes, whenFull: whenFull, wakes: ())
        sender?.markReady(self)
        return result
    }

    /// ``enqueue(_:whenFull:)`` for a fan-out: instead of telling the sender, returns the
    /// sender the caller must tell (``StreamSender/markReady(_:)``, or one
    /// ``StreamSender/markReady(contentsOf:)`` for many clients).
    func enqueue(_ bytes: [UInt8], whenFull: FullQueue, wakes: Void) -> (EnqueueResult, StreamSender?) {
        if bytes.isEmpty { return (.queued, nil) }
        return lock.withLock { () -> (EnqueueResult, StreamSender?) in
            guard state == .open else { return (.notOpen, nil) }
            if queuedBytes > 0 && queuedBytes + bytes.count > maxQueuedBytes {
                if whenFull == .report { return (.full, nil) }
                return (.dropped, dropLocked())
            }
            if queuedBytes + inFlightBytes == 0 { waitingSince = Self.now() }
            queue.append(bytes)
            queuedBytes += bytes.count
            return (.queued, wakeLocked())
        }
    }

    /// Replaces what the client has not been sent with `bytes`, one event that stands for
    /// all of it (a fresh `data` with the whole current state): a client too far behind to
    /// get every event gets the newest state instead, in-band. The part of an event
    /// already partly sent is kept, so the stream stays well-formed. The stall rule still
    /// applies: the time the client has waited without taking anything is not reset.
    /// Returns `false` if the stream is closing or gone.
    @discardableResult
    public func catchUp(with bytes: [UInt8]) -> Bool {
        let (caughtUp, sender) = lock.withLock { () -> (Bool, StreamSender?) in
            guard state == .open else { return (false, nil) }
            var kept = Deque<[UInt8]>()
            var keptBytes = 0
            if headOffset > 0, let head = queue.first {
                kept.append(head)
                keptBytes = head.count - headOffset
            } else {
                headOffset = 0
            }
            kept.append(bytes)
            if queuedBytes + inFlightBytes == 0 { waitingSince = Self.now() }
            queue = kept
            queuedBytes = keptBytes + bytes.count
            return (true, wakeLocked())
        }
        sender?.markReady(self)
        return caughtUp
    }

    /// Queues several chunks as one step (used for a new client's first events).
    @discardableResult
    public func enqueue(contentsOf chunks: [[UInt8]]) -> Bool {
        let (queued, sender) = lock.withLock { () -> (Bool, StreamSender?) in
            guard state == .open else { return (false, nil) }
            for chunk in chunks where !chunk.isEmpty {
                if queuedBytes + inFlightBytes == 0 { waitingSince = Self.now() }
                queue.append(chunk)
                queuedBytes += chunk.count
            }
            return (true, wakeLocked())
        }
        sender?.markReady(self)
        return queued
    }

    /// Ends the stream cleanly after what is queued has been sent.
    public func close() {
        let sender = lock.withLock { () -> StreamSender? in
            guard state == .open else { return nil }
            state = .closing
            return wakeLocked()
        }
        sender?.markReady(self)
    }

    /// Drops the client if it has had bytes waiting for more than `nanoseconds` without
    /// taking any. Returns `true` if it was dropped now.
    ///
    /// `now` is read by the caller before it takes this stream's lock, so the daemon thread
    /// may have recorded progress after it (`waitingSince > now`): that stream is not
    /// stalled. (A wrapping `now &- since` made it look ages old, and the once-a-second
    /// sweep dropped healthy clients in the middle of a burst.)
    public func dropIfStalled(olderThan nanoseconds: UInt64, now: UInt64) -> Bool {
        let (dropped, sender) = lock.withLock { () -> (Bool, StreamSender?) in
            guard state == .open, queuedBytes + inFlightBytes > 0, let since = waitingSince, now > since,
                now - since > nanoseconds
            else { return (false, nil) }
            return (true, dropLocked())
        }
        sender?.markReady(self)
        return dropped
    }

    /// The client hung up (seen by the server's ``HangupWatcher``): frees the queue and
    /// makes libmicrohttpd close the connection now, even while it is suspended.
    func peerClosed() {
        let sender = lock.withLock { () -> StreamSender? in
            guard state == .open || state == .closing else { return nil }
            return dropLocked(as: .disconnected)
        }
        sender?.markReady(self)
    }

    /// Marks the client dropped, frees its queue and makes libmicrohttpd close it now (a
    /// sender's stream: returns the sender to tell, which shuts the socket down and hands
    /// the connection back).
    private func dropLocked(as reason: State = .dropped) -> StreamSender? {
        state = reason
        queue.removeAll()
        queuedBytes = 0
        headOffset = 0
        switch owner {
        case .sender:
            return wakeLocked()
        case .libmicrohttpd:
            if suspended {
                _ = wakeLocked()
            } else if socket >= 0, connection != nil {
                // The client is not reading, so libmicrohttpd will not call the reader soon;
                // shutting the socket down makes its next send fail and the connection close.
                shutdown(socket, Int32(SHUT_RDWR))
            }
            return nil
        }
    }

    /// Gets the bytes (or the end) moving: resumes libmicrohttpd's suspended connection, or
    /// returns the sender to tell (``StreamSender/markReady(_:)``, after releasing `lock`)
    /// when the stream is a sender's and not on its ready list yet.
    private func wakeLocked() -> StreamSender? {
        switch owner {
        case .libmicrohttpd:
            guard suspended, let connection else { return nil }
            suspended = false
            connection.resume()
            return nil
        case .sender:
            guard !scheduled, let sender else { return nil }
            scheduled = true
            return sender
        }
    }

    // MARK: - The sender's side (its thread only)

    /// The socket to write to, once, right after libmicrohttpd handed the connection over;
    /// `nil` when it was not handed over or has been taken already.
    func takeAdoption() -> Int32? {
        lock.withLock {
            guard case .sender(adopted: false) = owner else { return nil }
            owner = .sender(adopted: true)
            return socket
        }
    }

    /// What ``visit(takingUpTo:)`` gives the sender.
    enum SenderWork {
        /// The stream was dropped or its client hung up: hand it back, shut down.
        case gone
        /// The stream is open or closing; nothing was taken (none was asked for).
        case alive
        /// Write these chunks (`byteCount` bytes in all) as one; `more`: bytes are left (or
        /// the stream is closing): service the stream again once they are written.
        case send([[UInt8]], byteCount: Int, more: Bool)
        /// Nothing queued; `closing`: the stream is to end (hand it back).
        case empty(closing: Bool)
    }

    /// The sender takes the stream off its ready list and, with `maxBytes`, takes queued
    /// chunks up to that many bytes (at least one) to write: one lock for both.
    func visit(takingUpTo maxBytes: Int?) -> SenderWork {
        lock.withLock {
            scheduled = false
            guard state == .open || state == .closing else { return .gone }
            guard let maxBytes else { return .alive }
            guard queuedBytes > 0 else { return .empty(closing: state == .closing) }
            var chunks: [[UInt8]] = []
            var count = 0
            while let head = queue.first, chunks.isEmpty || count + head.count - headOffset <= maxBytes {
                queue.removeFirst()
                let chunk = headOffset > 0 ? Array(head[headOffset...]) : head
                headOffset = 0
                chunks.append(chunk)
                count += chunk.count
            }
            queuedBytes -= count
            inFlightBytes = count
            if queue.isEmpty { queue = Deque() }
            // A closing stream comes back once more to be handed back after its last chunk.
            return .send(chunks, byteCount: count, more: queuedBytes > 0 || state == .closing)
        }
    }

    /// The sender wrote `bytes` of the chunk it took; `blocked`: the socket took no more.
    /// With `reschedule`, marks the stream scheduled to go back on the sender's ready list
    /// and returns whether the sender must put it there (`false`: already there).
    func didSend(bytes: Int, blocked: Bool, reschedule: Bool) -> Bool {
        lock.withLock {
            if !blocked { inFlightBytes = 0 }
            if bytes > 0 || !blocked {
                waitingSince = queuedBytes + inFlightBytes > 0 ? Self.now() : nil
            }
            guard reschedule, !scheduled, case .sender = owner else { return false }
            scheduled = true
            return true
        }
    }

    /// Gives the connection back to libmicrohttpd (resumed), to end: cleanly when the
    /// sender finished its last chunk, or after shutting the socket down (`shutdown`).
    /// Never handed to a sender again. Does nothing if the stream is not a sender's.
    func returnToLibmicrohttpd(shutdown shutDown: Bool) {
        lock.withLock {
            guard case .sender = owner else { return }
            owner = .libmicrohttpd
            sender = nil
            scheduled = false
            inFlightBytes = 0
            if shutDown, socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
            _ = wakeLocked()
        }
    }

    /// libmicrohttpd's content reader: copies up to `capacity` queued bytes into `buffer`.
    ///
    /// Runs on the daemon thread. Returns the byte count, or suspends the connection and
    /// returns 0 when nothing is queued, or ends (-1) or aborts (-2) the stream.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let (result, handedTo) = lock.withLock { () -> (Int, StreamSender?) in
            switch state {
            case .dropped, .disconnected, .finished:
                return (Int(MHD_CONTENT_READER_END_WITH_ERROR), nil)
            case .open, .closing:
                break
            }
            if queuedBytes == 0 {
                if state == .closing { return (Int(MHD_CONTENT_READER_END_OF_STREAM), nil) }
                guard let connection else { return (Int(MHD_CONTENT_READER_END_WITH_ERROR), nil) }
                suspended = true
                MHD_suspend_connection(connection.pointer)
                // libmicrohttpd has sent everything it was given (it asks only then): from
                // here the sender writes, on a chunk boundary.
                guard let sender else { return (0, nil) }
                owner = .sender(adopted: false)
                scheduled = true
                return (0, sender)
            }
            var written = 0
            while written < capacity, let head = queue.first {
                let available = head.count - headOffset
                let count = min(available, capacity - written)
                head.withUnsafeBytes { raw in
                    if let base = raw.baseAddress {
                        UnsafeMutableRawPointer(buffer + written).copyMemory(
                            from: base + headOffset, byteCount: count)
                    }
                }
                written += count
                if count == available {
                    queue.removeFirst()
                    headOffset = 0
                } else {
                    headOffset += count
                }
            }
            queuedBytes -= written
            // An idle client keeps no queue storage (64 B of RSS each at 10,000 clients);
            // the next event allocates it again, once per client per event.
            if queue.isEmpty { queue = Deque() }
            waitingSince = queuedBytes > 0 ? Self.now() : nil
            return (written, nil)
        }
        handedTo?.markReady(self)
        return result
    }

    /// Called once when libmicrohttpd completes the request: no more calls follow. Returns
    /// what ``attach(_:onEnd:)`` and ``setHangupRegistration(token:fd:)`` left, for the
    /// server to run and undo.
    func finish() -> (onEnd: (@Sendable () -> Void)?, hangup: HangupRegistration?) {
        lock.withLock {
            state = .finished
            queue = Deque()
            queuedBytes = 0
            inFlightBytes = 0
            connection = nil
            sender = nil
            owner = .libmicrohttpd
            suspended = false
            defer {
                onEnd = nil
                hangupRegistration = nil
            }
            return (onEnd, hangupRegistration)
        }
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
