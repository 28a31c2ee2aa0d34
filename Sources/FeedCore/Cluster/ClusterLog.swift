/// The shared log a feedweb cluster runs on, as the nodes use it: a reader session per
/// node and a leader session per candidate. PostgreSQL in production
/// (``PostgresClusterLog``); an in-process fake in the tests. Everything a node decides is
/// in ``ClusterNode`` and the I/O-free types it uses; an implementation only stores.
///
/// The guarantees an implementation gives (PostgreSQL's, see docs/deploy.md):
/// - One leader session at a time holds the lead (a session lock, released when the
///   session ends: a closed connection, a killed process, `pg_terminate_backend`).
/// - ``ClusterLogLeader/acquire(node:)`` takes the lead and raises the term in one atomic
///   step; ``ClusterLogLeader/append(_:lease:)`` and ``ClusterLogLeader/heartbeat(lease:upstream:)``
///   succeed only while the lease's term is the log's term, the epoch its epoch and (for
///   an append) the head the row before the first appended one; otherwise nothing is
///   written and they throw ``ClusterLogError/fenced``. Rows therefore commit in sequence
///   order, without gaps or duplicates, whatever the leaders do.
/// - A reader told of nothing still sees every row: ``ClusterLogReader/waitForChange(within:)``
///   is a wake-up only; the truth is what ``ClusterLogReader/entries(epoch:after:limit:)``
///   returns.
public protocol ClusterLog: Sendable {
    /// A new session for reading the log (with its change notifications set up before it
    /// returns, so no row committed after this call goes unnoticed).
    func connectReader() async throws(ClusterLogError) -> any ClusterLogReader
    /// A new session for campaigning and, once it holds the lead, leading.
    func connectLeader(node: String) async throws(ClusterLogError) -> any ClusterLogLeader
}

/// A node's session for following the log.
public protocol ClusterLogReader: Sendable {
    /// The meta row: epoch, term, head, leader. Creates the log (with a new epoch) if it
    /// was wiped.
    func head() async throws(ClusterLogError) -> ClusterHead
    /// Up to `limit` rows of `epoch` after `seq`, in order.
    func entries(epoch: String, after seq: UInt64, limit: Int) async throws(ClusterLogError) -> [ClusterLogEntry]
    /// The newest checkpoint of `epoch` at or before `seq`, else its oldest one; `nil`
    /// when it has none.
    func checkpoint(epoch: String, atOrBefore seq: UInt64) async throws(ClusterLogError) -> ClusterCheckpoint?
    /// Returns when a row may have been appended (a notification), or after `within`;
    /// throws when the session broke.
    func waitForChange(within: Duration) async throws(ClusterLogError)
    /// Ends the session.
    func close() async
}

/// A candidate's session: campaigns for the lead and, holding it, appends.
public protocol ClusterLogLeader: Sendable {
    /// Takes the lead if no session holds it: raises the term, names `node` the leader and
    /// starts its heartbeat, all at once; `nil` when another session holds it.
    func acquire(node: String) async throws(ClusterLogError) -> ClusterLease?
    /// Ends the session of the leader whose heartbeat is older than `age` (by the log's
    /// clock), so that its lead is released; whether there was one.
    func terminateStaleLeader(olderThan age: Duration) async throws(ClusterLogError) -> Bool
    /// Appends `entries` (consecutive, the first right after the head) fenced by `lease`,
    /// advancing the head and storing the last one's upstream position, then wakes the
    /// readers; all or nothing.
    func append(_ entries: [ClusterLogEntry], lease: ClusterLease) async throws(ClusterLogError)
    /// Records that the leader is alive, and its upstream's state in words; fenced by
    /// `lease`'s term.
    func heartbeat(lease: ClusterLease, upstream: String) async throws(ClusterLogError)
    /// Starts `epoch` empty (the log was lost or rewound); fenced by `lease`'s term.
    /// Returns the lease on the new epoch.
    func startEpoch(_ epoch: String, lease: ClusterLease) async throws(ClusterLogError) -> ClusterLease
    /// Stores `checkpoint` (kept only while its epoch is the log's).
    func writeCheckpoint(_ checkpoint: ClusterCheckpoint) async throws(ClusterLogError)
    /// The sequence numbers of `epoch`'s checkpoints, oldest first.
    func checkpoints(epoch: String) async throws(ClusterLogError) -> [UInt64]
    /// Deletes the rows of `epoch` up to `rowsThrough`, its checkpoints before
    /// `checkpointsBefore`, and everything of other epochs.
    func trim(epoch: String, rowsThrough: UInt64, checkpointsBefore: UInt64) async throws(ClusterLogError)
    /// Ends the session (and so the lead).
    func close() async
}

/// Why a cluster log operation failed.
public enum ClusterLogError: Error, Equatable, CustomStringConvertible {
    /// The database cannot be reached, or the session was lost; in words, without secrets.
    case unreachable(String)
    /// The term, the epoch or the head is not the lease's: another node leads now. Nothing
    /// was written.
    case fenced
    /// A statement took longer than its deadline; the session was closed (its outcome,
    /// for a write, is unknown).
    case timedOut(String)
    /// The database refused a statement, in words.
    case failed(String)
    /// The log holds something this node cannot read.
    case corrupt(String)

    public var description: String {
        switch self {
        case .unreachable(let message): return "the cluster database is unreachable: \(message)"
        case .fenced: return "another node leads now (the term or the head moved)"
        case .timedOut(let what): return "the cluster database did not answer in time (\(what))"
        case .failed(let message): return "the cluster database refused a statement: \(message)"
        case .corrupt(let message): return "the cluster log is unreadable: \(message)"
        }
    }
}
