import Foundation
import Glibc

/// A real PostgreSQL (Debian's `postgresql` package; `.ci/run` installs it) of the test's
/// own: `initdb` into a temporary directory, `postgres` on a free loopback port with its
/// socket in that directory, trust authentication, stopped by PID. Run as the `postgres`
/// user when the tests run as root (PostgreSQL refuses to run as root), else as the
/// tests' own user. Never the system's service.
public final class PostgresServer: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: UInt16
    public let directory: String
    private let binaries: String
    private let lock = NSLock()
    private var process: Subprocess?

    /// The server's URL for `--cluster`, as the `postgres` superuser (`password` is
    /// accepted and ignored: trust authentication).
    public func url(password: String? = nil) -> String {
        "postgres://postgres\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/postgres"
    }

    /// The directory of Debian's PostgreSQL programs (the newest version installed).
    public static func binaries() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap(Int.init).max() else {
            throw Failure(description: "PostgreSQL is not installed (apt-get install postgresql; .ci/run does)")
        }
        return "\(root)/\(newest)/bin"
    }

    private static var runsAsRoot: Bool { getuid() == 0 }

    /// Creates a cluster in a new directory and starts it; waits until it accepts
    /// connections.
    public init(timeout: Double = 30) async throws {
        binaries = try Self.binaries()
        port = try FreePort.find()
        directory = "/tmp/feedweb-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if Self.runsAsRoot {
            guard let user = getpwnam("postgres") else {
                throw Failure(description: "there is no postgres user to run PostgreSQL as")
            }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        let initdb = try await Self.run(
            binaries + "/initdb", ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "--no-sync"],
            timeout: timeout)
        guard initdb.status == 0 else { throw Failure(description: "initdb failed: \(initdb.output)") }
        try await start(timeout: timeout)
    }

    /// Starts the server (again) on the same directory and port; waits until it accepts
    /// connections.
    public func start(timeout: Double = 30) async throws {
        let process = Subprocess()
        let (executable, arguments) = Self.command(
            binaries + "/postgres",
            [
                "-D", directory + "/data", "-p", "\(port)", "-k", directory, "-c", "listen_addresses=127.0.0.1",
                "-c", "fsync=off", "-c", "max_connections=60", "-c", "log_min_messages=warning",
            ])
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let log = FileHandle(forWritingAtPath: "/dev/null")
        process.standardOutput = log
        process.standardError = log
        try process.run()
        lock.withLock { self.process = process }
        do {
            try await Eventually.check(
                "PostgreSQL to accept connections on \(port)", within: timeout, poll: .milliseconds(50)
            ) {
                guard process.isRunning else { throw Failure(description: "postgres exited") }
                let ready = try await Self.run(
                    binaries + "/pg_isready", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres"], timeout: 5)
                return ready.status == 0
            }
        } catch {
            await stop()
            throw error
        }
    }

    /// The postmaster's process id (from its `postmaster.pid`), while it runs. (The child
    /// process this object started may be `runuser`, which waits for it.)
    public var pid: Int32? {
        guard lock.withLock({ process?.isRunning }) == true,
            let text = try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first, let pid = Int32(first)
        else { return nil }
        return pid
    }

    /// Stops the server by PID with a fast shutdown (SIGINT to the postmaster: sessions
    /// are ended, the data kept); waits for it to exit.
    public func stop() async {
        guard let process = lock.withLock({ self.process }) else { return }
        if let pid { kill(pid, SIGINT) }
        if !(await ChildProcess.exited(process, within: 20)) {
            if let pid { kill(pid, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        _ = await ChildProcess.exited(process, within: 5)
    }

    /// Runs `sql` with psql as `postgres`; returns its output (tuples only, unaligned).
    @discardableResult
    public func psql(_ sql: String) async throws -> String {
        let result = try await Self.run(
            binaries + "/psql",
            [
                "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-At", "-v", "ON_ERROR_STOP=1",
                "-c", sql,
            ],
            timeout: 20)
        guard result.status == 0 else { throw Failure(description: "psql failed: \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server and removes its directory.
    public func remove() async {
        await stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit {
        if let pid { kill(pid, SIGKILL) }
        if let process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// `executable` with `arguments`, as `postgres` when the tests run as root.
    private static func command(_ executable: String, _ arguments: [String]) -> (String, [String]) {
        runsAsRoot ? ("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments) : (executable, arguments)
    }

    /// Runs a PostgreSQL program to its end; its status and what it wrote.
    private static func run(
        _ executable: String, _ arguments: [String], timeout: Double
    ) async throws -> (status: Int32?, output: String) {
        let process = Subprocess()
        let (path, all) = command(executable, arguments)
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = all
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let exited = await ChildProcess.exited(process, within: timeout)
        if !exited { await ChildProcess.terminate(process, grace: 0) }
        let output = String(decoding: ChildProcess.takeBuffered(pipe), as: UTF8.self)
        return (exited ? process.terminationStatus : nil, output)
    }
}
