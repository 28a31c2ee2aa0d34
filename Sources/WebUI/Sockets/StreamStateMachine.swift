/// What one SSE client's stream is, and what must happen to it: the bytes queued for it,
/// who writes them (libmicrohttpd, or a ``StreamSender``), and the suspend/resume
/// handshake with libmicrohttpd. A plain value without I/O: each event returns the
/// ``Action`` its caller carries out once it has let go of the stream's lock
/// (``StreamConnection``), as AsyncHTTPClient's `HTTP1ConnectionStateMachine` does. Its
/// types are in `StreamStateMachine+Types.swift`; `StreamStateMachineTests` drive it with
/// events alone.
///
/// Invariants:
/// - `connection` is `.suspended` exactly while libmicrohttpd holds the connection
///   suspended; whoever moves it out of `.suspended` gets ``Action/resume`` once and calls
///   `MHD_resume_connection` (after the suspend has returned: see `.suspending`).
/// - `owner` is `.sender` only while suspended (or suspending, on the way there), or for a
///   stream the front door opened (``attachedDirect(socket:)``, never libmicrohttpd's);
///   only the sender's thread moves it back.
/// - `scheduled` is true exactly while the stream is on its sender's ready list: whoever
///   sets it gets ``Action/markReady`` and puts it there once.
/// - `queuedBytes` is the number of unsent bytes in `queue` (counting from `headOffset`);
///   it never exceeds `maxQueuedBytes` except for a single event that arrived on an empty
///   queue (one event always fits).
/// - Queued chunks are shared `[UInt8]` buffers: an event encoded once is referenced, not
///   copied, by every client's queue.
/// - A client that keeps up has its one queued event in the machine itself (``ChunkQueue``):
///   queuing and taking it allocate nothing, and an idle client holds no queue storage.
struct StreamStateMachine {
    /// The bound on unsent bytes before the client is dropped.
    let maxQueuedBytes: Int
    private(set) var state: StreamState = .open
    private(set) var connection: Connection = .none
    private(set) var owner: Owner = .libmicrohttpd
    /// Whether the stream is handed to a sender once libmicrohttpd has sent its first bytes.
    private(set) var hasSender = false
    private var wakeAfterSuspend = false
    private var scheduled = false
    private var queue = ChunkQueue()
    private var headOffset = 0
    private var queuedBytes = 0
    /// Bytes the sender has taken from the queue and not yet seen written (stalls count
    /// them as waiting).
    private var inFlightBytes = 0
    /// Since when bytes have been waiting without the client taking any (monotonic ns).
    private var waitingSince: UInt64?
    /// The connection's socket (-1: unknown).
    private(set) var socket: Int32 = -1

    init(maxQueuedBytes: Int) {
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// Bytes queued and not yet sent (in flight included).
    var pendingBytes: Int { queuedBytes + inFlightBytes }

    /// How long bytes have been waiting by `now` without the client taking any
    /// (nanoseconds); `nil` when nothing waits.
    func waiting(now: UInt64) -> UInt64? {
        guard state == .open, pendingBytes > 0, let since = waitingSince else { return nil }
        return now > since ? now - since : 0
    }

    /// Bound to a libmicrohttpd connection on `socket`, sending, handed to a sender later
    /// when `hasSender`.
    mutating func attached(socket: Int32, hasSender: Bool) {
        connection = .running
        self.socket = socket
        self.hasSender = hasSender
    }

    /// Opened by the front door on `socket` (its head already sent there), and handed to
    /// its sender at once: libmicrohttpd never holds it. The sender ends it
    /// (``StreamConnection/handBack(shutdown:)``).
    mutating func attachedDirect(socket: Int32) -> Action {
        self.socket = socket
        hasSender = true
        owner = .sender(adopted: false)
        guard !scheduled else { return .none }
        scheduled = true
        return .markReady
    }

    // MARK: - Queuing (publishers, any thread)

    /// Queues `bytes`; when they would pass the bound, drops the client (`report` false)
    /// or reports it.
    mutating func enqueue(_ bytes: [UInt8], report: Bool, now: UInt64) -> (StreamEnqueueResult, Action) {
        guard state == .open else { return (.notOpen, .none) }
        if queuedBytes > 0 && queuedBytes + bytes.count > maxQueuedBytes {
            if report { return (.full, .none) }
            return (.dropped, drop(as: .dropped))
        }
        if queuedBytes + inFlightBytes == 0 { waitingSince = now }
        queue.append(bytes)
        queuedBytes += bytes.count
        return (.queued, wake())
    }

    /// Queues several chunks as one step (a new client's first events).
    mutating func enqueue(contentsOf chunks: [[UInt8]], now: UInt64) -> (Bool, Action) {
        guard state == .open else { return (false, .none) }
        for chunk in chunks where !chunk.isEmpty {
            if queuedBytes + inFlightBytes == 0 { waitingSince = now }
            queue.append(chunk)
            queuedBytes += chunk.count
        }
        return (true, wake())
    }

    /// Replaces what the client has not been sent with `bytes` (one event that stands for
    /// all of it), keeping the part of an event already partly sent.
    mutating func catchUp(with bytes: [UInt8], now: UInt64) -> (Bool, Action) {
        guard state == .open else { return (false, .none) }
        var kept = ChunkQueue()
        var keptBytes = 0
        if headOffset > 0, let head = queue.first {
            kept.append(head)
            keptBytes = head.count - headOffset
        } else {
            headOffset = 0
        }
        kept.append(bytes)
        if queuedBytes + inFlightBytes == 0 { waitingSince = now }
        queue = kept
        queuedBytes = keptBytes + bytes.count
        return (true, wake())
    }

    /// Ends the stream cleanly once what is queued has been sent.
    mutating func close() -> Action {
        guard state == .open else { return .none }
        state = .closing
        return wake()
    }

    /// Drops the client when bytes have waited more than `nanoseconds` with none taken.
    /// `now` may be older than a progress the daemon thread recorded meanwhile: such a
    /// stream is not stalled.
    mutating func dropIfStalled(olderThan nanoseconds: UInt64, now: UInt64) -> (Bool, Action) {
        guard state == .open, queuedBytes + inFlightBytes > 0, let since = waitingSince, now > since,
            now - since > nanoseconds
        else { return (false, .none) }
        return (true, drop(as: .dropped))
    }

    /// The client hung up.
    mutating func peerClosed() -> Action {
        guard state == .open || state == .closing else { return .none }
        return drop(as: .disconnected)
    }

    /// Marks the client gone (`reason`) and frees its queue; what makes libmicrohttpd or
    /// the sender notice.
    private mutating func drop(as reason: StreamState) -> Action {
        state = reason
        queue.removeAll()
        queuedBytes = 0
        headOffset = 0
        switch owner {
        case .sender:
            return wake()
        case .libmicrohttpd:
            if connection == .suspended || connection == .suspending { return wake() }
            // Not reading, so libmicrohttpd will not call the reader soon.
            return connection == .running && socket >= 0 ? .shutDown : .none
        }
    }

    /// Gets the bytes (or the end) moving: a resume of libmicrohttpd's suspended
    /// connection, or the sender's ready list when the stream is not on it yet.
    private mutating func wake() -> Action {
        switch owner {
        case .libmicrohttpd:
            switch connection {
            case .suspended:
                connection = .running
                return .resume
            case .suspending:
                wakeAfterSuspend = true
                return .none
            case .none, .running:
                return .none
            }
        case .sender:
            guard !scheduled else { return .none }
            scheduled = true
            return .markReady
        }
    }

    // MARK: - libmicrohttpd's content reader (the daemon's thread)

    /// What to give libmicrohttpd, with room for `capacity` bytes: `copy` is called with the
    /// chunks' bytes to copy, in order, and their total must not exceed `capacity`.
    mutating func read(capacity: Int, now: UInt64, copy: (UnsafeRawBufferPointer, _ at: Int) -> Void)
        -> ReaderDecision
    {
        switch state {
        case .dropped, .disconnected, .finished: return .abort
        case .open, .closing: break
        }
        if queuedBytes == 0 {
            if state == .closing { return .end }
            guard connection == .running else { return .abort }
            connection = .suspending
            return .suspend
        }
        var written = 0
        while written < capacity, let head = queue.first {
            let available = head.count - headOffset
            let count = min(available, capacity - written)
            head.withUnsafeBytes { raw in
                copy(UnsafeRawBufferPointer(rebasing: raw[headOffset..<headOffset + count]), written)
            }
            written += count
            if count == available {
                _ = queue.popFirst()
                headOffset = 0
            } else {
                headOffset += count
            }
        }
        queuedBytes -= written
        waitingSince = queuedBytes > 0 ? now : nil
        return .bytes(written)
    }

    /// `MHD_suspend_connection` has returned. libmicrohttpd has sent everything it was
    /// given (it asks only then): from here the sender writes, on a chunk boundary, or
    /// libmicrohttpd is resumed when bytes came meanwhile.
    mutating func suspended() -> Action {
        connection = .suspended
        let woken = wakeAfterSuspend
        wakeAfterSuspend = false
        if hasSender {
            owner = .sender(adopted: false)
            scheduled = true
            return .markReady
        }
        guard woken else { return .none }
        connection = .running
        return .resume
    }

    /// libmicrohttpd completed the request: nothing more is sent or called.
    mutating func finish() {
        state = .finished
        queue.removeAll()
        queuedBytes = 0
        inFlightBytes = 0
        connection = .none
        owner = .libmicrohttpd
        hasSender = false
        wakeAfterSuspend = false
    }

    // MARK: - The sender (its thread only)

    /// The socket to write to, once, right after the connection was handed over; `nil`
    /// when it was not handed over or has been taken already.
    mutating func takeAdoption() -> Int32? {
        guard case .sender(adopted: false) = owner else { return nil }
        owner = .sender(adopted: true)
        return socket
    }

    /// The sender takes the stream off its ready list and, with `maxBytes`, takes queued
    /// chunks up to that many bytes (at least one) to write.
    mutating func visit(takingUpTo maxBytes: Int?) -> SenderWork {
        scheduled = false
        guard state == .open || state == .closing else { return .gone }
        guard let maxBytes else { return .alive }
        guard queuedBytes > 0, let head = queue.popFirst() else { return .empty(closing: state == .closing) }
        let first = headOffset > 0 ? Array(head[headOffset...]) : head
        headOffset = 0
        var rest: [[UInt8]] = []
        var count = first.count
        while let next = queue.first, count + next.count <= maxBytes {
            _ = queue.popFirst()
            rest.append(next)
            count += next.count
        }
        queuedBytes -= count
        inFlightBytes = count
        // A closing stream comes back once more to be handed back after its last chunk.
        return .send(
            TakenChunks(first: first, rest: rest), byteCount: count, more: queuedBytes > 0 || state == .closing)
    }

    /// The sender wrote `bytes` of the chunk it took; `blocked`: the socket took no more.
    /// With `reschedule`, whether the sender must put the stream back on its ready list
    /// (it is marked scheduled then).
    mutating func didSend(bytes: Int, blocked: Bool, reschedule: Bool, now: UInt64) -> Bool {
        if !blocked { inFlightBytes = 0 }
        if bytes > 0 || !blocked {
            waitingSince = queuedBytes + inFlightBytes > 0 ? now : nil
        }
        guard reschedule, !scheduled, case .sender = owner else { return false }
        scheduled = true
        return true
    }

    /// The sender gives the connection back to libmicrohttpd (resumed) to end it: cleanly
    /// after its last chunk, or after a shutdown (`shutDown`). Never handed to a sender
    /// again.
    mutating func returnToLibmicrohttpd(shutDown: Bool) -> Action {
        guard case .sender = owner else { return .none }
        owner = .libmicrohttpd
        hasSender = false
        scheduled = false
        inFlightBytes = 0
        let resume = wake()
        if shutDown && socket >= 0 { return resume == .resume ? .shutDownAndResume : .shutDown }
        return resume
    }
}
