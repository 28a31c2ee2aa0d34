import CMicroHTTPD
import Glibc
import NIOConcurrencyHelpers
import Synchronization

/// The thread that runs one libmicrohttpd daemon started without a thread of its own
/// (`MHD_USE_EPOLL`): it sleeps until the daemon's epoll set reports a socket, a connection
/// is handed over, or a suspended connection is resumed, then adds the connections handed
/// over and runs the daemon once (`MHD_run`, which never blocks), until nothing is left.
///
/// Why not libmicrohttpd's own thread (`MHD_USE_EPOLL_INTERNAL_THREAD`): in 0.9.75 that
/// thread's `MHD_epoll` asks `epoll_wait` for at most 128 events and, while a call returns
/// all 128, calls it again **with the same timeout** before serving any of them
/// (daemon.c, the loop `while (MAX_EVENTS == num_events)`). When a multiple of 128
/// connections become ready together — 256 hand-overs in a burst, a crowd of keep-alive
/// clients sending their next requests — the last call finds nothing new and sleeps up to
/// the connection timeout with every one of those requests read into its ready list and
/// none answered; feedweb's head timeout then closed them. Measured with a C program
/// against 0.9.75 (`Benchmarks/libmicrohttpd/epoll_batch_stall.c`): 127, 200, 255 or 300
/// connections ready together were answered within 0.2 s, 128, 256, 384 or 512 not within
/// 15 s. Run from here, `MHD_run` passes a timeout of 0, so that loop never sleeps; the
/// sleeping is done here, on an epoll set that watches the daemon's.
///
/// Without its own thread the daemon has no channel of its own for wake-ups
/// (libmicrohttpd drops `MHD_USE_ITC`): whoever resumes a connection calls ``wake()``
/// after `MHD_resume_connection` (``ConnectionHandle/resume()``), and connections are
/// handed over through ``handOver(_:)``, since `MHD_add_connection` must then be called on
/// the daemon's thread. Every other libmicrohttpd call on the daemon happens on this
/// thread, in the callbacks `MHD_run` makes, or after ``stop()``.
final class DaemonLoop: Sendable {
    /// The daemon run here.
    let daemon: DaemonHandle
    /// Told when a connection handed over was closed without being added: libmicrohttpd
    /// refused it, or the loop had stopped.
    private let refused: @Sendable () -> Void
    private let epoll: WakeableEpoll
    private let daemonEpollFD: Int32
    private let thread = OwnedThread()
    private let name: String
    /// Whether a wake-up was signalled and the thread has not yet run the daemon since:
    /// only the first ``wake()`` of a pass writes the wake-up descriptor.
    private let wakePending = Atomic<Bool>(false)
    /// Guards the phase and the hand-overs waiting for the thread. A leaf: taken holding
    /// a stream's lock (``wake()`` does not take it) or nothing.
    private let state = NIOLockedValueBox(State())

    private struct State {
        var phase = Phase.idle
        var handovers: [FrontDoor.Handover] = []
    }

    private enum Phase { case idle, running, stopped }

    /// A loop for `daemon` (started with `MHD_USE_EPOLL` and without a thread of its own);
    /// `nil` when the system refuses an epoll set or the daemon has none.
    init?(daemon: DaemonHandle, name: String, refused: @escaping @Sendable () -> Void) {
        let daemonEpollFD = feedweb_mhd_epoll_fd(daemon.pointer)
        guard daemonEpollFD >= 0, let epoll = WakeableEpoll(),
            epoll.add(daemonEpollFD, events: EPOLLIN.rawValue, token: 1)
        else { return nil }
        self.daemon = daemon
        self.name = name
        self.refused = refused
        self.epoll = epoll
        self.daemonEpollFD = daemonEpollFD
    }

    /// Starts the thread (once).
    func start() {
        let starts = state.withLockedValue { state in
            guard state.phase == .idle else { return false }
            state.phase = .running
            return true
        }
        guard starts else { return }
        thread.start(name: name, stackSize: 8 << 20) { [self] in run() }
    }

    /// Gives a connection to the daemon: added on the loop's thread at its next pass; closed
    /// (and ``refused`` told) when the loop has stopped.
    func handOver(_ handover: FrontDoor.Handover) {
        let queued = state.withLockedValue { state in
            guard state.phase != .stopped else { return false }
            state.handovers.append(handover)
            return true
        }
        guard queued else {
            close(handover.fd)
            refused()
            return
        }
        wake()
    }

    /// Makes the thread run the daemon soon: after `MHD_resume_connection`, from any thread.
    func wake() {
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) { epoll.wake() }
    }

    /// Stops the thread and waits until it has exited, however long that takes; connections
    /// handed over and not yet added are closed. The daemon may be stopped afterwards
    /// (`MHD_stop_daemon`): not before, since the thread may be inside `MHD_run` (a pass that
    /// serves many connections, on a machine short of CPU, can take seconds) and would go on
    /// in the daemon's freed memory. The thread ends at its next pass: `MHD_run` never blocks.
    func stop() {
        let was = state.withLockedValue { state in
            defer { state.phase = .stopped }
            return state.phase
        }
        if was == .running {
            epoll.wake()
            thread.waitForExit()
        }
        let left = state.withLockedValue { state in
            defer { state.handovers = [] }
            return state.handovers
        }
        for handover in left {
            close(handover.fd)
            refused()
        }
    }

    // MARK: - The thread

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 4)
        while true {
            // Until the daemon's next connection deadline, or a socket, a hand-over or a resume.
            let count = epoll.wait(into: &events, timeout: feedweb_mhd_wait_ms(daemon.pointer))
            for event in events.prefix(Int(max(0, count))) where event.data.u64 == WakeableEpoll.wakeToken {
                epoll.clearWake()
            }
            // Cleared before the hand-overs are taken and before the daemon looks at what
            // was resumed: a hand-over or a resume after this signals again.
            wakePending.store(false, ordering: .sequentiallyConsistent)
            let (running, handovers) = state.withLockedValue { state in
                defer { state.handovers = [] }
                return (state.phase == .running, state.handovers)
            }
            guard running else {
                for handover in handovers {
                    close(handover.fd)
                    refused()
                }
                return
            }
            for handover in handovers { add(handover) }
            _ = MHD_run(daemon.pointer)
        }
    }

    /// `MHD_add_connection`, on this thread: libmicrohttpd sets the connection up at once
    /// and reports it started (`MHD_CONNECTION_NOTIFY_STARTED`) before returning.
    private func add(_ handover: FrontDoor.Handover) {
        var peer = handover.peer
        let added = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                MHD_add_connection(daemon.pointer, handover.fd, $0, handover.peerLength)
            }
        }
        // libmicrohttpd closed the socket itself.
        if added != MHD_Result.YES { refused() }
    }
}
