import Foundation
import Glibc

/// A real MQTT broker, Eclipse Mosquitto (Debian's package), started as a child process on a
/// loopback port with a configuration of its own, never the system service; messages
/// published to it with Mosquitto's own client, `mosquitto_pub`. Stopped by its PID.
public final class MosquittoBroker: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: UInt16
    public let directory: URL
    private let process: Subprocess

    /// The broker and the client CI installs.
    public static let executable = "/usr/sbin/mosquitto"
    public static let publisher = "/usr/bin/mosquitto_pub"
    public static let passwordTool = "/usr/bin/mosquitto_passwd"

    /// A TLS listener's files: the CA that signed the certificate, the certificate, its key.
    public struct TLS: Sendable {
        public let caFile: String
        public let certificateFile: String
        public let keyFile: String

        public init(caFile: String, certificateFile: String, keyFile: String) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// The CA file of a TLS broker, for its clients.
    public let caFile: String?

    /// Starts a broker on a free loopback port (with `tls`, speaking TLS there); with
    /// `user`, only that user with `password` may connect (anonymous clients are refused).
    /// Waits until it accepts connections.
    public init(user: (name: String, password: String)? = nil, tls: TLS? = nil, timeout: Double = 10) async throws {
        for tool in [Self.executable, Self.publisher] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw Failure(
                description: "\(tool) is missing: install Debian's mosquitto and mosquitto-clients (.ci/run does)")
        }
        port = try FreePort.find()
        caFile = tls?.caFile
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedweb-mosquitto-\(UUID())")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        var config = """
            listener \(port) 127.0.0.1
            persistence false
            log_dest file \(directory.path)/mosquitto.log

            """
        // Run as root (CI), it would switch to the `mosquitto` user, who cannot read here.
        if geteuid() == 0 { config += "user root\n" }
        if let tls {
            config += "cafile \(tls.caFile)\ncertfile \(tls.certificateFile)\nkeyfile \(tls.keyFile)\n"
        }
        if let user {
            let passwords = directory.appendingPathComponent("passwords").path
            let tool = Subprocess()
            tool.executableURL = URL(fileURLWithPath: Self.passwordTool)
            tool.arguments = ["-c", "-b", passwords, user.name, user.password]
            tool.standardOutput = FileHandle.nullDevice
            tool.standardError = FileHandle.nullDevice
            try tool.run()
            guard await ChildProcess.exitStatus(tool, within: 10) == 0 else {
                throw Failure(description: "mosquitto_passwd failed")
            }
            config += "allow_anonymous false\npassword_file \(passwords)\n"
        } else {
            config += "allow_anonymous true\n"
        }
        let configPath = directory.appendingPathComponent("mosquitto.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        process = Subprocess()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", configPath]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let (port, process) = (self.port, self.process)
        do {
            try await Eventually.check("mosquitto to accept connections", within: timeout) {
                guard process.isRunning else { throw Failure(description: "mosquitto exited") }
                _ = try await RawSocket(port: port, timeout: 1)
                return true
            }
        } catch {
            await stop()
            throw Failure(description: "mosquitto did not start on port \(port): \(error) \(log)")
        }
    }

    /// The broker's log so far (for failure messages).
    public var log: String {
        (try? String(contentsOfFile: directory.appendingPathComponent("mosquitto.log").path, encoding: .utf8)) ?? ""
    }

    /// The URL of `filter` on this broker, with `user` in it when given.
    public func url(_ filter: String, user: (name: String, password: String)? = nil) -> String {
        let credentials = user.map { "\($0.name):\($0.password)@" } ?? ""
        return "\(caFile == nil ? "mqtt" : "mqtts")://\(credentials)127.0.0.1:\(port)/\(filter)"
    }

    /// Publishes `message` on `topic` with `mosquitto_pub` (`nil`: an empty message, which
    /// clears a retained one), retained or not, as `user`; waits for it to be sent.
    public func publish(
        _ message: String?, on topic: String, retain: Bool = false, user: (name: String, password: String)? = nil
    ) async throws {
        let client = Subprocess()
        client.executableURL = URL(fileURLWithPath: Self.publisher)
        var arguments = ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-q", "1"]
        arguments += message.map { ["-m", $0] } ?? ["-n"]
        if retain { arguments.append("-r") }
        if let user { arguments += ["-u", user.name, "-P", user.password] }
        if let caFile { arguments += ["--cafile", caFile] }
        client.arguments = arguments
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        let status = await ChildProcess.exitStatus(client, within: 10)
        guard status == 0 else {
            throw Failure(description: "mosquitto_pub on \(topic) exited \(String(describing: status))")
        }
    }

    /// Stops the broker without waiting, for `defer` (SIGTERM).
    public func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
    }

    /// Pauses (SIGSTOP) or resumes (SIGCONT) the broker: a broker that stops answering.
    public func pause(_ paused: Bool) {
        Glibc.kill(process.processIdentifier, paused ? SIGSTOP : SIGCONT)
    }

    /// Stops the broker (SIGTERM, then SIGKILL) and removes its directory.
    public func stop() async {
        await ChildProcess.terminate(process)
        try? FileManager.default.removeItem(at: directory)
    }
}
