import CMicroHTTPD
import FeedCore
import Glibc
import Synchronization

/// One client of an SSE endpoint: its ``StreamStateMachine`` behind a lock, and the side
/// effects the machine asks for, carried out after the lock is released.
///
/// libmicrohttpd sends the response head and the first events. The first time the queue
/// runs dry, the connection is suspended and, when the server has a ``StreamSender``, handed
/// to it: from then on the sender writes the queue to the socket itself, and publishing
/// costs no libmicrohttpd call. The stream goes back to libmicrohttpd to end.
///
/// A stream the front door opened (``DirectStream``) is its sender's from its first event
/// to its end, and never libmicrohttpd's: the sender hands it back to the server, which
/// closes its socket (``attachDirect(socket:sender:onEnd:ending:)``).
///
/// A step's action (resume libmicrohttpd, put the stream on its sender's ready list, shut
/// the socket down) is carried out after the stream's lock is released, and in a fan-out
/// after the broadcaster's too (``Effect``); the machine hands each action out once.
public final class StreamConnection: @unchecked Sendable {
    /// Guards `machine` and the bindings (connection, sender, `onEnd`, hang-up
    /// registration); where it stands among WebUI's locks is written once, at
    /// `Broadcaster.lock`. A leaf: while it is held bytes are queued or taken, and nothing
    /// else is called but `shutdown(2)` of a dropped client's socket (``Effect``).
    ///
    /// A `Mutex`, stored in the object beside what it guards, not an `NIOLock`, whose
    /// mutex is a heap object of its own: a fan-out then finds a client's lock and state in
    /// the lines ``prefetch(_:)`` loads, not a second cold object per client per event.
    ///
    /// What it guards is marked `@exclusivity(unchecked)`, as is the sender's token: the
    /// lock (or the sender's thread) already gives one access at a time, and the runtime's
    /// own check of each access, a thread-local look-up, was ~2 % of the senders' CPU at
    /// 10,000 clients (BENCHMARKS.md, "Exclusivity checks off the send path").
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var machine: StreamStateMachine
    /// The sender the connection is handed to once libmicrohttpd has sent the first bytes;
    /// `nil`: libmicrohttpd sends everything (an HTTP/1.0 client, or no sender).
    @exclusivity(unchecked) private var sender: StreamSender?
    /// The stream's token in its sender's records: touched only by the sender's thread
    /// (no lock), 0 until adopted.
    @exclusivity(unchecked) var senderToken: UInt64 = 0
    @exclusivity(unchecked) private var connection: ConnectionHandle?
    /// Set by the server when the request starts; handed back once by ``finish()``.
    private var onEnd: (@Sendable () -> Void)?
    private var hangupRegistration: HangupRegistration?
    /// How a stream the front door opened ends, once its sender lets go of it (`clean`:
    /// after its last chunk, so the final one is due); `nil` for libmicrohttpd's streams,
    /// and once called.
    private var directEnding: (@Sendable (_ clean: Bool) -> Void)?

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

    /// Starts loading into the cache the stream whose ``ObjectIdentifier`` is `id`: the
    /// object's first ``prefetchedBytes``, which hold what a fan-out and a sender's pass
    /// touch (the lock, the machine with its queue, the sender and its token: declared
    /// first). Returns at once; any `id` will do, even a freed stream's.
    ///
    /// A fan-out to thousands of clients finds each one's stream cold: its lines were last
    /// touched an event ago, 100 ms and megabytes of other clients back. Asked for a few
    /// clients ahead, the loads overlap instead of stalling the loop one client at a time.
    static func prefetch(_ id: ObjectIdentifier) {
        feedweb_prefetch_lines(UnsafeRawPointer(bitPattern: UInt(bitPattern: id)), prefetchedBytes / 64)
    }

    /// The bytes of a stream object ``prefetch(_:)`` loads.
    static let prefetchedBytes: Int32 = 256

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
        lock.withLock { _ in
            Observation(
                openedAt: openedAt, label: label, pendingBytes: machine.pendingBytes, waiting: machine.waiting(now: now)
            )
        }
    }

    /// Names the client (a page stream's screens) for `/inspect`.
    func setLabel(_ text: String) {
        lock.withLock { _ in label = text }
    }

    /// The stream's state.
    public var currentState: StreamState {
        lock.withLock { _ in machine.state }
    }

    /// Bytes queued and not yet sent.
    public var pendingBytes: Int {
        lock.withLock { _ in machine.pendingBytes }
    }

    /// Binds the stream to its libmicrohttpd connection; `onEnd` runs once when the
    /// request completes. With `sender`, the stream is handed to it once libmicrohttpd has
    /// sent the first bytes (the response must be chunked: HTTP/1.1).
    func attach(
        _ connection: ConnectionHandle, socket: Int32, sender: StreamSender? = nil,
        onEnd: @escaping @Sendable () -> Void
    ) {
        lock.withLock { _ in
            self.connection = connection
            self.sender = sender
            self.onEnd = onEnd
            machine.attached(socket: socket, hasSender: sender != nil)
        }
    }

    /// Binds a stream the front door opened on `socket` (its head sent) to `sender`, which
    /// writes it from here on; `onEnd` runs once when it ends, after `ending`'s caller has
    /// let go of the socket's number. Subscribe the stream before (its first events are
    /// queued then): the sender may end it at once.
    func attachDirect(
        socket: Int32, sender: StreamSender, onEnd: @escaping @Sendable () -> Void,
        ending: @escaping @Sendable (_ clean: Bool) -> Void
    ) {
        lock.withLock { (_: inout Void) -> Effect in
            self.sender = sender
            self.onEnd = onEnd
            self.directEnding = ending
            return makeEffect(machine.attachedDirect(socket: socket))
        }.perform()
    }

    func setHangupRegistration(token: UInt64, fd: Int32) {
        lock.withLock { _ in hangupRegistration = HangupRegistration(token: token, fd: fd) }
    }

    /// Queues `bytes` for sending; if they would pass the bound, drops the client (and
    /// frees its queue at once) or reports it, as `whenFull` says.
    @discardableResult
    public func enqueue(_ bytes: [UInt8], whenFull: StreamFullQueue = .drop) -> StreamEnqueueResult {
        let (result, effect) = enqueueDeferringEffect(bytes, whenFull: whenFull, now: MonotonicTime.now())
        effect.perform()
        return result
    }

    /// ``enqueue(_:whenFull:)`` for a fan-out: the action is returned, for the caller to
    /// carry out once it holds no lock (a sender's wake-up batched with other clients').
    /// `now` (``MonotonicTime/now()``) is read by the caller, once for all its clients.
    func enqueueDeferringEffect(_ bytes: [UInt8], whenFull: StreamFullQueue, now: UInt64) -> (
        StreamEnqueueResult, Effect
    ) {
        if bytes.isEmpty { return (.queued, Effect(stream: self)) }
        return lock.withLock { _ in
            let (result, action) = machine.enqueue(bytes, report: whenFull == .report, now: now)
            return (result, makeEffect(action))
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
        let (caughtUp, effect) = catchUpDeferringEffect(with: bytes, now: MonotonicTime.now())
        effect.perform()
        return caughtUp
    }

    /// ``catchUp(with:)`` for a fan-out: the action is returned, for the caller to carry
    /// out once it holds no lock. `now` is read by the caller.
    func catchUpDeferringEffect(with bytes: [UInt8], now: UInt64) -> (Bool, Effect) {
        lock.withLock { _ in
            let (caughtUp, action) = machine.catchUp(with: bytes, now: now)
            return (caughtUp, makeEffect(action))
        }
    }

    /// Queues several chunks as one step (used for a new client's first events).
    @discardableResult
    public func enqueue(contentsOf chunks: [[UInt8]]) -> Bool {
        let (queued, effect) = enqueueDeferringEffect(contentsOf: chunks, now: MonotonicTime.now())
        effect.perform()
        return queued
    }

    /// ``enqueue(contentsOf:)`` for a broadcaster subscribing the stream under its lock: the
    /// action is returned, for the caller to carry out once it has released that lock.
    /// `now` (``MonotonicTime/now()``) is read by the caller before it takes that lock.
    func enqueueDeferringEffect(contentsOf chunks: [[UInt8]], now: UInt64) -> (Bool, Effect) {
        lock.withLock { _ in
            let (queued, action) = machine.enqueue(contentsOf: chunks, now: now)
            return (queued, makeEffect(action))
        }
    }

    /// Ends the stream cleanly after what is queued has been sent.
    public func close() {
        lock.withLock { _ in makeEffect(machine.close()) }.perform()
    }

    /// Drops the client if it has had bytes waiting for more than `nanoseconds` without
    /// taking any. Returns `true` if it was dropped now.
    ///
    /// `now` is read by the caller before it takes this stream's lock, so the daemon thread
    /// may have recorded progress after it: that stream is not stalled.
    public func dropIfStalled(olderThan nanoseconds: UInt64, now: UInt64) -> Bool {
        let (dropped, effect) = lock.withLock { _ in
            let (dropped, action) = machine.dropIfStalled(olderThan: nanoseconds, now: now)
            return (dropped, makeEffect(action))
        }
        effect.perform()
        return dropped
    }

    /// The client hung up (seen by the server's ``HangupWatcher``): frees the queue and
    /// makes libmicrohttpd close the connection now, even while it is suspended.
    func peerClosed() {
        lock.withLock { _ in makeEffect(machine.peerClosed()) }.perform()
    }

    /// An action of the machine with what carrying it out needs of the stream's bindings,
    /// read under the lock where the action was decided. Carried out by ``perform()`` once
    /// the caller holds no lock: the machine hands each action out once, so an effect must
    /// not be dropped unperformed.
    ///
    /// Carried out later than decided, each action is still safe:
    /// - `resume`: whoever moves the connection out of `.suspended` gets the one resume, and
    ///   libmicrohttpd does not complete (nor free) a suspended connection, so the handle is
    ///   valid until this resume is made.
    /// - `shutDown`: a dropped client's connection may be running, and libmicrohttpd may
    ///   complete it and close its socket meanwhile (whose number a new client may then
    ///   get). The socket is shut down under the stream's lock, only while the request is
    ///   not complete (``finish()`` runs before libmicrohttpd closes the socket), as
    ///   `ConnectionReaper` does under its `sockets` lock.
    /// - `markReady`: the stream is marked scheduled, so no one else puts it on the ready
    ///   list; the sender finds it gone at its visit if it ended meanwhile.
    struct Effect {
        let stream: StreamConnection
        let action: StreamStateMachine.Action
        fileprivate let connection: ConnectionHandle?
        /// The sender to tell when `action` is `markReady`.
        let sender: StreamSender?

        /// No action.
        fileprivate init(stream: StreamConnection) {
            self.init(stream: stream, action: .none, connection: nil, sender: nil)
        }

        fileprivate init(
            stream: StreamConnection, action: StreamStateMachine.Action, connection: ConnectionHandle?,
            sender: StreamSender?
        ) {
            self.stream = stream
            self.action = action
            self.connection = connection
            self.sender = sender
        }

        /// Carries the action out; call holding no lock.
        func perform() {
            if action == .markReady {
                sender?.markReady(stream)
            } else {
                performOnConnection()
            }
        }

        /// Carries the action out, but a sender's wake-up is added to `wakes`, which the
        /// caller hands over in batches holding no lock; call holding no lock.
        func perform(batchingWakeIn wakes: inout SenderWakes) {
            if action == .markReady {
                if let sender { wakes.add(stream, for: sender) }
            } else {
                performOnConnection()
            }
        }

        /// A resume of libmicrohttpd, a shutdown, or both.
        private func performOnConnection() {
            switch action {
            case .none, .markReady:
                break
            case .resume:
                connection?.resume()
            case .shutDown:
                stream.shutDownUnlessFinished()
            case .shutDownAndResume:
                stream.shutDownUnlessFinished()
                connection?.resume()
            }
        }
    }

    /// `action` with the bindings it needs (under the lock).
    private func makeEffect(_ action: StreamStateMachine.Action) -> Effect {
        switch action {
        case .none, .shutDown: Effect(stream: self, action: action, connection: nil, sender: nil)
        case .resume, .shutDownAndResume: Effect(stream: self, action: action, connection: connection, sender: nil)
        case .markReady: Effect(stream: self, action: action, connection: nil, sender: sender)
        }
    }

    /// Shuts the socket down in both directions, unless libmicrohttpd has completed the
    /// request (then it closes, or has closed, the socket itself). Under the lock, so that
    /// ``finish()`` (which runs before libmicrohttpd closes the socket) cannot pass between
    /// the check and the call.
    private func shutDownUnlessFinished() {
        lock.withLock { _ in
            guard connection != nil, machine.socket >= 0 else { return }
            shutdown(machine.socket, Int32(SHUT_RDWR))
        }
    }

    // MARK: - The sender's side (its thread only)

    /// The socket to write to, once, right after libmicrohttpd handed the connection over;
    /// `nil` when it was not handed over or has been taken already.
    func takeAdoption() -> Int32? {
        lock.withLock { _ in machine.takeAdoption() }
    }

    /// The sender takes the stream off its ready list and, with `maxBytes`, takes queued
    /// chunks up to that many bytes (at least one) to write: one lock for both.
    func visit(takingUpTo maxBytes: Int?) -> StreamStateMachine.SenderWork {
        lock.withLock { _ in machine.visit(takingUpTo: maxBytes) }
    }

    /// The sender wrote `bytes` of the chunk it took, as the kernel reported `now`;
    /// `blocked`: the socket took no more. With `reschedule`, marks the stream scheduled to
    /// go back on the sender's ready list and returns whether the sender must put it there
    /// (`false`: already there).
    func didSend(bytes: Int, blocked: Bool, reschedule: Bool, now: UInt64) -> Bool {
        lock.withLock { _ in machine.didSend(bytes: bytes, blocked: blocked, reschedule: reschedule, now: now) }
    }

    /// The sender lets go of the stream, to end: cleanly when it finished its last chunk,
    /// or dropped (`shutdown`). libmicrohttpd's connection goes back to it (resumed; the
    /// socket shut down first when dropped); a stream the front door opened ends here
    /// (its `ending`, which closes the socket). Never handed to a sender again. Does
    /// nothing if the stream is not a sender's.
    func handBack(shutdown shutDown: Bool) {
        let (effect, ending, clean) = lock.withLock {
            (_: inout Void) -> (Effect, (@Sendable (Bool) -> Void)?, Bool) in
            defer { sender = nil }
            if let ending = directEnding {
                directEnding = nil
                return (Effect(stream: self), ending, !shutDown && machine.state == .closing)
            }
            return (makeEffect(machine.returnToLibmicrohttpd(shutDown: shutDown)), nil, false)
        }
        effect.perform()
        ending?(clean)
    }

    // MARK: - libmicrohttpd's side (the daemon's thread)

    /// libmicrohttpd's content reader: copies up to `capacity` queued bytes into `buffer`.
    ///
    /// Returns the byte count, or suspends the connection and returns 0 when nothing is
    /// queued (the suspend happens after the lock is released; a wake-up meanwhile resumes
    /// it, see ``StreamStateMachine/Connection/suspending``), or ends (-1) or aborts (-2)
    /// the stream.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let now = MonotonicTime.now()
        let (decision, connection) = lock.withLock {
            (_: inout Void) -> (StreamStateMachine.ReaderDecision, ConnectionHandle?) in
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
            lock.withLock { _ in makeEffect(machine.suspended()) }.perform()
            return 0
        }
    }

    /// Called once when libmicrohttpd completes the request: no more calls follow. Returns
    /// what ``attach(_:socket:sender:onEnd:)`` and ``setHangupRegistration(token:fd:)``
    /// left, for the server to run and undo.
    func finish() -> (onEnd: (@Sendable () -> Void)?, hangup: HangupRegistration?) {
        lock.withLock { _ in
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
}
