import Logging

/// Whether this build can join a cluster: the `PostgresCluster` package trait (on by
/// default) links postgres-nio, and with it swift-crypto. `make run` builds without it, to
/// serve the demo sooner from a fresh clone; `make build`, `make test` and `make release`
/// build with it.
extension PostgresClusterSettings {
    #if PostgresCluster
        /// Whether this build has the PostgreSQL cluster log.
        public static let isBuiltIn = true
    #else
        /// Whether this build has the PostgreSQL cluster log.
        public static let isBuiltIn = false
    #endif

    /// Why `--cluster` cannot be used in this build, or `nil` where it can.
    public static var unavailability: String? {
        isBuiltIn
            ? nil
            : "this feedweb was built without PostgreSQL (the debug build `make run` makes, without the PostgresCluster trait); `make build` or `make release` builds one with it"
    }

    /// The cluster log in the database these settings name.
    public func makeLog(logger: Logger) throws(Problem) -> any ClusterLog {
        #if PostgresCluster
            try PostgresClusterLog(settings: self, logger: logger)
        #else
            throw Problem(description: Self.unavailability ?? "")
        #endif
    }
}
