import Foundation
import Glibc

/// The real `feedweb` binary running as a child process on a free loopback port.
public final class FeedwebProcess: @unchecked Sendable {
    public let process: Process
    public let port: UInt16
    private let output: Pipe
    private let errors: Pipe
    /// Everything the process wrote to standard error so far (its log).
    public var log: String { logBuffer.withLock { $0 } }
    private let logBuffer = LockedText()

    /// The built `feedweb` executable, next to the test bundle.
    public static var executableURL: URL {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return runner.deletingLastPathComponent().appendingPathComponent("feedweb")
    }

    /// Starts `feedweb --listen 127.0.0.1:0 ARGUMENTS` and waits (at most `timeout`
    /// seconds) for the line that says where it listens.
    public init(arguments: [String], environment: [String: String] = [:], timeout: Double = 20) throws {
        process = Process()
        process.executableURL = Self.executableURL
        process.arguments = ["--listen", "127.0.0.1:0"] + arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let logBuffer = self.logBuffer
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { logBuffer.append(String(decoding: data, as: UTF8.self)) }
        }
        try process.run()
        let found = LockedText()
        let ready = DispatchSemaphore(value: 0)
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            found.append(String(decoding: data, as: UTF8.self))
            if found.withLock({ $0.contains("\n") }) { ready.signal() }
        }
        guard ready.wait(timeout: .now() + timeout) == .success,
            let line = found.withLock({ $0 }).split(separator: "\n").first(where: { $0.contains("listening on") }),
            let portText = line.split(separator: ":").last?.split(separator: "/").first,
            let port = UInt16(portText)
        else {
            process.terminate()
            throw LaunchFailure(log: logBuffer.withLock { $0 } + found.withLock { $0 })
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
    public func stop(signal: Int32 = SIGTERM, timeout: Double = 5) -> (status: Int32, seconds: Double)? {
        guard process.isRunning else { return (process.terminationStatus, 0) }
        let start = Date()
        kill(process.processIdentifier, signal)
        while process.isRunning && Date().timeIntervalSince(start) < timeout { usleep(5_000) }
        guard !process.isRunning else {
            ChildProcess.kill(process)
            return nil
        }
        return (process.terminationStatus, Date().timeIntervalSince(start))
    }

    deinit {
        ChildProcess.kill(process)
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
    }
}

/// A string behind a lock, filled by pipe handlers.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func append(_ more: String) {
        lock.lock()
        text += more
        lock.unlock()
    }

    func withLock<R>(_ body: (String) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(text)
    }
}

/// Ending child processes without `Process.waitUntilExit()`, which spins a CPU core on
/// Linux while it waits.
public enum ChildProcess {
    /// Sends SIGTERM, waits up to `grace` seconds, then SIGKILL; returns once it is gone.
    public static func kill(_ process: Process, grace: Double = 2) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            let hard = Date().addingTimeInterval(5)
            while process.isRunning && Date() < hard { usleep(10_000) }
        }
    }
}
