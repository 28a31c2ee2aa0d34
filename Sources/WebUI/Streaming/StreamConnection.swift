import CMicroHTTPD
import DequeModule
import Glibc
import NIOConcurrencyHelpers

/// One client of an SSE endpoint: the bytes queued for it and the suspend/resume handshake
/// with libmicrohttpd.
///
/// Invariants (all under `lock`):
/// - `suspended` is true exactly while libmicrohttpd holds the connection suspended because
///   the queue was empty; whoever clears it calls `MHD_resume_connection` exactly once.
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
    private var waitingSince: UInt64?
    /// Set by the server when the request starts; handed back once by ``finish()``.
    private var onEnd: (@Sendable () -> Void)?
    private var hangupRegistration: HangupRegistration?

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

    /// Bytes queued and not yet handed to libmicrohttpd.
    public var pendingBytes: Int {
        lock.withLock { queuedBytes }
    }

    /// Binds the stream to its libmicrohttpd connection; `onEnd` runs once when the
    /// request completes.
    func attach(_ connection: ConnectionHandle, onEnd: @escaping @Sendable () -> Void) {
        lock.withLock {
            self.connection = connection
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
        if bytes.isEmpty { return .queued }
        return lock.withLock {
            guard state == .open else { return .notOpen }
            if queuedBytes > 0 && queuedBytes + bytes.count > maxQueuedBytes {
                if whenFull == .report { return .full }
                dropLocked()
                return .dropped
            }
            if queuedBytes == 0 { waitingSince = Self.now() }
            queue.append(bytes)
            queuedBytes += bytes.count
            wakeLocked()
            return .queued
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
        lock.withLock {
            guard state == .open else { return false }
            var kept = Deque<[UInt8]>()
            var keptBytes = 0
            if headOffset > 0, let head = queue.first {
                kept.append(head)
                keptBytes = head.count - headOffset
            } else {
                headOffset = 0
            }
            kept.append(bytes)
            if queuedBytes == 0 { waitingSince = Self.now() }
            queue = kept
            queuedBytes = keptBytes + bytes.count
            wakeLocked()
            return true
        }
    }

    /// Queues several chunks as one step (used for a new client's first events).
    @discardableResult
    public func enqueue(contentsOf chunks: [[UInt8]]) -> Bool {
        lock.withLock {
            guard state == .open else { return false }
            for chunk in chunks where !chunk.isEmpty {
                if queuedBytes == 0 { waitingSince = Self.now() }
                queue.append(chunk)
                queuedBytes += chunk.count
            }
            wakeLocked()
            return true
        }
    }

    /// Ends the stream cleanly after what is queued has been sent.
    public func close() {
        lock.withLock {
            guard state == .open else { return }
            state = .closing
            wakeLocked()
        }
    }

    /// Drops the client if it has had bytes waiting for more than `nanoseconds` without
    /// taking any. Returns `true` if it was dropped now.
    ///
    /// `now` is read by the caller before it takes this stream's lock, so the daemon thread
    /// may have recorded progress after it (`waitingSince > now`): that stream is not
    /// stalled. (A wrapping `now &- since` made it look ages old, and the once-a-second
    /// sweep dropped healthy clients in the middle of a burst.)
    public func dropIfStalled(olderThan nanoseconds: UInt64, now: UInt64) -> Bool {
        lock.withLock {
            guard state == .open, queuedBytes > 0, let since = waitingSince, now > since,
                now - since > nanoseconds
            else { return false }
            dropLocked()
            return true
        }
    }

    /// The client hung up (seen by the server's ``HangupWatcher``): frees the queue and
    /// makes libmicrohttpd close the connection now, even while it is suspended.
    func peerClosed() {
        lock.withLock {
            guard state == .open || state == .closing else { return }
            dropLocked(as: .disconnected)
        }
    }

    /// Marks the client dropped, frees its queue and makes libmicrohttpd close it now.
    private func dropLocked(as reason: State = .dropped) {
        state = reason
        queue.removeAll()
        queuedBytes = 0
        headOffset = 0
        if suspended {
            wakeLocked()
        } else if let connection {
            // The client is not reading, so libmicrohttpd will not call the reader soon;
            // shutting the socket down makes its next send fail and the connection close.
            let fd = feedweb_mhd_connection_fd(connection.pointer)
            if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func wakeLocked() {
        guard suspended, let connection else { return }
        suspended = false
        MHD_resume_connection(connection.pointer)
    }

    /// libmicrohttpd's content reader: copies up to `capacity` queued bytes into `buffer`.
    ///
    /// Runs on the daemon thread. Returns the byte count, or suspends the connection and
    /// returns 0 when nothing is queued, or ends (-1) or aborts (-2) the stream.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        lock.withLock {
            switch state {
            case .dropped, .disconnected, .finished:
                return Int(MHD_CONTENT_READER_END_WITH_ERROR)
            case .open, .closing:
                break
            }
            if queuedBytes == 0 {
                if state == .closing { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
                guard let connection else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
                suspended = true
                MHD_suspend_connection(connection.pointer)
                return 0
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
            return written
        }
    }

    /// Called once when libmicrohttpd completes the request: no more calls follow. Returns
    /// what ``attach(_:onEnd:)`` and ``setHangupRegistration(token:fd:)`` left, for the
    /// server to run and undo.
    func finish() -> (onEnd: (@Sendable () -> Void)?, hangup: HangupRegistration?) {
        lock.withLock {
            state = .finished
            queue = Deque()
            queuedBytes = 0
            connection = nil
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
