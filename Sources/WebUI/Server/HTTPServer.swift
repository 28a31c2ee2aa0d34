import CMicroHTTPD
import FeedCore
import Glibc
import Logging
import NIOConcurrencyHelpers

/// The HTTP server: a ``FrontDoor`` thread that accepts every connection and answers plain
/// requests for `/` itself, libmicrohttpd daemons (each run by a ``DaemonLoop`` thread,
/// which reads and answers every other request on the connections the front door hands it)
/// and a few ``StreamSender`` threads that write established SSE streams: one per ``Shard``
/// of the programs' streams, and one for people's pages.
///
/// Requests are answered on a daemon's thread by an ``HTTPResponder``. A stream's first
/// bytes go out through libmicrohttpd; then it is suspended there and a sender writes its
/// chunks itself, woken once per batch of ready streams, so there is no thread and no
/// polling per client. A plain `GET` of a programs' stream (``HTTPResponder/directStreamPaths``)
/// is opened by the front door instead and written by a sender from its first event
/// (``DirectStream``): libmicrohttpd never holds it, nor its memory pool.
///
/// Slow clients: a connection must deliver a complete request within
/// ``Configuration/headTimeout`` of its connect (or, kept alive, of its previous response),
/// and connections waiting for a request give way, longest waiting first, whenever a new
/// connection needs their room (``ConnectionReaper``, ``WaitingConnections``). The
/// connection limit is what the open-file limit allows, so thousands of slow heads never
/// keep a new client or stream out.
///
/// Lifecycle: ``start()`` once, then ``stop(timeout:)`` once, which follows the only order
/// libmicrohttpd survives: stop the front door (and so close the listening socket), end
/// every stream, wait for them to drain, stop the daemon.
public final class HTTPServer: @unchecked Sendable {
    /// Tunables, each default set here once. What they were chosen from: BENCHMARKS.md,
    /// "The server's defaults" (which also says where the team's libmicrohttpd notes are:
    /// beside the repository, not in it).
    public struct Configuration: Sendable {
        /// Where to listen.
        public var address: ListenAddress
        /// The most concurrent SSE streams; one more gets the responder's 503.
        public var maxStreams: Int
        /// Seconds a connection may sit idle (or a writer stall) before it is closed; 0:
        /// never. Suspended streams never time out. A connection that owes a request is
        /// closed sooner, at ``headTimeout``. The front door closes a client that takes no
        /// byte of its answer for as long.
        public var connectionTimeout: UInt32 = 60
        /// How long a connection may take to deliver a complete request (head and any
        /// body), counted from its connect or, on a keep-alive connection, from the end of
        /// the previous response; it is closed then, however many bytes it has trickled in.
        /// A wait that begins at the front door is counted from its hand-over, at most
        /// ``frontDoorHoldLimit`` later.
        /// A request being answered, an SSE stream above all, is exempt (see
        /// ``WaitingConnections``).
        public var headTimeout: Duration = .seconds(10)
        /// The most connections libmicrohttpd and the front door's streams (``DirectStream``)
        /// hold at once; `nil`: what the process's open-file limit allows
        /// (``defaultConnectionLimit(openFiles:)``) when the server is made.
        ///
        /// Past it the server refuses the connections the front door would hand
        /// libmicrohttpd or open a stream on (they are closed without an answer;
        /// ``HandoverAdmission``), so
        /// connections waiting for a request are dropped, longest waiting first, before it
        /// is reached (``connectionCapacity(limit:)``).
        public var connectionLimit: Int?
        /// Bytes of memory libmicrohttpd may use per connection (request line, headers,
        /// send buffer); a larger request head gets 431 or 414.
        ///
        /// The largest share of the memory of a stream client libmicrohttpd serves (one the
        /// front door does not open itself, ``DirectStream``): all of the pool is touched
        /// by the time the first `data` event has been sent, so every KiB more costs a KiB
        /// per such client. 8 KiB takes request heads up to ``maxRequestHeadBytes`` (3.5 KB; a
        /// browser sends 0.5–2 KB plus its cookies) and sends in ~4 KB chunks.
        public var connectionMemoryLimit: Int = 8 * 1024
        /// How long the front door keeps a connection that has sent no request (new, or
        /// kept alive after an answer) before giving it to libmicrohttpd.
        public var frontDoorHoldLimit: Duration = FrontDoor.defaultHoldLimit
        /// The kernel's accept backlog.
        public var listenBacklog: Int = 4096
        /// libmicrohttpd daemons, each run by a ``DaemonLoop`` thread of its own: they read
        /// request heads and answer them (pages, the API, a stream's first bytes);
        /// established streams are written by the ``streamSenders``, not by them. The
        /// front door hands connections to them in turn.
        ///
        /// Each has a front door of its own (which answers `/` itself and hands the
        /// rest over); the doors share the listening socket. Default: one per core this
        /// process may run on (``availableCores()``, `--threads`).
        public var requestThreads: Int = availableCores()
        /// Threads that write established streams, one per core this process may run on
        /// (``availableCores()``), each the sender of a ``Shard`` of the programs' streams
        /// (``Shard/shards(of:for:)``); people's pages have one more of their own.
        ///
        /// A fan-out is one socket write per client, ~5–10 µs of kernel TCP each: each core
        /// writes to its share of the clients, and queues to them too (each shard's
        /// broadcaster, ``EveryShard``).
        public var streamSenders: Int = availableCores()
        /// The server's shards (`--threads`): as many ``requestThreads`` as
        /// ``streamSenders``, each shard a front door, a daemon and a sender. Setting it
        /// sets both; reading it reads ``streamSenders``.
        public var shards: Int {
            get { streamSenders }
            set {
                requestThreads = newValue
                streamSenders = newValue
            }
        }
        /// How much nicer than the process the ``streamSenders`` run (to at most 19; people's
        /// pages, requests and the upstream stay at the process's niceness): a fan-out to
        /// thousands takes the cores that are left, and a person's next frame, a page request
        /// or the next change from upstream does not wait behind it.
        ///
        /// Ten: under a fan-out to 10,000 clients a page's DOM latency about halves and the
        /// fan-out is no slower (BENCHMARKS.md, "The server's defaults").
        public var streamSenderNiceness: Int32 = 10
        /// Whether stream senders hand a pass's writes to the kernel together through
        /// io_uring (when the kernel allows it); else one `send` per write.
        public var writesThroughIOUring = true

        /// The longest request head (request line and headers) answered normally; a longer
        /// one gets 431.
        ///
        /// libmicrohttpd reads the head into the first half of the connection's pool and
        /// builds the response header in what is left, so a head just short of its own 431
        /// limit leaves no room for any response and the connection is closed without an
        /// answer (BENCHMARKS.md, "The server's defaults"). Refusing from here with a small
        /// 431 narrows that band to its last ~100 bytes.
        public var maxRequestHeadBytes: Int { connectionMemoryLimit / 2 - 512 }

        public init(address: ListenAddress, maxStreams: Int) {
            self.address = address
            self.maxStreams = maxStreams
        }

        /// Descriptors kept for everything but client connections: the listening socket,
        /// the epoll sets, wake-ups and rings of libmicrohttpd's threads, the senders and
        /// the hang-up watcher, the upstream connection and its event loops, static and
        /// state files, standard streams.
        public static let reservedFileDescriptors = 256

        /// The connection limit `openFiles` descriptors allow: all of them less
        /// ``reservedFileDescriptors`` (at least 64).
        public static func defaultConnectionLimit(openFiles: Int) -> Int {
            max(64, openFiles - reservedFileDescriptors)
        }

        /// The connections held before the longest-waiting are dropped for a new one: the
        /// limit less a margin (an eighth of it, at most 128), so that the drops — which
        /// take effect when libmicrohttpd next reads those sockets — keep it from ever
        /// reaching its limit.
        public static func connectionCapacity(limit: Int) -> Int {
            limit - min(128, limit / 8)
        }

        /// The cores this process may run on (its CPU affinity, as `taskset` or a container's
        /// cpuset limits it), at least 1.
        public static func availableCores() -> Int {
            let affinity = Int(feedweb_available_cpus())
            return affinity > 0 ? affinity : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        }

        /// The process's soft limit on open files now.
        static func openFileLimit() -> Int {
            var limit = rlimit()
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
            return limit.rlim_cur == rlim_t.max ? 1 << 20 : Int(clamping: limit.rlim_cur)
        }
    }

    private struct State {
        /// The daemons' loops, once started (one per ``Configuration/requestThreads``).
        var loops: [DaemonLoop] = []
        /// The front doors, one per loop, sharing `listener`.
        var frontDoors: [FrontDoor] = []
        var listener: ListenSocket?
        var open: OpenStreams
    }

    public let configuration: Configuration
    let responder: any HTTPResponder
    let logger: Logger
    /// Guards the daemons' loops and the open streams (admission decided here).
    ///
    /// A leaf: no other lock is taken while it is held. Streams are subscribed, closed,
    /// dropped and ended (their `onEnd`, which takes a broadcaster's lock) only after it is
    /// released. See `Broadcaster` for WebUI's lock order.
    private let state: NIOLockedValueBox<State>
    /// Held for the whole of ``stop(timeout:)``, so that two callers (a service group
    /// shutting down and its owner, say) stop the server once: the second waits for the
    /// first, then finds nothing to stop. libmicrohttpd aborts the process when a daemon is
    /// stopped twice. The outermost lock: taken holding nothing, and `state` is taken under it.
    private let stopping = NIOLock()
    /// The 431 for a request head over ``Configuration/maxRequestHeadBytes``: as few header
    /// bytes as possible, since it must fit where a normal response did not.
    private let headTooLarge: PreparedResponse?
    /// Ends streams whose clients hang up while suspended (libmicrohttpd does not watch
    /// suspended sockets); `nil` only if the system refused an epoll set.
    private let hangups = HangupWatcher()
    /// The shards of the programs' streams, each new one handed the next in turn; each
    /// shard's sender writes its clients (libmicrohttpd does, when the system refused the
    /// sender its epoll set).
    private let shards: [Shard]
    /// The most connections libmicrohttpd and the direct streams hold at once
    /// (``Configuration/connectionLimit``).
    public let connectionLimit: Int
    /// Counts the connections handed to libmicrohttpd and the direct streams, and refuses
    /// those past ``connectionLimit`` (libmicrohttpd's own limit check can deadlock it).
    private let admission: HandoverAdmission
    /// Drops connections that send no complete request in time, or that wait when a new
    /// one needs their room.
    private let reaper: ConnectionReaper
    /// The thread that writes people's page streams: never behind a fan-out to thousands
    /// (``StreamStart/Audience/person``).
    private let pageSender: StreamSender?
    /// Which shard the next programs' stream goes to (round robin). A leaf.
    private let nextShardIndex = NIOLockedValueBox(0)
    /// Which daemon loop the next connection handed over goes to (round robin). A leaf.
    private let nextLoop = NIOLockedValueBox(0)

    /// - Parameter shards: the shards of the programs' streams the responder's
    ///   ``StreamStart``s subscribe to (at least one; ``Shard/shards(of:for:)``, for this
    ///   configuration). The server starts and stops their senders.
    public init(configuration: Configuration, responder: any HTTPResponder, shards: [Shard], logger: Logger) {
        precondition(!shards.isEmpty, "the programs' streams have at least one shard")
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        self.state = NIOLockedValueBox(State(open: OpenStreams(limit: configuration.maxStreams)))
        let limit =
            configuration.connectionLimit
            ?? Configuration.defaultConnectionLimit(openFiles: Configuration.openFileLimit())
        self.connectionLimit = limit
        let admission = HandoverAdmission(limit: limit)
        self.admission = admission
        self.reaper = ConnectionReaper(
            deadline: configuration.headTimeout, capacity: Configuration.connectionCapacity(limit: limit),
            logger: logger, placeFreed: { admission.release() })
        self.shards = shards
        self.pageSender = StreamSender(name: "fw-send-pages", useIOUring: configuration.writesThroughIOUring)
        self.headTooLarge = PreparedResponse(
            status: 431, body: Array("Request header fields too large\n".utf8),
            headers: [("Content-Type", "text/plain; charset=utf-8")])
    }

    /// The streams a ``StreamSender`` took over since start (from libmicrohttpd, or from the
    /// front door that opened them): the programs' senders' and the pages' own.
    public var streamsHandedOver: (programs: Int, people: Int) {
        (shards.reduce(0) { $0 + ($1.sender?.adoptedCount ?? 0) }, pageSender?.adoptedCount ?? 0)
    }

    private var allSenders: [StreamSender] { shards.compactMap(\.sender) + (pageSender.map { [$0] } ?? []) }

    /// When each stream sender wrote each recent event (`/inspect`'s waterfall).
    var writeMarks: [WriteMarks] { allSenders.map(\.writeMarks) }

    /// Whether every stream sender writes through io_uring.
    public var sendersUseIOUring: Bool { allSenders.allSatisfy(\.usesIOUring) }

    /// The number of SSE streams currently open.
    public var openStreamCount: Int {
        state.withLockedValue { $0.open.count }
    }

    /// The connections held and those waiting for a request now, the front door's and
    /// libmicrohttpd's, and those closed since start: for taking too long to send a request,
    /// to make room for new ones, or for not reading an answer.
    public var connectionCounts: ConnectionCounts {
        var counts = reaper.counts
        let door = frontDoorCounts
        counts.held += door.held
        counts.waiting += door.waiting
        counts.closedStalled = door.closedStalled
        counts.answeredAtDoor = door.answered
        counts.streamsAtDoor = door.streams
        counts.refusedAtLimit = admission.refusedCount
        return counts
    }

    /// Starts listening; returns the bound port (useful with port 0).
    @discardableResult
    public func start() throws(HTTPServerError) -> UInt16 {
        let limit = connectionLimit
        if configuration.maxStreams > Configuration.connectionCapacity(limit: limit) - 256 {
            logger.warning(
                "--max-clients \(configuration.maxStreams) leaves little room for other clients: the open-file limit allows \(limit) connections in all; raise it (LimitNOFILE=, ulimit -n) or lower --max-clients"
            )
        }
        let listener = try ListenSocket.open(configuration.address, backlog: configuration.listenBacklog)
        var loops: [DaemonLoop] = []
        for index in 0..<max(1, configuration.requestThreads) {
            let daemon = startDaemon()
            let loop = daemon.flatMap {
                DaemonLoop(
                    daemon: DaemonHandle(pointer: $0), name: "fw-http-\(index)",
                    refused: { [admission] in admission.release() })
            }
            guard let loop else {
                if let daemon { MHD_stop_daemon(daemon) }
                for loop in loops { MHD_stop_daemon(loop.daemon.pointer) }
                close(listener.fd)
                throw .cannotListen(configuration.address.description)
            }
            loops.append(loop)
        }
        let responder = self.responder
        // One front door per daemon loop, all accepting from the one listener. A door hands
        // its connections to the loops in turn, not to its own: the door that wakes first
        // accepts every connection pending (8 keep-alive clients connecting at once all
        // went to one loop, and its thread served them all while the other core idled).
        var frontDoors: [FrontDoor] = []
        let allLoops = loops
        for index in allLoops.indices {
            let door = FrontDoor(
                name: "fw-door-\(index)", listener: listener, paths: responder.directPaths,
                streamPaths: responder.directStreamPaths, maxHeadBytes: configuration.maxRequestHeadBytes,
                holdLimit: configuration.frontDoorHoldLimit,
                stallLimit: .seconds(Int64(configuration.connectionTimeout)), logger: logger,
                response: { responder.directResponse(forPathAt: $0) },
                openStream: { [weak self] request in self?.directStream(for: request) ?? .elsewhere },
                handOver: { [weak self] handover in
                    guard let self else {
                        _ = close(handover.fd)
                        return
                    }
                    self.handOver(handover, to: allLoops[self.nextLoopIndex(of: allLoops.count)])
                })
            guard let door else {
                for loop in loops { MHD_stop_daemon(loop.daemon.pointer) }
                close(listener.fd)
                throw .cannotListen(configuration.address.description)
            }
            frontDoors.append(door)
        }
        state.withLockedValue {
            $0.loops = loops
            $0.frontDoors = frontDoors
            $0.listener = listener
        }
        for loop in loops { loop.start() }
        reaper.start()
        hangups?.start()
        for sender in allSenders { sender.start() }
        for door in frontDoors { door.start() }
        return listener.port
    }

    /// A libmicrohttpd daemon without a thread or a listening socket of its own: its
    /// ``DaemonLoop`` runs it, on the connections the front door hands over. `nil` when
    /// libmicrohttpd refuses.
    private func startDaemon() -> OpaquePointer? {
        let selfPointer = Unmanaged.passUnretained(self).toOpaque()
        var flags =
            MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ERROR_LOG.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
        if configuration.address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options: [MHD_OptionItem] = [
            // The logger goes first so that no message reaches MHD's own stderr logger.
            MHD_OptionItem(
                option: .EXTERNAL_LOGGER,
                value: Int(bitPattern: unsafeBitCast(daemonLog, to: UnsafeRawPointer.self)), ptr_value: selfPointer),
            // feedweb keeps the limit itself (`admission`): libmicrohttpd's own check
            // can leave it deadlocked.
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: HandoverAdmission.unreachableLimit, ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_TIMEOUT, value: Int(configuration.connectionTimeout), ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
            MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 1, ptr_value: nil),
            MHD_OptionItem(
                option: .UNESCAPE_CALLBACK, value: Int(bitPattern: feedweb_unescape_callback()), ptr_value: nil),
            MHD_OptionItem(
                option: .NOTIFY_COMPLETED,
                value: Int(bitPattern: unsafeBitCast(requestCompleted, to: UnsafeRawPointer.self)),
                ptr_value: selfPointer),
            MHD_OptionItem(
                option: .NOTIFY_CONNECTION,
                value: Int(bitPattern: unsafeBitCast(connectionNotified, to: UnsafeRawPointer.self)),
                ptr_value: selfPointer),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        return feedweb_mhd_start(flags, 0, accessHandler, selfPointer, &options)
    }

    /// What the front doors have done since start, together: requests they answered
    /// themselves, connections they gave libmicrohttpd, clients they closed for not reading.
    var frontDoorCounts: FrontDoor.Counts {
        state.withLockedValue { $0.frontDoors }.reduce(into: FrontDoor.Counts()) { sum, door in
            let counts = door.counts
            sum.answered += counts.answered
            sum.streams += counts.streams
            sum.handedOver += counts.handedOver
            sum.closedStalled += counts.closedStalled
            sum.held += counts.held
            sum.waiting += counts.waiting
        }
    }

    /// Gives a connection from a front door to its daemon's loop; when libmicrohttpd holds
    /// ``connectionLimit`` connections already, first drops the one that has waited longest
    /// for a request (libmicrohttpd may not have reported the newest yet, so the drops for
    /// room it triggers can lag behind a burst); closes the new one instead when none waits
    /// (a loop that has stopped, or libmicrohttpd refusing it, closes it and gives its place
    /// back).
    private func handOver(_ handover: FrontDoor.Handover, to loop: DaemonLoop) {
        guard admission.admit(makingRoomWith: { reaper.makeRoom() }) else {
            close(handover.fd)
            return
        }
        loop.handOver(handover)
    }

    /// Stops the server: no new connections, every stream ended cleanly (or dropped if its
    /// client does not read within `timeout`), then the daemon stopped. Idempotent, and
    /// safe from several threads at once: a call returns once the server has stopped.
    public func stop(timeout: Duration = .milliseconds(1500)) {
        stopping.withLock { stopOnce(timeout: timeout) }
    }

    /// ``stop(timeout:)``'s work, under `stopping`: whoever comes second finds no loop.
    private func stopOnce(timeout: Duration) {
        let (loops, frontDoors, listener, streams) = state.withLockedValue {
            state -> ([DaemonLoop], [FrontDoor], ListenSocket?, [StreamConnection]) in
            defer { state.listener = nil }
            return (state.loops, state.frontDoors, state.listener, state.open.stop())
        }
        guard !loops.isEmpty else { return }
        // No new connection from here on.
        for door in frontDoors { door.stop() }
        if let listener { close(listener.fd) }
        for stream in streams { stream.close() }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var forced = false
        while openStreamCount > 0 {
            if !forced && clock.now > deadline - timeout / 3 {
                // Whoever has not drained by now is not reading: drop them.
                for stream in state.withLockedValue({ Array($0.open.streams.values) }) {
                    _ = stream.dropIfStalled(olderThan: 0, now: MonotonicTime.now())
                }
                forced = true
            }
            if clock.now > deadline { break }
            usleep(2_000)
        }
        // libmicrohttpd must not be stopped with a connection suspended (it aborts), nor
        // touched after: whatever a sender still holds goes back to it now, and a hand-over
        // from a front door that has not stopped yet is closed instead (by its loop, once
        // stopped). A daemon is stopped on this thread once its loop's thread has exited.
        // Neither wait has a bound, because going on early is a crash: both threads were
        // woken for it and end their pass, which never blocks (a pass of `MHD_run` once ran
        // past the 2 s these waits used to allow, among hundreds of tests on two cores, and
        // the daemon was freed under it).
        for sender in allSenders { sender.returnAll() }
        for loop in loops {
            loop.stop()
            MHD_stop_daemon(loop.daemon.pointer)
        }
        for sender in allSenders { sender.stop() }
        hangups?.stop()
        reaper.stop()
        state.withLockedValue {
            $0.loops = []
            $0.frontDoors = []
        }
    }

    // MARK: - Daemon-thread entry points

    fileprivate func handle(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>?,
        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result {
        guard let context else { return MHD_Result.NO }
        if context.pointee == nil {
            // First call, headers only: answering now would cost keep-alive.
            context.pointee = requestMarker
            return MHD_Result.YES
        }
        if let uploadDataSize, uploadDataSize.pointee > 0 {
            uploadDataSize.pointee = 0  // GET and HEAD carry no body we use; discard it.
            return MHD_Result.YES
        }
        // The request has arrived whole: the connection is busy until it is answered.
        if let record = Self.record(of: connection) { reaper.requestArrived(record) }
        if feedweb_mhd_request_head_size(connection) > configuration.maxRequestHeadBytes {
            guard let headTooLarge else { return MHD_Result.NO }
            return MHD_queue_response(connection, headTooLarge.status, headTooLarge.pointer)
        }
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/",
            version: version.map { String(cString: $0) } ?? "",
            queryArguments: Self.fields(of: connection, kind: .GET_ARGUMENT_KIND),
            headers: Self.fields(of: connection, kind: .HEADER_KIND))
        switch responder.respond(to: request) {
        case .prepared(let response):
            return MHD_queue_response(connection, response.status, response.pointer)
        case .preparedAdding(let response, let headers):
            return Self.queue(response, adding: headers, on: connection)
        case .stream(let start):
            let stream = StreamConnection(maxQueuedBytes: start.maxQueuedBytes)
            let daemon = feedweb_mhd_connection_daemon(connection)
            let loop = state.withLockedValue { state in
                state.open.admit(stream) ? state.loops.first { $0.daemon.pointer == daemon } : nil
            }
            guard let loop else {
                return Self.queue(responder.streamRefused(), adding: start.refusalHeaders, on: connection)
            }
            // Programs' streams are spread over the shards in turn; a shard's sender writes its
            // streams, and its broadcasters queue to them. A person's page stream has its own
            // sender and broadcaster, and is handed the first shard, which it does not use.
            let shard = start.audience == .person ? shards[0] : nextShard()
            // Subscribed only once admitted: its first bytes are queued before libmicrohttpd
            // first asks for any.
            let onEnd = start.open(stream, on: shard)
            let fd = feedweb_mhd_connection_fd(connection)
            // An HTTP/1.1 stream is chunked, so a sender can write it once libmicrohttpd has
            // sent the head; an HTTP/1.0 client's close-delimited body stays with it.
            let sender =
                request.version != "HTTP/1.1" ? nil : start.audience == .person ? pageSender : shard.sender
            stream.attach(ConnectionHandle(pointer: connection, loop: loop), socket: fd, sender: sender, onEnd: onEnd)
            if let token = hangups?.watch(stream, fd: fd) { stream.setHangupRegistration(token: token, fd: fd) }
            // Chunked (HTTP/1.1) bodies are filled straight into the connection's send buffer
            // and never use the response's own block, which is calloc'ed per client (its RSS:
            // BENCHMARKS.md, "The server's defaults"). Only an HTTP/1.0 client's
            // close-delimited body goes through the block, in pieces of its size.
            let blockSize = request.version == "HTTP/1.0" ? 4096 : 32
            let readerContext = Unmanaged.passRetained(stream).toOpaque()
            guard
                let response = MHD_create_response_from_callback(
                    UInt64.max, blockSize, streamReader, readerContext, streamReaderFree)
            else {
                Unmanaged<StreamConnection>.fromOpaque(readerContext).release()
                streamFinished(stream)
                return MHD_Result.NO
            }
            for (name, value) in start.headers { MHD_add_response_header(response, name, value) }
            context.pointee = Unmanaged.passRetained(stream).toOpaque()
            let result = MHD_queue_response(connection, UInt32(MHD_HTTP_OK), response)
            MHD_destroy_response(response)
            return result
        }
    }

    /// Queues the shared `response` on `connection`, with `headers` of this request's own
    /// after its own when there are any (in a libmicrohttpd response of the request's,
    /// sharing the body: ``PreparedResponse/response(adding:)``).
    private static func queue(
        _ response: PreparedResponse, adding headers: [(String, String)], on connection: OpaquePointer
    ) -> MHD_Result {
        guard !headers.isEmpty else { return MHD_queue_response(connection, response.status, response.pointer) }
        guard let own = response.response(adding: headers) else { return MHD_Result.NO }
        let result = MHD_queue_response(connection, response.status, own)
        MHD_destroy_response(own)
        return result
    }

    /// The index of the loop, of `count`, that the next connection handed over goes to.
    private func nextLoopIndex(of count: Int) -> Int {
        nextLoop.withLockedValue { next in
            defer { next = (next + 1) % max(1, count) }
            return next % max(1, count)
        }
    }

    /// The shard of the next programs' stream, round robin.
    func nextShard() -> Shard {
        let index = nextShardIndex.withLockedValue { next in
            defer { next = (next + 1) % shards.count }
            return next
        }
        return shards[index]
    }

    /// Takes a connection place for a socket the server holds itself (a direct stream),
    /// making room as for a hand-over (a connection still waiting for its request may be
    /// dropped); `false` when every place is taken. The reaper counts it among the
    /// connections it may have to make room beside.
    func takeConnectionPlace() -> Bool {
        guard admission.admit(makingRoomWith: { reaper.makeRoom() }) else { return false }
        reaper.streamOpenedElsewhere()
        return true
    }

    /// Gives back a place ``takeConnectionPlace()`` took (its socket is closed).
    func releaseConnectionPlace() {
        reaper.streamClosedElsewhere()
        admission.release()
    }

    /// Admits `stream` among the open streams; `false` at the limit or stopping.
    func admit(_ stream: StreamConnection) -> Bool {
        state.withLockedValue { $0.open.admit(stream) }
    }

    /// Forgets a stream admitted and never opened.
    func forgetStream(_ stream: StreamConnection) {
        state.withLockedValue { $0.open.remove(stream) }
    }

    /// A stream's request is complete: its bindings are undone, its place freed, its
    /// `onEnd` run. Before its socket is closed (by libmicrohttpd, or for a direct stream
    /// by ``endDirectStream(_:socket:clean:)``), so its number cannot have been reused.
    func streamFinished(_ stream: StreamConnection) {
        let (onEnd, hangup) = stream.finish()
        if let hangup { hangups?.unwatch(token: hangup.token, fd: hangup.fd) }
        state.withLockedValue { $0.open.remove(stream) }
        onEnd?()
    }

    /// The reaper's record of `connection`, kept in its socket context.
    fileprivate static func record(of connection: OpaquePointer) -> ConnectionReaper.Connection? {
        guard let pointer = feedweb_mhd_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionReaper.Connection>.fromOpaque(pointer).takeUnretainedValue()
    }

    fileprivate func connectionStarted(_ connection: OpaquePointer) -> ConnectionReaper.Connection {
        reaper.connectionStarted(fd: feedweb_mhd_connection_fd(connection))
    }

    /// libmicrohttpd closed a connection (`record`: the reaper's, if it reported the start):
    /// its place is free, unless the reaper freed it when it dropped the connection.
    fileprivate func connectionClosed(_ record: ConnectionReaper.Connection?) {
        let freedAtDrop = record.map { reaper.connectionClosed($0) } ?? false
        if !freedAtDrop { admission.release() }
    }

    fileprivate func requestAnswered(_ connection: OpaquePointer) {
        if let record = Self.record(of: connection) { reaper.requestAnswered(record) }
    }

    /// The fields of `kind` (headers or decoded query arguments) of the request on
    /// `connection`, in the order received; a query argument without a value is `""`.
    private static func fields(of connection: OpaquePointer, kind: MHD_ValueKind) -> [HTTPRequest.Field] {
        var fields: [HTTPRequest.Field] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(connection, kind, collectField, pointer)
        }
        return fields
    }

    fileprivate func log(_ message: String) {
        logger.debug("libmicrohttpd: \(message)")
    }
}

/// `*con_cls` for a plain request after its first call: any non-nil address that is never
/// dereferenced.
private nonisolated(unsafe) let requestMarker = UnsafeMutableRawPointer(bitPattern: 1)

private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, version, _, uploadDataSize, context in
    guard let cls, let connection else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(
        connection: connection, url: url, method: method, version: version,
        uploadDataSize: uploadDataSize, context: context)
}

/// Appends one request field to the `[HTTPRequest.Field]` that `cls` points to.
private let collectField: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls else { return MHD_Result.NO }
    func text(_ bytes: UnsafePointer<CChar>?, _ count: Int) -> String {
        guard let bytes else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    cls.assumingMemoryBound(to: [HTTPRequest.Field].self).pointee.append(
        HTTPRequest.Field(name: text(key, keySize), value: text(value, valueSize)))
    return MHD_Result.YES
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, context, _ in
    guard let cls else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if let context, let pointer = context.pointee, pointer != requestMarker {
        context.pointee = nil
        let stream = Unmanaged<StreamConnection>.fromOpaque(pointer).takeRetainedValue()
        server.streamFinished(stream)
    }
    // A keep-alive connection now owes the next request.
    if let connection { server.requestAnswered(connection) }
}

/// A connection starts (its record goes into its socket context) or closes (before
/// libmicrohttpd closes its socket).
private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let connection, let socketContext else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        socketContext.pointee = Unmanaged.passRetained(server.connectionStarted(connection)).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        let record = socketContext.pointee.map {
            Unmanaged<ConnectionReaper.Connection>.fromOpaque($0).takeRetainedValue()
        }
        socketContext.pointee = nil
        server.connectionClosed(record)
    }
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
    return Unmanaged<StreamConnection>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

private let streamReaderFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamConnection>.fromOpaque(cls).release()
}

private let daemonLog: MHD_LogCallback = { cls, format, arguments in
    guard let cls, let format, let arguments else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard server.logger.logLevel <= .debug else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = feedweb_format_log(&buffer, buffer.count, format, arguments)
    let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    server.log(message.trimmingSuffixNewlines())
}

extension String {
    fileprivate func trimmingSuffixNewlines() -> String {
        var result = self
        while result.hasSuffix("\n") { result.removeLast() }
        return result
    }
}
