// Built with the PostgresCluster trait only (Package.swift; on by default).
#if PostgresCluster
    import Foundation
    import Logging
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import NIOSSL
    import PostgresNIO

    /// The cluster log in PostgreSQL (postgres-nio): three tables, one session lock, one
    /// notification channel.
    ///
    /// ```sql
    /// feedweb_meta       (id = 1, epoch, term, head_seq, upstream_position,
    ///                     leader_node, leader_pid, leader_beat, leader_upstream)
    /// feedweb_log        (epoch, seq, kind, body, upstream_position, changes, term, at)   -- PRIMARY KEY (epoch, seq)
    /// feedweb_checkpoint (epoch, seq, document, at)                                      -- PRIMARY KEY (epoch, seq)
    /// ```
    ///
    /// - Bodies are `text`, never `jsonb` (which reorders keys): the bytes clients get.
    /// - The lead is a session-level advisory lock (``lockKey``) on the leader's own
    ///   connection, taken together with the term bump in one statement; it is released when
    ///   that session ends, whatever ends it.
    /// - An append is one statement: the meta row is updated only where the term, the epoch
    ///   and the head are the lease's (the row lock serialises would-be leaders, so commit
    ///   order is sequence order), the rows are inserted from that update, and
    ///   `pg_notify('feedweb_log', seq)` is sent, all in one transaction or not at all.
    /// - Readers `LISTEN feedweb_log` on a connection of their own before they read; the
    ///   payload (the newest seq) is only a wake-up.
    ///
    /// Every session is a direct connection (no pooler: a pooler in transaction mode breaks
    /// session locks and `LISTEN`) with keep-alives, a `statement_timeout` and, on this side,
    /// a deadline per statement after which the connection is closed (postgres-nio's queries
    /// cannot be cancelled). Nothing logged carries the password.
    public struct PostgresClusterLog: ClusterLog {
        /// The advisory lock the leader holds: `feedweb` and `1` in ASCII, halves below 2^31
        /// so that `pg_locks` shows them as they are (`classid`, `objid`).
        static let lockKey: Int64 = 0x6665_6564_7765_6231
        /// The notification channel (lower case: `LISTEN` quotes it, `pg_notify` does not).
        static let channel = "feedweb_log"

        public let settings: PostgresClusterSettings
        /// The longest a statement may take before its session is closed.
        public var statementDeadline: Duration = .seconds(5)
        /// The longest connecting may take.
        public var connectTimeout: Duration = .seconds(3)
        private let logger: Logger
        /// The log handed to postgres-nio: at most at `info`.
        private let libraryLogger: Logger
        private let tls: PostgresConnection.Configuration.TLS

        public init(settings: PostgresClusterSettings, logger: Logger) throws(PostgresClusterSettings.Problem) {
            self.settings = settings
            self.logger = logger
            var libraryLogger = logger
            libraryLogger.logLevel = max(logger.logLevel, .info)
            self.libraryLogger = libraryLogger
            if settings.requiresTLS {
                do {
                    tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                } catch {
                    throw PostgresClusterSettings.Problem(description: "cannot set up TLS for \(settings.shown)")
                }
            } else {
                tls = .disable
            }
        }

        public func connectReader() async throws(ClusterLogError) -> any ClusterLogReader {
            let session = try await connect(role: "reader")
            return try await PostgresClusterReader.start(session)
        }

        public func connectLeader(node: String) async throws(ClusterLogError) -> any ClusterLogLeader {
            let session = try await connect(role: "leader \(node)")
            return PostgresClusterLeader(session: session)
        }

        /// A new session, with the tables there.
        private func connect(role: String) async throws(ClusterLogError) -> PostgresSession {
            var configuration = PostgresConnection.Configuration(
                host: settings.host, port: settings.port, username: settings.username, password: settings.password,
                database: settings.database, tls: tls)
            configuration.options.connectTimeout = .milliseconds(Int64(connectTimeout.timeInterval * 1000))
            let statementTimeout = Int(statementDeadline.timeInterval * 800)  // below the deadline here
            configuration.options.additionalStartupParameters = [
                ("application_name", String("feedweb \(role)".prefix(60))),
                ("statement_timeout", "\(statementTimeout)"),
                ("idle_in_transaction_session_timeout", "\(statementTimeout)"),
                // A peer that vanished is noticed in about 11 s, not the system's 2 hours.
                ("tcp_keepalives_idle", "5"), ("tcp_keepalives_interval", "2"), ("tcp_keepalives_count", "3"),
                ("tcp_user_timeout", "10000"),
            ]
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(
                    configuration: configuration, id: Self.nextConnectionID(), logger: libraryLogger)
            } catch {
                throw PostgresSession.describe(error, settings: settings)
            }
            let session = PostgresSession(
                connection: connection, settings: settings, deadline: statementDeadline, logger: libraryLogger)
            do {
                try await session.ensureSchema()
            } catch {
                await session.close()
                throw error
            }
            return session
        }

        private static let connectionIDs = ConnectionIDs()

        private static func nextConnectionID() -> Int {
            connectionIDs.next()
        }
    }

    /// Numbers for postgres-nio's connection ids (in its log lines only).
    private final class ConnectionIDs: Sendable {
        private let box = NIOLockedValueBox(0)

        func next() -> Int {
            box.withLockedValue {
                $0 += 1
                return $0
            }
        }
    }
#endif
