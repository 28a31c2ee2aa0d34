import Foundation
import Glibc

/// One run of the real `feedweb` binary to its end, for what ``FeedwebProcess`` cannot
/// see: the exit status and the output of a run that never listens (`--help`, a wrong
/// option). Unlike ``FeedwebProcess`` it adds no arguments.
///
/// The environment is the test process's without any `FEEDWEB_…` variable (so a test
/// sees only the variables it sets), plus `environment`.
public struct FeedwebRun: Sendable {
    /// The exit status, or `nil` if the process did not exit within the timeout (it was
    /// then killed).
    public let status: Int32?
    public let standardOutput: String
    public let standardError: String
    /// How long the run took.
    public let seconds: Double

    /// Runs `feedweb ARGUMENTS` and waits at most `timeout` seconds for it to exit
    /// (sleeping between checks, so that parallel tests keep their threads).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 15
    ) async throws -> FeedwebRun {
        let process = Process()
        process.executableURL = FeedwebProcess.executableURL
        process.arguments = arguments
        process.environment = cleanEnvironment(adding: environment)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let outputText = LockedText()
        let errorText = LockedText()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { outputText.append(String(decoding: data, as: UTF8.self)) }
        }
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { errorText.append(String(decoding: data, as: UTF8.self)) }
        }
        let start = Date()
        try process.run()
        // Never Process.waitUntilExit(): it spins a CPU core on Linux.
        while process.isRunning && Date().timeIntervalSince(start) < timeout {
            try await Task.sleep(for: .milliseconds(5))
        }
        let exited = !process.isRunning
        if !exited { ChildProcess.kill(process) }
        let seconds = Date().timeIntervalSince(start)
        // Let the handlers take what is left in the pipes.
        try await Task.sleep(for: .milliseconds(50))
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        let restOut = (try? output.fileHandleForReading.readToEnd()) ?? nil
        let restErr = (try? errors.fileHandleForReading.readToEnd()) ?? nil
        if let restOut, !restOut.isEmpty { outputText.append(String(decoding: restOut, as: UTF8.self)) }
        if let restErr, !restErr.isEmpty { errorText.append(String(decoding: restErr, as: UTF8.self)) }
        return FeedwebRun(
            status: exited ? process.terminationStatus : nil, standardOutput: outputText.withLock { $0 },
            standardError: errorText.withLock { $0 }, seconds: seconds)
    }

    /// This process's environment without `FEEDWEB_…` variables, plus `adding`.
    public static func cleanEnvironment(adding: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FEEDWEB_") }
        for (key, value) in adding { environment[key] = value }
        return environment
    }
}
