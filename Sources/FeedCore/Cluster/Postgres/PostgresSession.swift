// Built with the PostgresCluster trait only (Package.swift; on by default).
#if PostgresCluster
    import Foundation
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO

    /// One connection to the cluster's PostgreSQL, as the reader and the leader use it: every
    /// statement runs under a deadline (past it the connection is closed, which fails the
    /// statement: postgres-nio's queries cannot be cancelled), and every failure comes out as
    /// a ``ClusterLogError`` in words without secrets.
    ///
    /// Once a statement failed because the connection did, the session is broken for good:
    /// its owner opens a new one (never `LISTEN` again on a connection that errored).
    final class PostgresSession: Sendable {
        let connection: PostgresConnection
        let settings: PostgresClusterSettings
        let deadline: Duration
        let logger: Logger

        init(connection: PostgresConnection, settings: PostgresClusterSettings, deadline: Duration, logger: Logger) {
            self.connection = connection
            self.settings = settings
            self.deadline = deadline
            self.logger = logger
        }

        /// Runs `query` and returns its rows, within the deadline.
        func rows(_ what: String, _ query: PostgresQuery) async throws(ClusterLogError) -> [PostgresRow] {
            let connection = self.connection
            let logger = self.logger
            return try await run(what) { try await connection.query(query, logger: logger).collect() }
        }

        /// Runs `body` on the connection within the deadline; on timeout (or when the task is
        /// cancelled) closes the connection and throws.
        ///
        /// The statement runs in a task of its own that is never waited for past the
        /// deadline: postgres-nio loses a statement written to a connection that closed under
        /// it (its promise is never completed), and waiting for it would hang the node.
        func run<T: Sendable>(
            _ what: String, _ body: @escaping @Sendable () async throws -> T
        ) async throws(ClusterLogError) -> T {
            let connection = self.connection
            let settings = self.settings
            guard !connection.isClosed else {
                throw .unreachable("the connection to \(settings.host):\(settings.port) is closed")
            }
            let deadline = self.deadline
            let gate = OutcomeGate<T>()
            let outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Outcome<T>, Never>) in
                    gate.wait(continuation)
                    let timer = Task {
                        do {
                            try await Task.sleep(for: deadline)
                        } catch {
                            return
                        }
                        if gate.finish(.timedOut) { try? await connection.close() }
                    }
                    gate.setTimer(timer)
                    Task {
                        do {
                            gate.finish(.value(try await body()))
                        } catch {
                            gate.finish(.failed(Self.describe(error, settings: settings)))
                        }
                    }
                }
            } onCancel: {
                if gate.finish(.cancelled) { Task { try? await connection.close() } }
            }
            switch outcome {
            case .value(let value): return value
            case .failed(let error): throw error
            case .timedOut: throw .timedOut(what)
            case .cancelled: throw .unreachable("cancelled")
            }
        }

        fileprivate enum Outcome<T: Sendable>: Sendable {
            case value(T)
            case failed(ClusterLogError)
            case timedOut
            case cancelled
        }

        /// Creates the tables and the meta row (with a new random epoch) when they are not
        /// there: a new cluster, or a log that was wiped. Concurrent nodes may race; the loser
        /// of a race on `CREATE TABLE` retries once.
        func ensureSchema() async throws(ClusterLogError) {
            do {
                try await createSchema()
            } catch .failed {
                try await createSchema()
            }
        }

        private func createSchema() async throws(ClusterLogError) {
            let statements: [PostgresQuery] = [
                """
                CREATE TABLE IF NOT EXISTS feedweb_meta (
                    id int PRIMARY KEY CHECK (id = 1),
                    epoch text NOT NULL,
                    term bigint NOT NULL DEFAULT 0,
                    head_seq bigint NOT NULL DEFAULT 0,
                    upstream_position text,
                    leader_node text,
                    leader_pid int,
                    leader_beat timestamptz,
                    leader_upstream text)
                """,
                """
                CREATE TABLE IF NOT EXISTS feedweb_log (
                    epoch text NOT NULL,
                    seq bigint NOT NULL,
                    kind smallint NOT NULL,
                    body text NOT NULL,
                    upstream_position text,
                    changes int NOT NULL DEFAULT 1,
                    term bigint NOT NULL,
                    at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (epoch, seq))
                """,
                """
                CREATE TABLE IF NOT EXISTS feedweb_checkpoint (
                    epoch text NOT NULL,
                    seq bigint NOT NULL,
                    document text NOT NULL,
                    at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (epoch, seq))
                """,
            ]
            for statement in statements {
                _ = try await rows("creating the cluster tables", statement)
            }
            try await ensureMetaRow()
        }

        /// Inserts the meta row with a new epoch if there is none.
        func ensureMetaRow() async throws(ClusterLogError) {
            let epoch = EventID.randomEpoch()
            _ = try await rows(
                "creating the meta row",
                "INSERT INTO feedweb_meta (id, epoch) VALUES (1, \(epoch)) ON CONFLICT (id) DO NOTHING")
        }

        func close() async {
            try? await connection.close()
        }

        /// `error` from postgres-nio or NIO in words: a server error by its message and
        /// SQLSTATE, a lost or refused connection as unreachable. Never the password, never a
        /// query's parameters.
        static func describe(_ error: any Error, settings: PostgresClusterSettings) -> ClusterLogError {
            if let error = error as? ClusterLogError { return error }
            let place = "\(settings.host):\(settings.port)"
            if let error = error as? PSQLError {
                switch error.code {
                case .server:
                    let state = error.serverInfo?[.sqlState] ?? "?"
                    let message = error.serverInfo?[.message] ?? "error"
                    let text = "\(message) (SQLSTATE \(state))"
                    // 57P01 admin shutdown (pg_terminate_backend, a fast stop), 57P02/57P03
                    // crash or not yet ready, 08xxx connection exceptions.
                    if state.hasPrefix("57P") || state.hasPrefix("08") { return .unreachable(text) }
                    if state == "57014" { return .timedOut(text) }
                    return .failed(text)
                case .serverClosedConnection, .connectionError, .clientClosedConnection, .uncleanShutdown:
                    return .unreachable("the connection to \(place) was lost")
                case .sslUnsupported, .failedToAddSSLHandler:
                    return .unreachable("\(place) does not accept TLS")
                case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
                    return .unreachable("cannot log in to \(place) as \(settings.username)")
                default:
                    return .failed("\(error.code)")
                }
            }
            var components = URLComponents()
            components.scheme = "postgres"
            components.host = settings.host
            components.port = settings.port
            if let url = components.url {
                return .unreachable(TransportFailure.upstreamError(error, url: url).description)
            }
            return .unreachable("cannot reach \(place)")
        }
    }

    /// The first outcome of a statement (its result, its deadline, a cancellation), handed to
    /// the one waiter once. The lock guards `State` only; the waiter is resumed after it is
    /// released.
    private final class OutcomeGate<T: Sendable>: Sendable {
        private struct State {
            var outcome: PostgresSession.Outcome<T>?
            var waiter: CheckedContinuation<PostgresSession.Outcome<T>, Never>?
            var timer: Task<Void, Never>?
            var delivered = false
        }

        private let state = NIOLockedValueBox(State())

        func wait(_ continuation: CheckedContinuation<PostgresSession.Outcome<T>, Never>) {
            let ready = state.withLockedValue { state -> PostgresSession.Outcome<T>? in
                guard let outcome = state.outcome, !state.delivered else {
                    state.waiter = continuation
                    return nil
                }
                state.delivered = true
                return outcome
            }
            if let ready { continuation.resume(returning: ready) }
        }

        func setTimer(_ timer: Task<Void, Never>) {
            let cancel = state.withLockedValue { state -> Bool in
                state.timer = timer
                return state.outcome != nil
            }
            if cancel { timer.cancel() }
        }

        /// Sets the outcome if there is none yet; whether this was the first.
        @discardableResult
        func finish(_ outcome: PostgresSession.Outcome<T>) -> Bool {
            let (first, waiter, timer) = state.withLockedValue {
                state -> (Bool, CheckedContinuation<PostgresSession.Outcome<T>, Never>?, Task<Void, Never>?) in
                guard state.outcome == nil else { return (false, nil, nil) }
                state.outcome = outcome
                guard let waiter = state.waiter else { return (true, nil, state.timer) }
                state.waiter = nil
                state.delivered = true
                return (true, waiter, state.timer)
            }
            timer?.cancel()
            waiter?.resume(returning: outcome)
            return first
        }
    }
#endif
