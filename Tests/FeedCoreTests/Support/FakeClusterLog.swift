import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// The cluster log in memory, with PostgreSQL's guarantees as ``ClusterLog`` states them
/// (one lock holder; the term bump with the lock; appends and heartbeats fenced by term,
/// epoch and head; all or nothing), and the failures the tests need: a session ended
/// (a killed process, `pg_terminate_backend`), a node frozen (SIGSTOP: its calls never
/// return until its session is ended), the database down, the log wiped or rewound.
///
/// Heartbeat ages are real time. The lock guards `State` only; waiters are resumed after
/// it is released.
final class FakeClusterLog: ClusterLog {
    struct Meta: Sendable, Equatable {
        var epoch: String
        var term: UInt64 = 0
        var headSeq: UInt64 = 0
        var upstreamPosition: String?
        var leaderNode: String?
        var leaderSession: Int?
        var leaderBeat: ContinuousClock.Instant?
        var leaderUpstream: String?
    }

    fileprivate struct State {
        var meta: Meta? = Meta(epoch: EventID.randomEpoch())
        var rows: [String: [UInt64: ClusterLogEntry]] = [:]
        var checkpoints: [String: [UInt64: [UInt8]]] = [:]
        var lockHolder: Int?
        var nextSession = 0
        /// Live sessions and the node they belong to (`nil`: a reader).
        var sessions: [Int: String?] = [:]
        var frozenNodes: Set<String> = []
        var down = false
        var readerWakes: [Int: FakeWake] = [:]
        var appends = 0
        var refusedAppends = 0
    }

    private let state = NIOLockedValueBox(State())

    // MARK: - What the tests look at

    var meta: Meta? { state.withLockedValue { $0.meta } }

    /// The rows of `epoch` in order.
    func rows(epoch: String) -> [ClusterLogEntry] {
        state.withLockedValue { ($0.rows[epoch] ?? [:]).values.sorted { $0.seq < $1.seq } }
    }

    func checkpointSeqs(epoch: String) -> [UInt64] {
        state.withLockedValue { ($0.checkpoints[epoch] ?? [:]).keys.sorted() }
    }

    /// Forgets the checkpoints of `epoch` before `seq`, as if the leader had written its
    /// first one only there (a busy leader's first heartbeat comes late).
    func dropCheckpoints(epoch: String, before seq: UInt64) {
        state.withLockedValue { state in
            state.checkpoints[epoch] = state.checkpoints[epoch]?.filter { $0.key >= seq }
        }
    }

    /// Appends refused by the fence so far.
    var refusedAppends: Int { state.withLockedValue { $0.refusedAppends } }

    // MARK: - Failures

    /// Ends every session of `node` (its leader session: the lock is released).
    func endSessions(of node: String) {
        state.withLockedValue { state in
            for (id, owner) in state.sessions where owner == node { end(id, &state) }
            state.frozenNodes.remove(node)
        }
        wakeAll()
    }

    /// `node`'s leader session stops answering (its process is stopped): every call it
    /// makes waits until its session is ended.
    func freeze(_ node: String) {
        state.withLockedValue { _ = $0.frozenNodes.insert(node) }
    }

    /// `node` runs again (SIGCONT): its calls go on, on whatever sessions are left.
    func thaw(_ node: String) {
        state.withLockedValue { _ = $0.frozenNodes.remove(node) }
    }

    /// The database goes down (every session ends, nobody can connect) or comes back.
    func setDown(_ down: Bool) {
        state.withLockedValue { state in
            state.down = down
            if down { for id in Array(state.sessions.keys) { end(id, &state) } }
        }
        wakeAll()
    }

    /// Ends every reader session (as `pg_terminate_backend` of the readers would).
    func endReaders() {
        state.withLockedValue { state in
            for (id, owner) in state.sessions where owner == nil { end(id, &state) }
        }
        wakeAll()
    }

    /// Everything is lost: the next look finds a new log (a new epoch, no rows).
    func wipe() {
        state.withLockedValue { state in
            state.meta = nil
            state.rows = [:]
            state.checkpoints = [:]
        }
        wakeAll()
    }

    /// The log loses its rows after `seq` (a restore from an older backup).
    func rewind(to seq: UInt64) {
        state.withLockedValue { state in
            guard var meta = state.meta else { return }
            meta.headSeq = seq
            state.rows[meta.epoch] = state.rows[meta.epoch]?.filter { $0.key <= seq }
            state.checkpoints[meta.epoch] = state.checkpoints[meta.epoch]?.filter { $0.key <= seq }
            state.meta = meta
        }
        wakeAll()
    }

    private func end(_ id: Int, _ state: inout State) {
        state.sessions[id] = nil
        if state.lockHolder == id { state.lockHolder = nil }
        state.readerWakes[id]?.signal()
        state.readerWakes[id] = nil
    }

    private func wakeAll() {
        let wakes = state.withLockedValue { Array($0.readerWakes.values) }
        for wake in wakes { wake.signal() }
    }

    // MARK: - ClusterLog

    func connectReader() async throws(ClusterLogError) -> any ClusterLogReader {
        let opened = state.withLockedValue { state -> (id: Int, wake: FakeWake)? in
            guard !state.down else { return nil }
            state.nextSession += 1
            state.sessions[state.nextSession] = .some(nil)
            let wake = FakeWake()
            state.readerWakes[state.nextSession] = wake
            return (state.nextSession, wake)
        }
        guard let opened else { throw .unreachable("the fake database is down") }
        return FakeReader(log: self, id: opened.id, wake: opened.wake)
    }

    func connectLeader(node: String) async throws(ClusterLogError) -> any ClusterLogLeader {
        let id = state.withLockedValue { state -> Int? in
            guard !state.down else { return nil }
            state.nextSession += 1
            state.sessions[state.nextSession] = node
            return state.nextSession
        }
        guard let id else { throw .unreachable("the fake database is down") }
        return FakeLeader(log: self, id: id, node: node)
    }

    /// Runs `body` for session `id` (of `node`, if a leader session): throws when the
    /// session has ended; waits while its node is frozen (until the session ends).
    fileprivate func call<T>(
        _ id: Int, node: String?, _ body: (inout State) throws(ClusterLogError) -> T
    ) async throws(ClusterLogError) -> T {
        while true {
            let frozen = state.withLockedValue { state -> Bool in
                guard state.sessions[id] != nil else { return false }
                return node.map { state.frozenNodes.contains($0) } ?? false
            }
            guard frozen else { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        let result = state.withLockedValue { state -> Result<T, ClusterLogError> in
            guard state.sessions[id] != nil, !state.down else { return .failure(.unreachable("the session ended")) }
            if state.meta == nil { state.meta = Meta(epoch: EventID.randomEpoch()) }
            do throws(ClusterLogError) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    fileprivate func notifyReaders() {
        wakeAll()
    }

    fileprivate func close(_ id: Int) {
        state.withLockedValue { end(id, &$0) }
    }

    // MARK: - Sessions

    private final class FakeReader: ClusterLogReader {
        let log: FakeClusterLog
        let id: Int
        let wake: FakeWake

        init(log: FakeClusterLog, id: Int, wake: FakeWake) {
            self.log = log
            self.id = id
            self.wake = wake
        }

        func head() async throws(ClusterLogError) -> ClusterHead {
            try await log.call(id, node: nil) { state throws(ClusterLogError) in
                guard let meta = state.meta else { throw .corrupt("no meta") }
                return ClusterHead(
                    epoch: meta.epoch, term: meta.term, headSeq: meta.headSeq, leaderNode: meta.leaderNode,
                    leaderBeatAge: meta.leaderBeat.map { ContinuousClock.now - $0 }, leaderUpstream: meta.leaderUpstream
                )
            }
        }

        func entries(epoch: String, after seq: UInt64, limit: Int) async throws(ClusterLogError) -> [ClusterLogEntry] {
            try await log.call(id, node: nil) { state in
                Array(
                    (state.rows[epoch] ?? [:]).values.filter { $0.seq > seq }.sorted { $0.seq < $1.seq }.prefix(limit))
            }
        }

        func checkpoint(epoch: String, atOrBefore seq: UInt64) async throws(ClusterLogError) -> ClusterCheckpoint? {
            try await log.call(id, node: nil) { state in
                let all = state.checkpoints[epoch] ?? [:]
                guard let chosen = all.keys.filter({ $0 <= seq }).max() ?? all.keys.min(), let document = all[chosen]
                else { return nil }
                return ClusterCheckpoint(epoch: epoch, seq: chosen, document: document)
            }
        }

        func waitForChange(within timeout: Duration) async throws(ClusterLogError) {
            await wake.wait(within: timeout)
            try await log.call(id, node: nil) { _ in }
        }

        func close() async {
            log.close(id)
        }
    }

    private final class FakeLeader: ClusterLogLeader {
        let log: FakeClusterLog
        let id: Int
        let node: String

        init(log: FakeClusterLog, id: Int, node: String) {
            self.log = log
            self.id = id
            self.node = node
        }

        func acquire(node: String) async throws(ClusterLogError) -> ClusterLease? {
            try await log.call(id, node: self.node) { state throws(ClusterLogError) -> ClusterLease? in
                guard state.lockHolder == nil || state.lockHolder == id, var meta = state.meta else { return nil }
                state.lockHolder = id
                meta.term += 1
                meta.leaderNode = node
                meta.leaderSession = id
                meta.leaderBeat = .now
                meta.leaderUpstream = "connecting"
                state.meta = meta
                return ClusterLease(
                    term: meta.term, epoch: meta.epoch, headSeq: meta.headSeq, upstreamPosition: meta.upstreamPosition)
            }
        }

        func terminateStaleLeader(olderThan age: Duration) async throws(ClusterLogError) -> Bool {
            let ended = try await log.call(id, node: node) { state -> Int? in
                guard let holder = state.lockHolder, let meta = state.meta, meta.leaderSession == holder,
                    let beat = meta.leaderBeat, ContinuousClock.now - beat > age
                else { return nil }
                return holder
            }
            guard let ended else { return false }
            log.close(ended)
            return true
        }

        func append(_ entries: [ClusterLogEntry], lease: ClusterLease) async throws(ClusterLogError) {
            try await log.call(id, node: node) { state throws(ClusterLogError) in
                guard let first = entries.first, let last = entries.last, var meta = state.meta,
                    meta.term == lease.term, meta.epoch == lease.epoch, meta.headSeq == first.seq - 1
                else {
                    state.refusedAppends += 1
                    throw .fenced
                }
                for entry in entries { state.rows[meta.epoch, default: [:]][entry.seq] = entry }
                meta.headSeq = last.seq
                meta.upstreamPosition = last.upstreamPosition
                meta.leaderBeat = .now
                state.meta = meta
                state.appends += 1
            }
            log.notifyReaders()
        }

        func heartbeat(lease: ClusterLease, upstream: String) async throws(ClusterLogError) {
            try await log.call(id, node: node) { state throws(ClusterLogError) in
                guard var meta = state.meta, meta.term == lease.term, meta.epoch == lease.epoch else { throw .fenced }
                meta.leaderBeat = .now
                meta.leaderUpstream = upstream
                state.meta = meta
            }
        }

        func startEpoch(_ epoch: String, lease: ClusterLease) async throws(ClusterLogError) -> ClusterLease {
            try await log.call(id, node: node) { state throws(ClusterLogError) in
                guard var meta = state.meta, meta.term == lease.term else { throw .fenced }
                meta.epoch = epoch
                meta.headSeq = 0
                meta.upstreamPosition = nil
                state.meta = meta
                return ClusterLease(term: lease.term, epoch: epoch, headSeq: 0, upstreamPosition: nil)
            }
        }

        func writeCheckpoint(_ checkpoint: ClusterCheckpoint) async throws(ClusterLogError) {
            try await log.call(id, node: node) { state in
                guard let meta = state.meta, meta.epoch == checkpoint.epoch, meta.headSeq >= checkpoint.seq else {
                    return
                }
                state.checkpoints[checkpoint.epoch, default: [:]][checkpoint.seq] = checkpoint.document
            }
        }

        func checkpoints(epoch: String) async throws(ClusterLogError) -> [UInt64] {
            try await log.call(id, node: node) { state in (state.checkpoints[epoch] ?? [:]).keys.sorted() }
        }

        func trim(epoch: String, rowsThrough: UInt64, checkpointsBefore: UInt64) async throws(ClusterLogError) {
            try await log.call(id, node: node) { state in
                state.rows = state.rows.filter { $0.key == epoch }
                state.rows[epoch] = state.rows[epoch]?.filter { $0.key > rowsThrough }
                state.checkpoints = state.checkpoints.filter { $0.key == epoch }
                state.checkpoints[epoch] = state.checkpoints[epoch]?.filter { $0.key >= checkpointsBefore }
            }
        }

        func close() async {
            log.close(id)
        }
    }
}

/// A wake-up kept until taken (the fake reader polls it every 5 ms).
final class FakeWake: Sendable {
    private let pending = NIOLockedValueBox(false)

    func signal() {
        pending.withLockedValue { $0 = true }
    }

    /// Returns when signalled (taking it), after `timeout`, or when cancelled.
    func wait(within timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !Task.isCancelled {
            let taken = pending.withLockedValue { pending -> Bool in
                defer { pending = false }
                return pending
            }
            if taken { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
