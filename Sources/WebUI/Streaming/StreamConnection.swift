import CMicroHTTPD
import FeedCore
import Glibc
import NIOConcurrencyHelpers

/// One client of an SSE endpoint: its ``StreamStateMachine`` behind a lock, and the side
/// effects the machine asks for, carried out after the lock is released.
///
/// libmicrohttpd sends the response head and the first events. The first time the queue
/// runs dry, the connection is suspended and, when the server has a ``StreamSender``, handed
/// to it: from then on the sender writes the queue to the socket itself, and publishing
/// costs no libmicrohttpd call. The stream goes back to libmicrohttpd to end.
///
/// The lock guards the machine and the bindings below it, and only that: while it is held
/// bytes are queued or taken, nothing else — no libmicrohttpd call, no `shutdown(2)`, no
/// other lock (see `Broadcaster.lock` for the whole order). A publisher's action (resume
/// libmicrohttpd, put the stream on its sender's ready list, shut the socket down) runs
/// after it is released; the machine hands each action out once.
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

    /// Guards `machine` and the bindings (connection, sender, `onEnd`, hang-up
    /// registration). A leaf.
    private let lock = NIOLock()
    private var machine: StreamStateMachine
    private var connection: ConnectionHandle?
    /// Set by the server when the request starts; handed back once by ``finish()``.
    private var onEnd: (@Sendable () -> Void)?
    private var hangupRegistration: HangupRegistration?
    /// The sender the connection is handed to once libmicrohttpd has sent the first bytes;
    /// `nil`: libmicrohttpd sends everything (an HTTP/1.0 client, or no sender).
    private var sender: StreamSender?
    /// The stream's token in its sender's records: touched only by the sender's thread
    /// (no lock), 0 until adopted.
    var senderToken: UInt64 = 0

    /// The stream's socket in the server's ``HangupWatcher``.
    struct HangupRegistration {
        let token: UInt64
        let fd: Int32
    }

    /// The bound on unsent bytes before the client is dropped.
    public let maxQueuedBytes: Int

    /// When the stream was opened.
    public let openedAt = WallTime.now()
    /// What the client says it is (a page stream's screen names), for `/inspect`; set
    /// before the stream is subscribed, then only read.
    private var label: String = ""

    /// Creates a stream whose queue holds at most `maxQueuedBytes` unsent bytes.
    public init(maxQueuedBytes: Int) {
        self.maxQueuedBytes = maxQueuedBytes
        self.machine = StreamStateMachine(maxQueuedBytes: maxQueuedBytes)
    }

    /// How `/inspect` sees a stream now.
    struct Observation: Sendable, Equatable {
        let openedAt: WallTime
        let label: String
        /// Bytes queued and not yet written.
        let pendingBytes: Int
        /// How long bytes have waited without the client taking any (nanoseconds); `nil`:
        /// nothing waits.
        let waiting: UInt64?
    }

    /// The stream now, as `/inspect` lists it.
    func observe(now: UInt64) -> Observation {
        lock.withLock {
            Observation(
                openedAt: openedAt, label: label, pendingBytes: machine.pendingBytes, waiting: machine.waiting(now: now)
            )
        }
    }

    /// Names the client (a page stream's screens) for `/inspect`.
    func setLabel(_ text: String) {
        lock.withLock { label = text }
    }

    /// The stream's state.
    public var currentState: State {
        lock.withLock { machine.state }
    }

    /// Bytes queued and not yet sent.
    public var pendingBytes: Int {
        lock.withLock { machine.pendingBytes }
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
            self.sender = sender
            self.onEnd = onEnd
            machine.attached(socket: socket, hasSender: sender != nil)
        }
    }

    func setHangupRegistration(token: UInt64, fd: Int32) {
        lock.withLock { hangupRegistration = HangupRegistration(token: token, fd: fd) }
    }

    /// What ``enqueue(_:whenFull:)`` did.
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
        let now = Self.now()
        let (result, action, bound) = lock.withLock {
            let (result, action) = machine.enqueue(bytes, report: whenFull == .report, now: now)
            return (result, action, bindings)
        }
        return (result, perform(action, bound, readyFor: true))
    }

    /// Replaces what the client has not been sent with `bytes`, one event that stands for
    /// all of it (a fresh `data` with the whole current state): a client too far behind to
    /// get every event gets the newest state instead, in-band. The part of an event
    /// already partly sent is kept, so the stream stays well-formed. The stall rule still
    /// applies: the time the client has waited without taking anything is not reset.
    /// Returns `false` if the stream is closing or gone.
    @discardableResult
    public func catchUp(with bytes: [UInt8]) -> Bool {
        let now = Self.now()
        let (caughtUp, action, bound) = lock.withLock {
            let (caughtUp, action) = machine.catchUp(with: bytes, now: now)
            return (caughtUp, action, bindings)
        }
        perform(action, bound)
        return caughtUp
    }

    /// Queues several chunks as one step (used for a new client's first events).
    @discardableResult
    public func enqueue(contentsOf chunks: [[UInt8]]) -> Bool {
        let now = Self.now()
        let (queued, action, bound) = lock.withLock {
            let (queued, action) = machine.enqueue(contentsOf: chunks, now: now)
            return (queued, action, bindings)
        }
        perform(action, bound)
        return queued
    }

    /// Ends the stream cleanly after what is queued has been sent.
    public func close() {
        let (action, bound) = lock.withLock { (machine.close(), bindings) }
        perform(action, bound)
    }

    /// Drops the client if it has had bytes waiting for more than `nanoseconds` without
    /// taking any. Returns `true` if it was dropped now.
    ///
    /// `now` is read by the caller before it takes this stream's lock, so the daemon thread
    /// may have recorded progress after it: that stream is not stalled.
    public func dropIfStalled(olderThan nanoseconds: UInt64, now: UInt64) -> Bool {
        let (dropped, action, bound) = lock.withLock {
            let (dropped, action) = machine.dropIfStalled(olderThan: nanoseconds, now: now)
            return (dropped, action, bindings)
        }
        perform(action, bound)
        return dropped
    }

    /// The client hung up (seen by the server's ``HangupWatcher``): frees the queue and
    /// makes libmicrohttpd close the connection now, even while it is suspended.
    func peerClosed() {
        let (action, bound) = lock.withLock { (machine.peerClosed(), bindings) }
        perform(action, bound)
    }

    /// What an action needs of the stream's bindings, read under the lock.
    private struct Bindings {
        let connection: ConnectionHandle?
        let sender: StreamSender?
        let socket: Int32
    }

    /// The bindings now (under the lock).
    private var bindings: Bindings {
        Bindings(connection: connection, sender: sender, socket: machine.socket)
    }

    /// Carries out `action` (the lock released). With `readyFor`, a ``StreamStateMachine/
    /// Action/markReady`` is not done here but its sender returned, for the caller to tell
    /// in a batch.
    @discardableResult
    private func perform(
        _ action: StreamStateMachine.Action, _ bound: Bindings, readyFor batch: Bool = false
    ) -> StreamSender? {
        switch action {
        case .none:
            return nil
        case .resume:
            bound.connection?.resume()
        case .markReady:
            guard let sender = bound.sender else { return nil }
            if batch { return sender }
            sender.markReady(self)
        case .shutDown:
            if bound.socket >= 0 { shutdown(bound.socket, Int32(SHUT_RDWR)) }
        case .shutDownAndResume:
            if bound.socket >= 0 { shutdown(bound.socket, Int32(SHUT_RDWR)) }
            bound.connection?.resume()
        }
        return nil
    }

    // MARK: - The sender's side (its thread only)

    /// The socket to write to, once, right after libmicrohttpd handed the connection over;
    /// `nil` when it was not handed over or has been taken already.
    func takeAdoption() -> Int32? {
        lock.withLock { machine.takeAdoption() }
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
        lock.withLock { machine.visit(takingUpTo: maxBytes) }
    }

    /// The sender wrote `bytes` of the chunk it took; `blocked`: the socket took no more.
    /// With `reschedule`, marks the stream scheduled to go back on the sender's ready list
    /// and returns whether the sender must put it there (`false`: already there).
    func didSend(bytes: Int, blocked: Bool, reschedule: Bool) -> Bool {
        let now = Self.now()
        return lock.withLock { machine.didSend(bytes: bytes, blocked: blocked, reschedule: reschedule, now: now) }
    }

    /// Gives the connection back to libmicrohttpd (resumed), to end: cleanly when the
    /// sender finished its last chunk, or after shutting the socket down (`shutdown`).
    /// Never handed to a sender again. Does nothing if the stream is not a sender's.
    func returnToLibmicrohttpd(shutdown shutDown: Bool) {
        let (action, bound) = lock.withLock { () -> (StreamStateMachine.Action, Bindings) in
            let action = machine.returnToLibmicrohttpd(shutDown: shutDown)
            let bound = bindings
            sender = nil
            return (action, bound)
        }
        perform(action, bound)
    }

    // MARK: - libmicrohttpd's side (the daemon's thread)

    /// libmicrohttpd's content reader: copies up to `capacity` queued bytes into `buffer`.
    ///
    /// Returns the byte count, or suspends the connection and returns 0 when nothing is
    /// queued (the suspend happens after the lock is released; a wake-up meanwhile resumes
    /// it, see ``StreamStateMachine/Connection/suspending``), or ends (-1) or aborts (-2)
    /// the stream.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let now = Self.now()
        let (decision, connection) = lock.withLock { () -> (StreamStateMachine.ReaderDecision, ConnectionHandle?) in
            let decision = machine.read(capacity: capacity, now: now) { bytes, offset in
                guard let base = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(buffer + offset).copyMemory(from: base, byteCount: bytes.count)
            }
            return (decision, self.connection)
        }
        switch decision {
        case .bytes(let count):
            return count
        case .end:
            return Int(MHD_CONTENT_READER_END_OF_STREAM)
        case .abort:
            return Int(MHD_CONTENT_READER_END_WITH_ERROR)
        case .suspend:
            guard let connection else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
            MHD_suspend_connection(connection.pointer)
            let (action, bound) = lock.withLock { (machine.suspended(), bindings) }
            perform(action, bound)
            return 0
        }
    }

    /// Called once when libmicrohttpd completes the request: no more calls follow. Returns
    /// what ``attach(_:socket:sender:onEnd:)`` and ``setHangupRegistration(token:fd:)``
    /// left, for the server to run and undo.
    func finish() -> (onEnd: (@Sendable () -> Void)?, hangup: HangupRegistration?) {
        lock.withLock {
            machine.finish()
            connection = nil
            sender = nil
            defer {
                onEnd = nil
                hangupRegistration = nil
            }
            return (onEnd, hangupRegistration)
        }
    }

    /// Now, in monotonic nanoseconds (``MonotonicTime``).
    static func now() -> UInt64 {
        MonotonicTime.now()
    }
}
