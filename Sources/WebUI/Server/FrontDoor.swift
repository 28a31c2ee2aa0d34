import CMicroHTTPD
import FeedCore
import Glibc
import Logging
import NIOConcurrencyHelpers
import Synchronization

/// Accepts connections on the listening socket, answers plain `GET`/`HEAD` requests for the
/// few paths whose response depends on nothing but the path (`/`) itself, opens plain
/// `GET`s of the programs' streams (`/events`) itself (``DirectStream``), and hands every
/// other connection to libmicrohttpd, untouched. One per shard (``HTTPServer``'s
/// `--threads`): the doors share the listening socket, each watching it with
/// `EPOLLEXCLUSIVE`, so the kernel wakes one of them per arrival, and a door accepts at
/// most ``acceptBatch`` connections before it looks at its other sockets again (the rest
/// stay for whichever door wakes next).
///
/// Why: libmicrohttpd 0.9.75 either copies a response body into the socket (19 KB per `/`)
/// or, from a file, sends the head as a segment of its own and sets `TCP_NODELAY` per
/// response; both lose to nginx's `sendfile`. Here a cached page is one
/// ``DirectResponseFile`` and one `sendfile(2)` per request.
///
/// How, per connection (one thread, one edge-triggered epoll set, no thread or timer per
/// connection; when to hand over or close is ``DoorConnections``'s to decide):
/// - It *peeks* (`MSG_PEEK`) at what the client sent; ``DirectRequestHead`` decides. Only a
///   request answered here is consumed, so a connection handed over carries every byte
///   it has sent, and libmicrohttpd reads and answers it as if it had accepted it.
/// - A plain `GET` of a stream's path is the responder's to decide (on this thread): a
///   stream the server admits is consumed, and its socket leaves the door for a shard's
///   sender, which writes the response from its head on and closes the socket at its end.
///   Any other answer goes to libmicrohttpd, the request unread.
/// - A head that arrives in pieces, any request for another path, and any request not in
///   the plain form goes to libmicrohttpd (`MHD_add_connection`) at once, for good.
/// - A connection waiting for a request here (new, or kept alive after an answer) is
///   handed over after `holdLimit` (``defaultHoldLimit``) without one, so slow and idle
///   clients are always libmicrohttpd's (its timeouts, ``ConnectionReaper``'s rules), at
///   most that late.
/// - A client that stops reading an answer is closed once its socket has taken no byte
///   for `stallLimit` (libmicrohttpd's connection timeout). It costs a socket and a share
///   of one response file, never a buffer of its own.
///
/// Its state is touched only on its thread, except the counts (atomics) and `phase`. The
/// listening socket is the server's: a door stops watching it, the server closes it.
final class FrontDoor: @unchecked Sendable {
    /// How long a connection may wait here for a request before libmicrohttpd gets it: long
    /// enough for a client's next request on a busy keep-alive connection, short against
    /// the head timeout.
    static let defaultHoldLimit: Duration = .milliseconds(250)
    /// The most connections held here at once; more are handed over as they come.
    static let capacity = 4096
    /// The most connections a door accepts per wake-up.
    static let acceptBatch = 64
    /// How a door watches the listening socket: one door woken per arrival.
    private static let listenEvents = EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue

    /// A connection handed over: its socket and its peer's address.
    struct Handover {
        var fd: Int32
        var peer: sockaddr_storage
        var peerLength: socklen_t
    }

    private struct Sending {
        let file: DirectResponseFile
        var offset: Int
        let end: Int
    }

    /// A connection held here, as the socket side sees it.
    private struct Held {
        var peer: sockaddr_storage
        var peerLength: socklen_t
        /// The answer being sent, if any.
        var sending: Sending?
        /// Whether the epoll set reports the socket writable too: only once an answer did
        /// not fit its send buffer (else each answer's ACK would wake the thread for nothing).
        var watchesWrites = false
    }

    private static let listenToken = UInt64.max
    /// Edge-triggered: one report per arrival of bytes, so a socket is read until it would
    /// block or until all that was there has been answered.
    private static let readEvents = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue

    private let listener: ListenSocket
    private let paths: [[UInt8]]
    private let streamPaths: [[UInt8]]
    private let maxHeadBytes: Int
    /// The prepared response for the path at an index of `paths`, now.
    private let response: @Sendable (Int) -> PreparedResponse?
    /// Gives a connection to libmicrohttpd (which closes it if it cannot take it).
    private let handOver: @Sendable (Handover) -> Void
    /// What the server makes of a plain request of a stream's path.
    private let openStream: @Sendable (HTTPRequest) -> DirectStream.Opening
    private let logger: Logger
    private let epoll: WakeableEpoll
    private let thread = OwnedThread()
    /// The thread's name.
    private let name: String
    /// Where the door is in its life.
    private let phase = NIOLockedValueBox(Phase.idle)

    private enum Phase { case idle, running, stopped }
    // What the door has done (``Counts``), counted on its thread, read from any.
    private let answered = Atomic<Int>(0)
    private let handedOver = Atomic<Int>(0)
    private let closedStalled = Atomic<Int>(0)
    private let streamsOpened = Atomic<Int>(0)
    private let heldNow = Atomic<Int>(0)
    private let waitingNow = Atomic<Int>(0)

    // Touched only on the door's thread.
    private var held: [Int32: Held] = [:]
    /// When each held connection is handed over or closed.
    private var rules: DoorConnections
    /// The response file per path, as last made.
    private var files: [DirectResponseFile?]
    /// Whether `files` was checked against the current response since the last
    /// `epoll_wait` returned: once per batch of ready sockets, not per request (a request
    /// in the batch gets the page as it was when the batch began).
    private var checked: [Bool]
    private var peekBuffer: [UInt8]
    /// When accepting resumes after the process ran out of descriptors.
    private var acceptPausedUntil: UInt64?
    /// When running out of descriptors was last logged.
    private var acceptFailureLogged: UInt64?

    /// `nil` when the system refuses an epoll set. `name` names the thread.
    init?(
        name: String = "fw-front-door", listener: ListenSocket, paths: [String], streamPaths: [String] = [],
        maxHeadBytes: Int, holdLimit: Duration, stallLimit: Duration, logger: Logger,
        response: @escaping @Sendable (Int) -> PreparedResponse?,
        openStream: @escaping @Sendable (HTTPRequest) -> DirectStream.Opening = { _ in .elsewhere },
        handOver: @escaping @Sendable (Handover) -> Void
    ) {
        guard let epoll = WakeableEpoll() else { return nil }
        self.name = name
        self.epoll = epoll
        self.listener = listener
        self.paths = paths.map { Array($0.utf8) }
        self.streamPaths = streamPaths.map { Array($0.utf8) }
        self.maxHeadBytes = maxHeadBytes
        self.rules = DoorConnections(
            holdLimit: holdLimit.saturatingNanoseconds,
            stallLimit: stallLimit <= .zero ? .max : stallLimit.saturatingNanoseconds, capacity: Self.capacity)
        self.logger = logger
        self.response = response
        self.openStream = openStream
        self.handOver = handOver
        self.files = Array(repeating: nil, count: paths.count)
        self.checked = Array(repeating: false, count: paths.count)
        self.peekBuffer = Array(repeating: 0, count: maxHeadBytes)
    }

    /// What the door has done since start.
    struct Counts: Sendable {
        /// Requests answered here.
        var answered = 0
        /// Streams opened here, written by a sender from their first byte.
        var streams = 0
        /// Connections given to libmicrohttpd.
        var handedOver = 0
        /// Connections closed because their client took no byte of an answer for the
        /// stall limit.
        var closedStalled = 0
        /// Connections held here now (as of the thread's last pass).
        var held = 0
        /// Of those, the ones waiting for a request.
        var waiting = 0
    }

    /// What the door has done since start.
    var counts: Counts {
        Counts(
            answered: answered.load(ordering: .relaxed), streams: streamsOpened.load(ordering: .relaxed),
            handedOver: handedOver.load(ordering: .relaxed),
            closedStalled: closedStalled.load(ordering: .relaxed), held: heldNow.load(ordering: .relaxed),
            waiting: waitingNow.load(ordering: .relaxed))
    }

    /// Starts accepting (once).
    func start() {
        let starts = phase.withLockedValue { phase in
            guard phase == .idle else { return false }
            phase = .running
            return true
        }
        guard starts else { return }
        guard epoll.add(listener.fd, events: Self.listenEvents, token: Self.listenToken) else {
            logger.error("cannot watch the listening socket; no connection will be accepted")
            phase.withLockedValue { $0 = .idle }
            return
        }
        thread.start(name: name, stackSize: 256 * 1024) { [self] in run() }
    }

    /// Stops accepting and closes every connection held here (an answer half sent is cut,
    /// as libmicrohttpd's stop cuts its own); waits at most 2 s for the thread. Whether the
    /// thread has exited (a later call does nothing). The server closes the listening
    /// socket once every door has stopped.
    @discardableResult
    func stop() -> Bool {
        let was = phase.withLockedValue { phase in
            defer { phase = .stopped }
            return phase
        }
        switch was {
        case .idle:
            return true
        case .running:
            epoll.wake()
            return thread.waitForExit(within: .seconds(2))
        case .stopped:
            return true
        }
    }

    // MARK: - The thread

    private func run() {
        // sendfile(2) has no MSG_NOSIGNAL: a client gone mid-answer raises SIGPIPE on this
        // thread, where it stays pending instead of ending the process (SwiftNIO ignores
        // SIGPIPE process-wide, but only once it has made a socket).
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipe, nil)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while phase.withLockedValue({ $0 == .running }) {
            let count = epoll.wait(into: &events, timeout: timeout(now: MonotonicTime.now()))
            for index in checked.indices { checked[index] = false }
            for event in events.prefix(Int(max(0, count))) {
                switch event.data.u64 {
                case WakeableEpoll.wakeToken: epoll.clearWake()
                case Self.listenToken: acceptAll()
                default: serve(Int32(truncatingIfNeeded: event.data.u64 - 1))
                }
            }
            let now = MonotonicTime.now()
            for action in rules.due(at: now) {
                switch action {
                case .handOver(let fd): handOverHeld(fd)
                case .close(let fd):
                    drop(fd)
                    closedStalled.wrappingAdd(1, ordering: .relaxed)
                }
            }
            if let until = acceptPausedUntil, now >= until {
                acceptPausedUntil = nil
                _ = epoll.add(listener.fd, events: Self.listenEvents, token: Self.listenToken)
            }
            heldNow.store(rules.count, ordering: .relaxed)
            waitingNow.store(rules.waitingCount, ordering: .relaxed)
        }
        for fd in held.keys { close(fd) }
        held.removeAll()
        heldNow.store(0, ordering: .relaxed)
        waitingNow.store(0, ordering: .relaxed)
        epoll.remove(listener.fd)
    }

    /// Milliseconds until the next rule falls due (or accepting resumes); -1 without either.
    private func timeout(now: UInt64) -> Int32 {
        var next = rules.nextDeadline
        if let until = acceptPausedUntil { next = min(next ?? until, until) }
        guard let next else { return -1 }
        return next <= now ? 0 : Int32(clamping: (next - now) / 1_000_000 + 1)
    }

    /// Accepts up to ``acceptBatch`` connections (the socket is watched level-triggered:
    /// what is left wakes a door again).
    private func acceptAll() {
        for _ in 0..<Self.acceptBatch {
            var peer = sockaddr_storage()
            var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    feedweb_accept_nonblocking(listener.fd, $0, &peerLength)
                }
            }
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop watching for 100 ms instead of spinning.
                    epoll.remove(listener.fd)
                    let now = MonotonicTime.now()
                    acceptPausedUntil = now &+ 100_000_000
                    if acceptFailureLogged.map({ now &- $0 >= 60_000_000_000 }) ?? true {
                        acceptFailureLogged = now
                        logger.warning(
                            "cannot accept connections: out of file descriptors or memory (errno \(errno)); retrying every 100 ms"
                        )
                    }
                    return
                default: return
                }
            }
            let now = MonotonicTime.now()
            // Answers are whole responses in one call: Nagle must not hold their last segment.
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            guard rules.accepted(fd, at: now) else {
                give(Handover(fd: fd, peer: peer, peerLength: peerLength))
                continue
            }
            held[fd] = Held(peer: peer, peerLength: peerLength)
            guard epoll.add(fd, events: Self.readEvents, token: UInt64(fd) + 1) else {
                handOverHeld(fd)
                continue
            }
        }
    }

    /// Moves `fd` along as far as it goes without blocking: finishes the answer being sent,
    /// then reads the next request, until the socket would block or the connection leaves.
    /// `held` is read once and written once.
    private func serve(_ fd: Int32) {
        guard var connection = held[fd] else { return }
        switch advance(fd, &connection) {
        case .wait: held[fd] = connection
        case .handOver: handOverHeld(fd)
        case .drop: drop(fd)
        case .stream(let stream):
            epoll.remove(fd)
            rules.removed(fd)
            held[fd] = nil
            streamsOpened.wrappingAdd(1, ordering: .relaxed)
            stream.begin(socket: fd)
        }
    }

    /// Where a held connection stands once it can go no further for now.
    private enum Outcome {
        case wait, handOver, drop
        /// The request was a stream's, admitted and consumed: the socket is the stream's.
        case stream(DirectStream)
    }

    private func advance(_ fd: Int32, _ connection: inout Held) -> Outcome {
        var allRead = false
        // Whether a blocked answer moved in this call (its stall starts again).
        var moved = false
        while true {
            if var sending = connection.sending {
                var offset = off_t(sending.offset)
                let sent = sendfile(fd, sending.file.fd, &offset, sending.end - sending.offset)
                if sent < 0 {
                    if errno == EINTR { continue }
                    guard errno == EAGAIN else { return .drop }
                    if !connection.watchesWrites {
                        connection.watchesWrites = true
                        epoll.modify(fd, events: Self.readEvents | EPOLLOUT.rawValue, token: UInt64(fd) + 1)
                    }
                    rules.blocked(fd, moved: moved, at: MonotonicTime.now())
                    return .wait
                }
                if sent == 0 { return .drop }
                moved = true
                sending.offset += sent
                if sending.offset < sending.end {
                    connection.sending = sending
                    continue
                }
                connection.sending = nil
                rules.answered(fd, at: MonotonicTime.now())
                if allRead { return .wait }
            }
            let read = peekBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
            if read < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN ? .wait : .drop
            }
            if read == 0 { return .drop }
            let head = peekBuffer.withUnsafeBytes {
                DirectRequestHead.read(
                    UnsafeRawBufferPointer(rebasing: $0[..<read]), paths: paths, streamPaths: streamPaths,
                    maxHeadBytes: maxHeadBytes)
            }
            if case .stream(let request, let length) = head {
                let stream: DirectStream
                switch openStream(request) {
                case .opened(let opened): stream = opened
                case .elsewhere: return .handOver
                case .refused: return .drop
                }
                guard recv(fd, nil, length, Int32(MSG_TRUNC)) == length else {
                    stream.cancel()
                    return .drop
                }
                return .stream(stream)
            }
            guard case .answer(let pathIndex, let isHead, let length) = head, let file = file(for: pathIndex) else {
                return .handOver
            }
            // Consume exactly the request answered (the peek showed it all), without a copy.
            guard recv(fd, nil, length, Int32(MSG_TRUNC)) == length else { return .drop }
            rules.answering(fd)
            connection.sending = Sending(file: file, offset: 0, end: isHead ? file.headCount : file.totalCount)
            answered.wrappingAdd(1, ordering: .relaxed)
            // Nothing more had arrived: the next bytes will be reported, no need to look.
            allRead = read == length
        }
    }

    /// The response file for the path at `index`: the one made last, while its response
    /// and second still hold.
    private func file(for index: Int) -> DirectResponseFile? {
        if checked[index] { return files[index] }
        checked[index] = true
        guard let source = response(index) else {
            files[index] = nil
            return nil
        }
        let second = Int(time(nil))
        if let file = files[index], file.source === source, file.second == second { return file }
        let file = DirectResponseFile(source: source, second: second)
        files[index] = file
        return file
    }

    /// Gives `fd` to libmicrohttpd, untouched.
    private func handOverHeld(_ fd: Int32) {
        epoll.remove(fd)
        rules.removed(fd)
        guard let connection = held.removeValue(forKey: fd) else { return }
        give(Handover(fd: fd, peer: connection.peer, peerLength: connection.peerLength))
    }

    private func give(_ handover: Handover) {
        handedOver.wrappingAdd(1, ordering: .relaxed)
        handOver(handover)
    }

    private func drop(_ fd: Int32) {
        epoll.remove(fd)
        rules.removed(fd)
        held[fd] = nil
        close(fd)
    }
}
