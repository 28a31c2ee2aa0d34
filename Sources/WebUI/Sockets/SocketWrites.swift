import CMicroHTTPD
import FeedCore
import Glibc

/// The socket writes of one ``StreamSender`` thread, sent together: queued during a pass
/// over the ready list and handed to the kernel ``entries`` (64) at a time, one
/// `io_uring_enter` each, so writing to thousands of clients costs a system call per 64
/// clients instead of one `send` each. Where the kernel refuses io_uring (disabled, or
/// blocked by a seccomp profile), each write is a `send` made at once, with the same
/// reports.
///
/// Every write is non-blocking (`MSG_DONTWAIT`): the kernel writes what the socket has
/// room for and reports it (bytes written, or `-EAGAIN`), usually within the submission
/// itself. A report that comes later raises ``completionFD``.
///
/// Only its sender's thread uses it. Invariants:
/// - The bytes of a write stay in `inFlight` until the kernel has reported on it, whatever
///   became of the stream meanwhile.
/// - No write stays queued past its socket's hand back: ``submitBeforeHandBack()`` hands the queue to
///   the kernel first, so a descriptor number that is closed and reused (the front door
///   accepts on its own thread) never receives a write meant for the socket it named
///   before.
final class SocketWrites {
    /// What the kernel reported on one write.
    struct Report {
        /// Bytes written, or `-errno`.
        let result: Int
        /// The bytes that were to be written.
        let bytes: [UInt8]
        /// When the report was collected (``MonotonicTime``, nanoseconds): read once per
        /// submission for all of its reports.
        let at: UInt64
    }

    /// The most writes handed to the kernel in one submission.
    ///
    /// Small on purpose: a thread is not preempted inside a system call (kernels built
    /// with `PREEMPT_NONE` only switch on the way back to user space), and the kernel TCP
    /// work of one loopback send is several microseconds, so a submission of thousands
    /// holds a core for tens of milliseconds while a person's page frame, or the browser
    /// showing it, waits behind it. A submission of 64 is a fraction of a millisecond of
    /// kernel time, and still one system call per 64 deliveries. What was measured:
    /// BENCHMARKS.md, "Why the senders submit 64 writes at a time, at niceness 10".
    let entries: UInt32
    /// The ring, behind a pointer: each call on it is then a plain call, not a checked
    /// exclusive access to a stored property (several per write).
    private let ring = UnsafeMutablePointer<io_uring>.allocate(capacity: 1)
    /// Set once, by `init`.
    private let hasRing: Bool
    /// An eventfd the ring signals when reports arrive; `nil` without a ring. Set once, by
    /// `init`.
    let completionFD: Int32?
    // The queue's bookkeeping, touched several times per write by the sender's thread only:
    // `@exclusivity(unchecked)`, as the sender's own state (``StreamSender``).
    /// Writes submitted or queued and not yet reported, by slot (a write's `user_data`).
    @exclusivity(unchecked) private var inFlight: [InFlightWrite?] = []
    /// Slots of `inFlight` free for reuse.
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    @exclusivity(unchecked) private var inFlightCount = 0
    @exclusivity(unchecked) private var queued = 0

    /// One write the kernel has not reported on yet.
    private struct InFlightWrite {
        let token: UInt64
        let bytes: [UInt8]
    }

    init(useIOUring: Bool, entries: UInt32 = 64) {
        self.entries = entries
        ring.initialize(to: io_uring())
        guard useIOUring, io_uring_queue_init(entries, ring, 0) == 0 else {
            hasRing = false
            completionFD = nil
            return
        }
        let signal = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard signal >= 0, io_uring_register_eventfd(ring, signal) == 0 else {
            if signal >= 0 { close(signal) }
            io_uring_queue_exit(ring)
            hasRing = false
            completionFD = nil
            return
        }
        hasRing = true
        completionFD = signal
    }

    deinit {
        if hasRing { io_uring_queue_exit(ring) }
        if let completionFD { close(completionFD) }
        ring.deallocate()
    }

    /// Whether some write has not been reported on yet.
    var hasWritesInFlight: Bool { inFlightCount > 0 }

    /// Called before a socket is handed back (and may be closed and its number reused):
    /// hands every queued write to the kernel now, so that none is made after that. Their
    /// reports are collected by the next ``submit(report:)``.
    func submitBeforeHandBack() {
        guard hasRing, queued > 0 else { return }
        queued = 0
        _ = io_uring_submit(ring)
    }

    /// Queues `bytes` for socket `fd` on behalf of `token`. Without a ring the write is
    /// made now and reported at once through `report`; with one, when the queue is full,
    /// the queue is submitted first (reporting through `report`).
    func enqueue(token: UInt64, fd: Int32, bytes: [UInt8], report: (UInt64, Report) -> Void) {
        guard hasRing else {
            report(token, Self.sendNow(fd: fd, bytes: bytes))
            return
        }
        var entry = io_uring_get_sqe(ring)
        if entry == nil {
            submit(report: report)
            entry = io_uring_get_sqe(ring)
        }
        guard let entry else {
            report(token, Self.sendNow(fd: fd, bytes: bytes))
            return
        }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            inFlight[slot] = InFlightWrite(token: token, bytes: bytes)
        } else {
            slot = inFlight.count
            inFlight.append(InFlightWrite(token: token, bytes: bytes))
        }
        inFlightCount += 1
        // The array's storage is kept alive by `inFlight` until the report.
        bytes.withUnsafeBytes { raw in
            io_uring_prep_send(entry, fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        io_uring_sqe_set_data64(entry, UInt64(slot))
        queued += 1
    }

    /// Hands the queued writes to the kernel (one system call) and reports every write the
    /// kernel has reported on.
    func submit(report: (UInt64, Report) -> Void) {
        guard hasRing else { return }
        if queued > 0 {
            queued = 0
            _ = io_uring_submit(ring)
        }
        guard inFlightCount > 0 else { return }
        let now = MonotonicTime.now()
        var completion: UnsafeMutablePointer<io_uring_cqe>?
        while inFlightCount > 0, io_uring_peek_cqe(ring, &completion) == 0, let done = completion {
            let slot = Int(truncatingIfNeeded: done.pointee.user_data)
            let result = Int(done.pointee.res)
            io_uring_cqe_seen(ring, done)
            guard slot < inFlight.count, let write = inFlight[slot] else { continue }
            inFlight[slot] = nil
            freeSlots.append(slot)
            inFlightCount -= 1
            report(write.token, Report(result: result, bytes: write.bytes, at: now))
        }
    }

    /// Clears ``completionFD``'s signal (after it woke the thread).
    func drainCompletionSignal() {
        guard let completionFD else { return }
        var value: UInt64 = 0
        _ = read(completionFD, &value, MemoryLayout<UInt64>.size)
    }

    /// One non-blocking `send` of as much of `bytes` as the socket takes, reported: bytes
    /// written, or `-errno`.
    private static func sendNow(fd: Int32, bytes: [UInt8]) -> Report {
        while true {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return send(fd, base, raw.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent >= 0 { return Report(result: sent, bytes: bytes, at: MonotonicTime.now()) }
            if errno == EINTR { continue }
            return Report(result: -Int(errno), bytes: bytes, at: MonotonicTime.now())
        }
    }
}
