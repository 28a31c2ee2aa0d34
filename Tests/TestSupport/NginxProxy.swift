import Foundation
import Glibc

/// A real nginx (Debian's package) started as a child process on a loopback port with a
/// configuration of its own, never the system service: `daemon off`, pid, logs and temp
/// files in a temporary directory that is removed by ``stop()``.
public final class NginxProxy: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: UInt16
    public let directory: URL
    private let process: Subprocess

    /// The nginx binary CI installs.
    public static let executable = "/usr/sbin/nginx"

    /// Starts nginx with `httpBlock` (the contents of an `http {}` block) after replacing
    /// `{{listen}}` by its own loopback address; waits until it accepts connections.
    public init(httpBlock: (_ listen: String) -> String, timeout: Double = 10) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "\(Self.executable) is missing: install Debian's nginx (.ci/run does)")
        }
        port = try FreePort.find()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedweb-nginx-\(UUID())")
        // Workers run as `nobody` when the master runs as root: they must reach the temp paths.
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let path = directory.path
        let config = """
            worker_processes 1;
            daemon off;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log info;
            events { worker_connections 512; }
            http {
                access_log off;
                client_body_temp_path \(path)/client_body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
            \(httpBlock("127.0.0.1:\(port)"))
            }

            """
        let configPath = directory.appendingPathComponent("nginx.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        process = Subprocess()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-p", path, "-e", "\(path)/error.log", "-c", configPath]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let (port, process) = (self.port, self.process)
        do {
            try await Eventually.check("nginx to accept connections", within: timeout) {
                guard process.isRunning else { throw Failure(description: "nginx exited") }
                _ = try await RawSocket(port: port, timeout: 1)
                return true
            }
        } catch {
            let log = (try? String(contentsOfFile: "\(path)/error.log", encoding: .utf8)) ?? ""
            await stop()
            throw Failure(description: "nginx did not start on port \(port): \(error) \(log)")
        }
    }

    /// nginx's error log so far (for failure messages).
    public var errorLog: String {
        (try? String(contentsOfFile: directory.appendingPathComponent("error.log").path, encoding: .utf8)) ?? ""
    }

    /// Asks nginx to stop (SIGTERM: the master ends its workers) without waiting, for
    /// `defer`; its directory is left for the system's temporary-file cleanup.
    public func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
    }

    /// Stops nginx (SIGTERM, then SIGKILL) and removes its directory.
    public func stop() async {
        await ChildProcess.terminate(process)
        try? FileManager.default.removeItem(at: directory)
    }
}
