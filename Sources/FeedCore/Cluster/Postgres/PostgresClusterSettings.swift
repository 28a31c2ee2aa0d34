import Foundation

/// Where the cluster's PostgreSQL is (`--cluster postgres://USER[:PASSWORD]@HOST:PORT/DB`,
/// also `postgresql://`), parsed and checked. The password is kept for connecting only:
/// ``shown`` (the URL without user information) is the only form logged or shown.
///
/// Query parameters: `sslmode=disable` (the default) or `require` (TLS, verified against
/// the system's CA store), `application_name` (a prefix for the sessions' names).
public struct PostgresClusterSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var requiresTLS: Bool
    /// The URL redacted (``URLRedaction/redacted(_:)``).
    public var shown: String

    /// Why a cluster URL is unusable, in words that never carry the password.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(url text: String) throws(Problem) {
        let shown = URLRedaction.redacted(text)
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw Problem(description: "'\(shown)' is not a postgres://USER[:PASSWORD]@HOST:PORT/DB URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw Problem(description: "'\(shown)' names no host")
        }
        guard let user = components.user, !user.isEmpty else {
            throw Problem(description: "'\(shown)' names no user (postgres://USER@HOST/DB)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw Problem(description: "'\(shown)' names no database (postgres://USER@HOST:PORT/DB)")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw Problem(description: "'\(shown)' has no valid port") }
        var requiresTLS = false
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", "disable"?), ("sslmode", "allow"?), ("sslmode", "prefer"?): requiresTLS = false
            case ("sslmode", "require"?): requiresTLS = true
            case ("sslmode", _):
                throw Problem(description: "'\(shown)': sslmode must be disable or require")
            default:
                throw Problem(description: "'\(shown)': unknown parameter \(item.name) (only sslmode)")
            }
        }
        // URLComponents keeps percent-escapes in `user` and `password` decoded.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.username = user
        self.password = components.password
        self.database = database
        self.requiresTLS = requiresTLS
        self.shown = shown
    }
}
