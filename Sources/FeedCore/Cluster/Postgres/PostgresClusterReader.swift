// Built with the PostgresCluster trait only (Package.swift; on by default).
#if PostgresCluster
    import Foundation
    import NIOConcurrencyHelpers
    import PostgresNIO

    /// A node's reader session: `LISTEN feedweb_log` (set up before ``start(_:)`` returns, so
    /// no row committed after it goes unnoticed), then the reads ``ClusterNode`` asks for.
    ///
    /// Notifications only wake the reader (at most one is kept: the reader reads everything
    /// new anyway). When the connection drops, the listening task fails, and so does the next
    /// ``waitForChange(within:)``: the node opens a new session and reads on from where it
    /// was.
    final class PostgresClusterReader: ClusterLogReader {
        private let session: PostgresSession
        /// Signalled by each notification; failed when the listening ends.
        private let wake: WakeSignal
        private let listening: Task<Void, Never>

        private init(session: PostgresSession, wake: WakeSignal, listening: Task<Void, Never>) {
            self.session = session
            self.wake = wake
            self.listening = listening
        }

        /// Starts listening on `session`; returns once `LISTEN` has taken effect.
        static func start(_ session: PostgresSession) async throws(ClusterLogError) -> PostgresClusterReader {
            let wake = WakeSignal()
            let ready = WakeSignal()
            let connection = session.connection
            let logger = session.logger
            let settings = session.settings
            let listening = Task {
                do {
                    try await connection.listen(on: PostgresClusterLog.channel) { notifications in
                        ready.signal()
                        for try await _ in notifications { wake.signal() }
                    }
                    wake.fail(.unreachable("the notifications ended"))
                } catch {
                    let failure = PostgresSession.describe(error, settings: settings)
                    logger.debug("cluster reader: listening ended: \(failure)")
                    wake.fail(failure)
                    ready.fail(failure)
                }
            }
            do {
                try await ready.wait(within: session.deadline)
            } catch {
                listening.cancel()
                await session.close()
                throw error
            }
            guard ready.wasSignalled else {
                listening.cancel()
                await session.close()
                throw .timedOut("LISTEN")
            }
            return PostgresClusterReader(session: session, wake: wake, listening: listening)
        }

        func head() async throws(ClusterLogError) -> ClusterHead {
            for _ in 0..<2 {
                let rows = try await session.rows(
                    "reading the head",
                    """
                    SELECT epoch, term, head_seq, leader_node,
                           (extract(epoch FROM now() - leader_beat) * 1000)::int8, leader_upstream
                    FROM feedweb_meta WHERE id = 1
                    """)
                if let row = rows.first {
                    do {
                        let (epoch, term, head, node, ageMilliseconds, upstream) = try row.decode(
                            (String, Int64, Int64, String?, Int64?, String?).self)
                        return ClusterHead(
                            epoch: epoch, term: UInt64(max(0, term)), headSeq: UInt64(max(0, head)), leaderNode: node,
                            leaderBeatAge: ageMilliseconds.map { .milliseconds(max(0, $0)) }, leaderUpstream: upstream)
                    } catch {
                        throw .corrupt("the meta row: \(error)")
                    }
                }
                // The log was wiped: it starts again, in a new epoch.
                try await session.ensureSchema()
            }
            throw .corrupt("no meta row")
        }

        func entries(epoch: String, after seq: UInt64, limit: Int) async throws(ClusterLogError) -> [ClusterLogEntry] {
            let rows = try await session.rows(
                "reading rows",
                """
                SELECT seq, kind, body, upstream_position, changes,
                    (extract(epoch FROM at) * 1000000)::int8 FROM feedweb_log
                WHERE epoch = \(epoch) AND seq > \(Int64(clamping: seq)) ORDER BY seq LIMIT \(Int64(limit))
                """)
            var entries: [ClusterLogEntry] = []
            entries.reserveCapacity(rows.count)
            for row in rows {
                do {
                    let (seq, kind, body, position, changes, micros) = try row.decode(
                        (Int64, Int16, String, String?, Int32, Int64).self)
                    guard let kind = ClusterLogEntry.Kind(rawValue: kind), seq > 0 else {
                        throw ClusterLogError.corrupt("row \(seq) of epoch \(epoch) has kind \(kind)")
                    }
                    entries.append(
                        ClusterLogEntry(
                            seq: UInt64(seq), kind: kind, body: Array(body.utf8), upstreamPosition: position,
                            changes: Int(changes), time: WallTime(microseconds: micros)))
                } catch let error as ClusterLogError {
                    throw error
                } catch {
                    throw .corrupt("a row of epoch \(epoch): \(error)")
                }
            }
            return entries
        }

        func checkpoint(epoch: String, atOrBefore seq: UInt64) async throws(ClusterLogError) -> ClusterCheckpoint? {
            let newest = try await session.rows(
                "reading a checkpoint",
                """
                SELECT seq, document FROM feedweb_checkpoint
                WHERE epoch = \(epoch) AND seq <= \(Int64(clamping: seq)) ORDER BY seq DESC LIMIT 1
                """)
            let rows =
                newest.isEmpty
                ? try await session.rows(
                    "reading a checkpoint",
                    "SELECT seq, document FROM feedweb_checkpoint WHERE epoch = \(epoch) ORDER BY seq LIMIT 1")
                : newest
            guard let row = rows.first else { return nil }
            do {
                let (seq, document) = try row.decode((Int64, String).self)
                return ClusterCheckpoint(epoch: epoch, seq: UInt64(max(0, seq)), document: Array(document.utf8))
            } catch {
                throw .corrupt("a checkpoint of epoch \(epoch): \(error)")
            }
        }

        func waitForChange(within timeout: Duration) async throws(ClusterLogError) {
            try await wake.wait(within: timeout)
        }

        func close() async {
            listening.cancel()
            await session.close()
        }
    }

    /// A wake-up that is kept until taken (at most one), or a failure that is kept for good.
    /// One waiter at a time. The lock guards `State` only; the waiter is resumed after it is
    /// released (see ``Waiter``).
    final class WakeSignal: Sendable {
        private struct State {
            var pending = false
            var signalled = false
            var failure: ClusterLogError?
            var waiter = Waiter()
        }

        private let state = NIOLockedValueBox(State())

        /// Whether ``signal()`` was ever called.
        var wasSignalled: Bool { state.withLockedValue { $0.signalled } }

        func signal() {
            state.withLockedValue { state in
                state.pending = true
                state.signalled = true
                return state.waiter.take()
            }
            .resume()
        }

        func fail(_ failure: ClusterLogError) {
            state.withLockedValue { state in
                if state.failure == nil { state.failure = failure }
                return state.waiter.take()
            }
            .resume()
        }

        /// Returns once signalled (taking the signal), after `timeout`, or when the task is
        /// cancelled; throws the failure, if any.
        func wait(within timeout: Duration) async throws(ClusterLogError) {
            if try take() { return }
            await state.wait(
                in: \.waiter, unless: { $0.pending || $0.failure != nil }, cancellable: true, timeout: timeout)
            _ = try take()
        }

        /// Takes a pending signal; throws a failure.
        private func take() throws(ClusterLogError) -> Bool {
            let (pending, failure) = state.withLockedValue { state -> (Bool, ClusterLogError?) in
                defer { state.pending = false }
                return (state.pending, state.failure)
            }
            if let failure { throw failure }
            return pending
        }
    }
#endif
