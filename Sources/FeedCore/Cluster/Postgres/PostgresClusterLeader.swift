// Built with the PostgresCluster trait only (Package.swift; on by default).
#if PostgresCluster
    import Foundation
    import PostgresNIO

    /// A candidate's session: takes the lead (the advisory lock and the term bump in one
    /// statement), ends a stale leader's session, and — holding the lead — appends, beats and
    /// keeps the checkpoints. Every write is fenced by the lease (term, epoch, head) inside
    /// the statement itself.
    final class PostgresClusterLeader: ClusterLogLeader {
        private let session: PostgresSession

        init(session: PostgresSession) {
            self.session = session
        }

        /// The lock key's halves as `pg_locks` shows them.
        private static var lockHalves: (high: Int64, low: Int64) {
            (PostgresClusterLog.lockKey >> 32, PostgresClusterLog.lockKey & 0xFFFF_FFFF)
        }

        func acquire(node: String) async throws(ClusterLogError) -> ClusterLease? {
            // The lock and the term bump together: the lock holder is always the leader the
            // meta row names (a candidate ends only that one, see terminateStaleLeader).
            let rows = try await session.rows(
                "taking the lead",
                """
                WITH lock AS MATERIALIZED (SELECT pg_try_advisory_lock(\(PostgresClusterLog.lockKey)) AS ok),
                taken AS (
                    UPDATE feedweb_meta SET term = term + 1, leader_node = \(node), leader_pid = pg_backend_pid(),
                        leader_beat = now(), leader_upstream = 'connecting'
                    WHERE id = 1 AND (SELECT ok FROM lock)
                    RETURNING term, epoch, head_seq, upstream_position)
                SELECT (SELECT ok FROM lock), taken.term, taken.epoch, taken.head_seq, taken.upstream_position
                FROM (SELECT 1) AS one LEFT JOIN taken ON true
                """)
            guard let row = rows.first else { throw .corrupt("taking the lead returned nothing") }
            do {
                let (locked, term, epoch, head, position) = try row.decode(
                    (Bool, Int64?, String?, Int64?, String?).self)
                guard locked else { return nil }
                if let term, let epoch, let head {
                    return ClusterLease(
                        term: UInt64(max(0, term)), epoch: epoch, headSeq: UInt64(max(0, head)),
                        upstreamPosition: position)
                }
            } catch {
                throw .corrupt("the lead: \(error)")
            }
            // The lock is ours but the meta row is gone (a wiped log): the session ends, and
            // with it the lock, so that the next campaign finds the row again.
            await close()
            throw .unreachable("the meta row was missing; campaigning again")
        }

        func terminateStaleLeader(olderThan age: Duration) async throws(ClusterLogError) -> Bool {
            let (high, low) = Self.lockHalves
            let rows = try await session.rows(
                "ending a stale leader",
                """
                SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN feedweb_meta m ON m.id = 1
                WHERE l.locktype = 'advisory' AND l.classid::int8 = \(high) AND l.objid::int8 = \(low)
                    AND l.objsubid = 1 AND l.granted AND l.pid = m.leader_pid
                    AND m.leader_beat < now() - make_interval(secs => \(age.timeInterval))
                """)
            return !rows.isEmpty
        }

        func append(_ entries: [ClusterLogEntry], lease: ClusterLease) async throws(ClusterLogError) {
            guard let first = entries.first, let last = entries.last else { return }
            let seqs = entries.map { Int64(clamping: $0.seq) }
            let kinds = entries.map(\.kind.rawValue)
            let bodies = entries.map { String(decoding: $0.body, as: UTF8.self) }
            let positions = entries.map { $0.upstreamPosition ?? "" }
            let changes = entries.map { Int32(clamping: $0.changes) }
            // The leader's commit time, to the microsecond (0: none, the log's own `now()`).
            let times = entries.map { $0.time?.microseconds ?? 0 }
            let lastSeq = Int64(clamping: last.seq)
            let rows = try await session.rows(
                "appending \(entries.count) rows",
                """
                WITH meta AS (
                    UPDATE feedweb_meta SET head_seq = \(lastSeq), upstream_position = \(last.upstreamPosition),
                        leader_beat = now()
                    WHERE id = 1 AND term = \(Int64(clamping: lease.term)) AND epoch = \(lease.epoch)
                        AND head_seq = \(Int64(clamping: first.seq) - 1)
                    RETURNING epoch),
                notified AS (SELECT pg_notify('feedweb_log', \(String(lastSeq))) FROM meta),
                appended AS (
                    INSERT INTO feedweb_log (epoch, seq, kind, body, upstream_position, changes, term, at)
                    SELECT meta.epoch, r.seq, r.kind, r.body, NULLIF(r.position, ''), r.changes,
                        \(Int64(clamping: lease.term)),
                        CASE WHEN r.micros = 0 THEN now()
                            ELSE timestamptz 'epoch' + r.micros * interval '1 microsecond' END
                    FROM meta, unnest(\(seqs)::int8[], \(kinds)::int2[], \(bodies)::text[], \(positions)::text[],
                        \(changes)::int4[], \(times)::int8[]) AS r(seq, kind, body, position, changes, micros)
                    RETURNING 1)
                SELECT (SELECT count(*) FROM appended), (SELECT count(*) FROM notified)
                """)
            guard let row = rows.first else { throw .corrupt("appending returned nothing") }
            do {
                let (appended, _) = try row.decode((Int64, Int64).self)
                guard appended == Int64(entries.count) else { throw ClusterLogError.fenced }
            } catch let error as ClusterLogError {
                throw error
            } catch {
                throw .corrupt("appending: \(error)")
            }
        }

        func heartbeat(lease: ClusterLease, upstream: String) async throws(ClusterLogError) {
            let rows = try await session.rows(
                "the heartbeat",
                """
                UPDATE feedweb_meta SET leader_beat = now(), leader_upstream = \(upstream)
                WHERE id = 1 AND term = \(Int64(clamping: lease.term)) AND epoch = \(lease.epoch) RETURNING 1
                """)
            if rows.isEmpty { throw .fenced }
        }

        func startEpoch(_ epoch: String, lease: ClusterLease) async throws(ClusterLogError) -> ClusterLease {
            let rows = try await session.rows(
                "starting a new epoch",
                """
                UPDATE feedweb_meta SET epoch = \(epoch), head_seq = 0, upstream_position = NULL, leader_beat = now()
                WHERE id = 1 AND term = \(Int64(clamping: lease.term)) RETURNING 1
                """)
            if rows.isEmpty { throw .fenced }
            return ClusterLease(term: lease.term, epoch: epoch, headSeq: 0, upstreamPosition: nil)
        }

        func writeCheckpoint(_ checkpoint: ClusterCheckpoint) async throws(ClusterLogError) {
            let seq = Int64(clamping: checkpoint.seq)
            _ = try await session.rows(
                "writing a checkpoint",
                """
                INSERT INTO feedweb_checkpoint (epoch, seq, document)
                SELECT \(checkpoint.epoch), \(seq), \(String(decoding: checkpoint.document, as: UTF8.self))
                WHERE EXISTS (SELECT 1 FROM feedweb_meta WHERE id = 1 AND epoch = \(checkpoint.epoch) AND head_seq >= \(seq))
                ON CONFLICT (epoch, seq) DO NOTHING
                """)
        }

        func checkpoints(epoch: String) async throws(ClusterLogError) -> [UInt64] {
            let rows = try await session.rows(
                "listing checkpoints", "SELECT seq FROM feedweb_checkpoint WHERE epoch = \(epoch) ORDER BY seq")
            do {
                return try rows.map { UInt64(max(0, try $0.decode(Int64.self))) }
            } catch {
                throw .corrupt("the checkpoints: \(error)")
            }
        }

        func trim(epoch: String, rowsThrough: UInt64, checkpointsBefore: UInt64) async throws(ClusterLogError) {
            _ = try await session.rows(
                "trimming the log",
                "DELETE FROM feedweb_log WHERE epoch <> \(epoch) OR seq <= \(Int64(clamping: rowsThrough))")
            _ = try await session.rows(
                "trimming the checkpoints",
                "DELETE FROM feedweb_checkpoint WHERE epoch <> \(epoch) OR seq < \(Int64(clamping: checkpointsBefore))")
        }

        func close() async {
            await session.close()
        }
    }
#endif
