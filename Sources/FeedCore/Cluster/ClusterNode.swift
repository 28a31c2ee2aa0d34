import Foundation
import Logging
import NIOConcurrencyHelpers

/// One feedweb of a cluster (`--cluster`): follows the shared log into the ``FeedStore``
/// every client is served from, and campaigns for the lead; while it leads, it is the only
/// node subscribed upstream, and appends each accepted change to the log.
///
/// Two loops run side by side:
/// - **The reader** (every node, the leader too): a session that is told of new rows,
///   reads the log's head, and applies the rows after the last one applied, in order,
///   with their ids and bytes (``FeedStore/adopt(_:)``); a new node, or one that fell
///   behind the trimmed log, starts from a checkpoint. The decisions are ``LogFollower``'s.
///   A lost session is reopened (with backoff) and reading goes on from the last row
///   applied, so notifications lost meanwhile lose nothing.
/// - **The candidate**: a session that tries to take the lead every
///   ``Configuration/campaignInterval``, and ends the session of a leader whose heartbeat
///   is older than ``Configuration/leaseTimeout`` (a stopped or wedged process keeps its
///   session open). Holding the lead, it waits for its reader to reach the head it took
///   over (``ClusterTakeover``), subscribes upstream into a store of its own that starts
///   from that state, resuming after the stored position, and appends that store's changes
///   (``AppendQueue``) fenced by its term, while a heartbeat says it is alive (and writes
///   checkpoints and trims the log, ``ClusterRetention``). The first refused append or
///   heartbeat, or any failure of the session, ends the lead: upstream is closed, the
///   session ends, and campaigning starts over.
///
/// The leader never publishes its own changes directly: its clients get them from its
/// reader like everyone else's, so every node sends the same ids and bytes.
///
/// The node is the application's ``UpstreamSource``: what it publishes as upstream events
/// is the cluster's health as this node sees it (``ClusterHealth``; the badge, `/readyz`
/// and `/metrics` read it as they read a single feedweb's upstream), the rows applied as
/// handled events, and a leader change (``UpstreamEvent/leaderChanged(node:term:)``).
///
/// The lock guards `State` only: decided under it, acted on (events published, the store
/// written, the log called) after it is released. No other lock is taken while it is held.
public final class ClusterNode: UpstreamSource {
    /// Names and timings; each default set here once.
    public struct Configuration: Sendable {
        /// This node's name in the log, `/readyz` and the logs.
        public var node: String
        /// Changes each node keeps for resuming clients (`--history`): how far back a
        /// starting node goes, and what the log keeps.
        public var history: Int
        /// A leader whose heartbeat is older than this is ended by a candidate.
        public var leaseTimeout: Duration = .seconds(5)
        /// Between two heartbeats of the leader.
        public var heartbeatInterval: Duration = .seconds(1)
        /// Between two attempts of a candidate to take the lead.
        public var campaignInterval: Duration = .milliseconds(500)
        /// The longest a reader waits for a notification before it reads the head anyway.
        public var pollInterval: Duration = .seconds(1)
        /// The longest a new leader waits for its reader to reach the head.
        public var catchUpTimeout: Duration = .seconds(10)
        /// Between reconnects to the database, doubling up to ``maxBackoff``.
        public var retryInterval: Duration = .milliseconds(250)
        public var maxBackoff: Duration = .seconds(2)
        /// Rows read per query.
        public var readBatch = 500
        /// Changes between two checkpoints (`nil`: half the history, at least 100).
        public var checkpointInterval: Int?

        public init(node: String, history: Int) {
            self.node = node
            self.history = history
        }
    }

    public let configuration: Configuration
    public let statusPublisher: UpstreamStatusPublisher
    private let store: FeedStore
    private let log: any ClusterLog
    private let makeUpstream: @Sendable (FeedStore) throws -> any ClusterUpstream
    private let logger: Logger
    private let retention: ClusterRetention
    private let state = NIOLockedValueBox(State())

    private struct State: Sendable {
        var follower = LogFollower()
        /// The follower's last step (for the health: rewound, lost).
        var lastStep: LogFollower.Step?
        var head: ClusterHead?
        var readerConnected = false
        var readerError: String?
        /// The term this node leads in (`nil`: it does not lead).
        var leading: UInt64?
        /// The leader's own upstream status, while it leads.
        var ownUpstream: UpstreamStatus?
        /// The health last published (`.some(nil)`: live).
        var publishedProblem: String??
        var takeovers: UInt64 = 0
        /// The newest checkpoint this node knows of in the log's epoch.
        var latestCheckpoint: (epoch: String, seq: UInt64)?
    }

    /// - Parameters:
    ///   - store: the store every client is served from; only the reader writes it.
    ///   - makeUpstream: the leader's upstream subscription feeding the given store (a new
    ///     one each time this node takes the lead).
    ///   - source: the name the status shows.
    public init(
        configuration: Configuration, store: FeedStore, log: any ClusterLog, source: String, logger: Logger,
        makeUpstream: @escaping @Sendable (FeedStore) throws -> any ClusterUpstream
    ) {
        self.configuration = configuration
        self.store = store
        self.log = log
        self.makeUpstream = makeUpstream
        self.logger = logger
        self.retention = ClusterRetention(
            history: configuration.history, checkpointInterval: configuration.checkpointInterval)
        self.statusPublisher = UpstreamStatusPublisher(source: source)
    }

    /// What this node knows of the cluster now.
    public var clusterStatus: ClusterStatus {
        state.withLockedValue { state in
            ClusterStatus(
                role: state.leading == nil ? .follower : .leader, node: configuration.node,
                term: state.leading ?? state.head?.term ?? 0, epoch: state.head?.epoch,
                head: state.head?.headSeq ?? 0, applied: state.follower.applied,
                databaseConnected: state.readerConnected, leader: state.head?.leaderNode, takeovers: state.takeovers)
        }
    }

    /// Follows the log and campaigns until the task is cancelled; then leaves the lead (if
    /// it held it) and publishes ``UpstreamEvent/stopped``.
    public func run() async {
        statusPublisher.publish(.connecting)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.readLoop() }
            group.addTask { await self.campaignLoop() }
            await group.waitForAll()
        }
        statusPublisher.publish(.stopped)
    }

    // MARK: - Reading

    private func readLoop() async {
        var policy = ReconnectPolicy(retryInterval: configuration.retryInterval, maxBackoff: configuration.maxBackoff)
        while !Task.isCancelled {
            let reader: any ClusterLogReader
            do {
                reader = try await log.connectReader()
            } catch {
                readerFailed(error)
                try? await Task.sleep(for: policy.nextDelay(random: .random(in: 0..<1)))
                continue
            }
            policy.reset()
            state.withLockedValue {
                $0.readerConnected = true
                $0.readerError = nil
            }
            logger.info("cluster: reading the log")
            do {
                while !Task.isCancelled {
                    try await catchUp(reader)
                    updateHealth()
                    try await reader.waitForChange(within: configuration.pollInterval)
                }
            } catch {
                if !Task.isCancelled { readerFailed(error) }
            }
            await reader.close()
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: policy.nextDelay(random: .random(in: 0..<1)))
        }
    }

    private func readerFailed(_ error: ClusterLogError) {
        let first = state.withLockedValue { state -> Bool in
            defer {
                state.readerConnected = false
                state.readerError = error.description
            }
            return state.readerConnected || state.readerError != error.description
        }
        if first { logger.warning("cluster: \(error); reconnecting") }
        updateHealth()
    }

    /// Reads and applies until this node has everything up to the head it read last (at
    /// most 100 reads; the reader's next wake-up goes on from there).
    private func catchUp(_ reader: any ClusterLogReader) async throws(ClusterLogError) {
        for _ in 0..<100 where !Task.isCancelled {
            let head = try await reader.head()
            let (step, leaderChange) = state.withLockedValue { state -> (LogFollower.Step, ClusterHead?) in
                let previous = state.head
                state.head = head
                let step = state.follower.next(head: head, history: configuration.history)
                state.lastStep = step
                let changed = previous.map { $0.term != head.term && head.term > 0 } ?? false
                return (step, changed ? head : nil)
            }
            if let leaderChange {
                logger.notice("cluster: \(leaderChange.leaderNode ?? "a node") leads now (term \(leaderChange.term))")
                statusPublisher.publish(.leaderChanged(node: leaderChange.leaderNode ?? "?", term: leaderChange.term))
            }
            switch step {
            case .upToDate, .rewound, .lost:
                return
            case .read(let epoch, let after):
                let rows = try await reader.entries(epoch: epoch, after: after, limit: configuration.readBatch)
                apply(rows, epoch: epoch)
                let again = state.withLockedValue { $0.follower.next(head: head, history: configuration.history) }
                switch again {
                case .upToDate, .rewound, .lost: return
                case .read: if rows.isEmpty { return }  // the head said more, the rows did not (yet)
                case .startOver: continue
                }
            case .startOver(let epoch, let target):
                let checkpoint = try await reader.checkpoint(epoch: epoch, atOrBefore: target)
                if let checkpoint, checkpoint.seq <= target {
                    startOver(at: checkpoint)
                    continue
                }
                // A checkpoint past the target (a young epoch has none that old yet) would
                // leave this node fewer changes for its resuming clients than `history`.
                // While the log still has the epoch's first row, replaying from it is no
                // longer (rows are trimmed only once a checkpoint is that old) and keeps them.
                let first = try await reader.entries(epoch: epoch, after: 0, limit: 1).first
                if let checkpoint, first?.seq != 1 {
                    startOver(at: checkpoint)
                    continue
                }
                let canGoOn = state.withLockedValue {
                    $0.follower.startWithoutCheckpoint(epoch: epoch, head: head.headSeq, firstRow: first?.seq)
                }
                if !canGoOn {
                    logger.error(
                        "cluster: the log of epoch \(epoch) has no checkpoint and no first row; waiting for a new epoch"
                    )
                    return
                }
            }
        }
    }

    /// Applies, in order, the rows of `rows` the follower takes (a gap or a row the store
    /// refuses stops it; the next step then starts over).
    private func apply(_ rows: [ClusterLogEntry], epoch: String) {
        let taken = state.withLockedValue { $0.follower.take(rows, epoch: epoch) }
        var bytes = 0
        var changes = 0
        for row in taken {
            do {
                try store.adopt(try row.publishedChange(epoch: epoch))
            } catch {
                logger.error("cluster: cannot apply row \(row.seq) of epoch \(epoch): \(error); starting over")
                state.withLockedValue { $0.follower.failed() }
                break
            }
            state.withLockedValue { $0.follower.applied(row, epoch: epoch) }
            bytes += row.body.count
            changes += row.changes
        }
        guard changes > 0 else { return }
        // The leader counts the bytes its upstream sent; a follower, the rows it read.
        if !isLeading { statusPublisher.publish(.received(bytes: UInt64(bytes))) }
        statusPublisher.publish(.eventHandled(count: changes, at: Date()))
    }

    /// Starts this node over from `checkpoint` (a fresh `data` for its clients).
    private func startOver(at checkpoint: ClusterCheckpoint) {
        do {
            let document = try JSONValue(parsing: checkpoint.document)
            try store.adopt(
                PublishedChange(
                    id: EventID(epoch: checkpoint.epoch, seq: checkpoint.seq),
                    body: .document(document, encoded: checkpoint.document)))
            state.withLockedValue {
                $0.follower.start(at: checkpoint)
                $0.latestCheckpoint = (checkpoint.epoch, checkpoint.seq)
            }
            logger.info("cluster: started from the checkpoint at \(checkpoint.epoch)-\(checkpoint.seq)")
        } catch {
            logger.error("cluster: the checkpoint at \(checkpoint.epoch)-\(checkpoint.seq) is unreadable: \(error)")
            state.withLockedValue { $0.follower.failed() }
        }
    }

    private var isLeading: Bool {
        state.withLockedValue { $0.leading != nil }
    }

    // MARK: - Campaigning and leading

    private func campaignLoop() async {
        var policy = ReconnectPolicy(retryInterval: configuration.retryInterval, maxBackoff: configuration.maxBackoff)
        while !Task.isCancelled {
            let session: any ClusterLogLeader
            do {
                session = try await log.connectLeader(node: configuration.node)
            } catch {
                logger.debug("cluster: cannot campaign: \(error)")
                try? await Task.sleep(for: policy.nextDelay(random: .random(in: 0..<1)))
                continue
            }
            policy.reset()
            await campaign(on: session)
            await session.close()
        }
    }

    /// Campaigns on `session` until it fails or a lead on it ends.
    private func campaign(on session: any ClusterLogLeader) async {
        while !Task.isCancelled {
            do {
                if let lease = try await session.acquire(node: configuration.node) {
                    await lead(session, lease: lease)
                    // The session ends with the lead; a new one campaigns after a pause, so
                    // a node that was just fenced does not take the lead straight back.
                    try? await Task.sleep(for: configuration.campaignInterval * 2)
                    return
                }
                if try await session.terminateStaleLeader(olderThan: configuration.leaseTimeout) {
                    logger.warning(
                        "cluster: the leader's heartbeat is older than \(configuration.leaseTimeout); ended its session"
                    )
                    try? await Task.sleep(for: .milliseconds(50))
                    continue
                }
            } catch {
                logger.debug("cluster: campaigning failed: \(error)")
                return
            }
            try? await Task.sleep(for: configuration.campaignInterval)
        }
    }

    /// Leads on `session` from `lease` until the lead ends (a refused write, a failed
    /// session, cancellation).
    private func lead(_ session: any ClusterLogLeader, lease taken: ClusterLease) async {
        logger.notice("cluster: \(configuration.node) takes the lead (term \(taken.term))")
        state.withLockedValue {
            $0.leading = taken.term
            $0.ownUpstream = nil
            $0.takeovers += 1
        }
        updateHealth()
        defer {
            state.withLockedValue {
                $0.leading = nil
                $0.ownUpstream = nil
            }
            updateHealth()
        }
        do {
            guard let start = try await takeOver(session, lease: taken) else {
                logger.warning("cluster: did not reach the head of the log in time; leaving the lead")
                return
            }
            try await leadUpstream(session, lease: start.lease, resumeFrom: start.resumeFrom)
        } catch {
            if !Task.isCancelled { logger.warning("cluster: leaving the lead: \(error)") }
        }
    }

    /// Waits for the reader to reach the lease's head and carries out the
    /// ``ClusterTakeover`` decision; returns the lease to lead on and the upstream position
    /// to resume from, or `nil` when the reader did not get there in time.
    private func takeOver(
        _ session: any ClusterLogLeader, lease taken: ClusterLease
    ) async throws(ClusterLogError) -> (lease: ClusterLease, resumeFrom: String?)? {
        let deadline = ContinuousClock.now + configuration.catchUpTimeout
        while true {
            let decision = state.withLockedValue { state in
                ClusterTakeover.decide(
                    lease: taken, follower: state.follower, followerLost: state.lastStep == .lost)
            }
            switch decision {
            case .lead:
                return (taken, taken.upstreamPosition)
            case .startEpoch(let newEpoch):
                var lease = taken
                if newEpoch {
                    let epoch = EventID.randomEpoch()
                    logger.warning(
                        "cluster: the log of epoch \(taken.epoch) was lost or rewound; starting epoch \(epoch)")
                    lease = try await session.startEpoch(epoch, lease: taken)
                }
                if let snapshot = store.snapshot {
                    // This node's state becomes the epoch's first row: clients everywhere
                    // get a fresh `data` of it, and upstream's next document is diffed
                    // against it.
                    let seed = ClusterLogEntry(seq: lease.headSeq + 1, kind: .data, body: snapshot.encodedDocument)
                    try await session.append([seed], lease: lease)
                    lease.headSeq += 1
                    logger.notice("cluster: epoch \(lease.epoch) starts from this node's last document")
                }
                return (lease, nil)
            case .wait:
                guard ContinuousClock.now < deadline, !Task.isCancelled else { return nil }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Runs upstream into a store of its own that starts from the state at `lease`'s head,
    /// and appends its changes, with the heartbeat, until one of them fails.
    private func leadUpstream(
        _ session: any ClusterLogLeader, lease: ClusterLease, resumeFrom: String?
    ) async throws(ClusterLogError) {
        let upstreamStore = FeedStore(configuration: store.configuration, epoch: lease.epoch)
        if let snapshot = store.snapshot, lease.headSeq > 0 {
            upstreamStore.restore(document: snapshot.document, seq: lease.headSeq, epoch: lease.epoch)
        }
        let queue = AppendQueue()
        upstreamStore.observe { change in queue.add(change) }
        let upstream: any ClusterUpstream
        do {
            upstream = try makeUpstream(upstreamStore)
        } catch {
            throw .failed("cannot subscribe upstream: \(error)")
        }
        upstream.resume(from: resumeFrom)
        upstream.observe { [weak self] event, status in self?.upstreamEventOccurred(event, status: status) }
        logger.info(
            "cluster: subscribing upstream from \(lease.epoch)-\(lease.headSeq)\(resumeFrom == nil ? "" : " (resuming)")"
        )
        let result = await withTaskGroup(of: ClusterLogError?.self) { group -> ClusterLogError? in
            group.addTask {
                await upstream.run()
                return nil
            }
            group.addTask {
                do throws(ClusterLogError) {
                    try await self.appendLoop(session, lease: lease, queue: queue)
                    return nil
                } catch {
                    return error
                }
            }
            group.addTask {
                do throws(ClusterLogError) {
                    try await self.heartbeatLoop(session, lease: lease)
                    return nil
                } catch {
                    return error
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            queue.finish()
            return first
        }
        if let result { throw result }
    }

    /// Appends what `queue` holds, batch by batch, after `lease`'s head.
    private func appendLoop(
        _ session: any ClusterLogLeader, lease: ClusterLease, queue: AppendQueue
    ) async throws(ClusterLogError) {
        var lease = lease
        while let batch = await queue.take() {
            guard !Task.isCancelled else { return }
            let entries = batch.enumerated().map { offset, pending in
                pending.entry(seq: lease.headSeq + 1 + UInt64(offset))
            }
            try await session.append(entries, lease: lease)
            lease.headSeq += UInt64(entries.count)
        }
    }

    /// Beats every ``Configuration/heartbeatInterval``; writes a checkpoint when one is due
    /// and trims the log.
    private func heartbeatLoop(_ session: any ClusterLogLeader, lease: ClusterLease) async throws(ClusterLogError) {
        while !Task.isCancelled {
            let upstream = state.withLockedValue { $0.ownUpstream.map(Self.phaseWord) ?? "connecting" }
            try await session.heartbeat(lease: lease, upstream: upstream)
            try await maintainCheckpoints(session, epoch: lease.epoch)
            do {
                try await Task.sleep(for: configuration.heartbeatInterval)
            } catch {
                return
            }
        }
    }

    /// Writes a checkpoint of this node's state when one is due, then trims the log.
    private func maintainCheckpoints(_ session: any ClusterLogLeader, epoch: String) async throws(ClusterLogError) {
        guard let snapshot = store.snapshot, snapshot.id.epoch == epoch else { return }
        let latest = state.withLockedValue { state -> UInt64?? in
            guard let known = state.latestCheckpoint else { return .none }
            return known.epoch == epoch ? .some(known.seq) : .none
        }
        let latestSeq: UInt64?
        if let latest {
            latestSeq = latest
        } else {
            latestSeq = try await session.checkpoints(epoch: epoch).max()
        }
        guard retention.checkpointDue(applied: snapshot.id.seq, latest: latestSeq) else {
            state.withLockedValue { $0.latestCheckpoint = latestSeq.map { (epoch, $0) } }
            return
        }
        try await session.writeCheckpoint(
            ClusterCheckpoint(epoch: epoch, seq: snapshot.id.seq, document: snapshot.encodedDocument))
        state.withLockedValue { $0.latestCheckpoint = (epoch, snapshot.id.seq) }
        logger.debug("cluster: checkpoint at \(epoch)-\(snapshot.id.seq)")
        let checkpoints = try await session.checkpoints(epoch: epoch)
        if let trim = retention.trim(head: snapshot.id.seq, checkpoints: checkpoints) {
            try await session.trim(
                epoch: epoch, rowsThrough: trim.rowsThrough, checkpointsBefore: trim.checkpointsBefore)
        }
    }

    /// The leader's own upstream reports: its counters go to this node's status, its
    /// phase into the health.
    private func upstreamEventOccurred(_ event: UpstreamEvent, status: UpstreamStatus) {
        let leading = state.withLockedValue { state -> Bool in
            guard state.leading != nil else { return false }
            state.ownUpstream = status
            return true
        }
        guard leading else { return }
        // Its phase (and so its reconnects) is published through the health; its handled
        // events are counted as every node counts them, when the rows are applied. Its
        // answers (`/inspect`'s exchanges on the leader) go through as they are.
        switch event {
        case .received, .rejected, .upstreamError, .ignored, .answered, .polled:
            statusPublisher.publish(event)
        case .connecting, .reconnecting, .opened, .eventHandled, .backingOff, .stoppedByUpstream, .stopped,
            .leaderChanged:
            break
        }
        updateHealth()
    }

    /// Publishes the health when it changed: `opened` when the feed became live here,
    /// `backingOff` with the reason when it stopped being live (or the reason changed).
    private func updateHealth() {
        let now = Date()
        let change = state.withLockedValue { state -> (problem: String?, wasLive: Bool?)? in
            let facts = ClusterHealth.Facts(
                readerConnected: state.readerConnected, readerError: state.readerError,
                isLeader: state.leading != nil, ownUpstream: state.ownUpstream, head: state.head,
                follower: state.lastStep, leaseTimeout: configuration.leaseTimeout)
            let problem = ClusterHealth.problem(facts)
            if let published = state.publishedProblem, published == problem { return nil }
            let wasLive = state.publishedProblem.map { $0 == nil }
            state.publishedProblem = .some(problem)
            return (problem, wasLive)
        }
        guard let change else { return }
        if let problem = change.problem {
            statusPublisher.publish(
                .backingOff(until: now + configuration.pollInterval.timeInterval, error: problem, at: now))
        } else {
            if change.wasLive == false { statusPublisher.publish(.reconnecting(reason: nil)) }
            statusPublisher.publish(.opened(at: now))
        }
    }

    /// The words the heartbeat carries for an upstream status's phase (as `/readyz` says it).
    static func phaseWord(_ status: UpstreamStatus) -> String {
        switch status.phase {
        case .idle: return "idle"
        case .connecting: return "connecting"
        case .open: return "open"
        case .backingOff: return "backing-off"
        case .stoppedByUpstream: return "stopped-by-upstream"
        case .stopped: return "stopped"
        }
    }
}
