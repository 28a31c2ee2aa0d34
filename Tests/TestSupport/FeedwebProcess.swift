import FeedCore
import Foundation
import Glibc

/// The real `feedweb` binary running as a child process on a free loopback port.
///
/// Its environment is the test process's without any `FEEDWEB_…` variable, plus
/// `environment`. ``stop(signal:timeout:)`` ends it and reports how; a process a test
/// does not stop is killed when this object goes away.
public final class FeedwebProcess: Sendable {
    public let process: Subprocess
    public let port: UInt16
    private let output: PipeReader
    private let errors: PipeReader

    /// Everything the process wrote to standard error so far (its log).
    public var log: String { errors.text }
    /// Everything the process wrote to standard output so far.
    public var standardOutput: String { output.text }

    /// The built `feedweb` executable, next to the test bundle.
    public static var executableURL: URL {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return runner.deletingLastPathComponent().appendingPathComponent("feedweb")
    }

    /// Starts `feedweb --listen 127.0.0.1:0 ARGUMENTS` (`listen: false` leaves the
    /// `--listen` out) and waits at most `timeout` seconds for the line that says where it
    /// listens. `executable`: a copy of the built binary elsewhere (an installed layout).
    public init(
        arguments: [String], environment: [String: String] = [:], listen: Bool = true, timeout: Double = 20,
        executable: URL = FeedwebProcess.executableURL
    ) async throws {
        process = Subprocess()
        process.executableURL = executable
        process.arguments = (listen ? ["--listen", "127.0.0.1:0"] : []) + arguments
        process.environment = FeedwebRun.cleanEnvironment(adding: environment)
        let pipes = (output: Pipe(), errors: Pipe())
        process.standardOutput = pipes.output
        process.standardError = pipes.errors
        try process.run()
        output = PipeReader(pipes.output)
        errors = PipeReader(pipes.errors)
        let output = self.output
        let errors = self.errors
        let process = self.process
        let port: UInt16
        do {
            // 0 stands for "exited without listening", so that a failed start ends the wait
            // at once (an error thrown by the condition would only mean "not yet").
            port = try await Eventually.value("feedweb to say where it listens", within: timeout) { () -> UInt16? in
                let text = output.text
                if let line = text.split(separator: "\n").first(where: { $0.contains("listening on") }),
                    let portText = line.split(separator: ":").last?.split(separator: "/").first,
                    let port = UInt16(portText)
                {
                    return port
                }
                return process.isRunning ? nil : 0
            }
            guard port != 0 else {
                // The last of the log, up to the pipe's end.
                await errors.end(within: 2)
                throw LaunchFailure(log: "exited with \(process.terminationStatus)")
            }
        } catch {
            ChildProcess.killNow(process)
            throw LaunchFailure(log: "\(error)\n" + errors.text + output.text)
        }
        self.port = port
    }

    public struct LaunchFailure: Error, CustomStringConvertible {
        public let log: String
        public var description: String { "feedweb did not start: \(log)" }
    }

    /// Sends `signal` and waits at most `timeout` seconds for the exit; returns the status
    /// and the seconds it took, or `nil` if it did not exit in time (it is then killed).
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Double = 5) async -> (status: Int32, seconds: Double)? {
        guard process.isRunning else { return (process.terminationStatus, 0) }
        let start = ContinuousClock.now
        Glibc.kill(process.processIdentifier, signal)
        guard let status = await ChildProcess.exitStatus(process, within: timeout) else {
            await ChildProcess.terminate(process, grace: 0)
            return nil
        }
        return (status, (ContinuousClock.now - start).timeInterval)
    }

    /// Kills the process now, without waiting (for `defer`).
    public func kill() {
        ChildProcess.killNow(process)
    }

    deinit {
        ChildProcess.killNow(process)
    }
}
