import FeedCore
import Foundation
import NIOConcurrencyHelpers

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
    /// How long the run took, in seconds.
    public let seconds: Double

    /// Runs `feedweb ARGUMENTS` and waits at most `timeout` seconds for it to exit.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 15
    ) async throws -> FeedwebRun {
        let process = Subprocess()
        process.executableURL = FeedwebProcess.executableURL
        process.arguments = arguments
        process.environment = cleanEnvironment(adding: environment)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let outputText = NIOLockedValueBox("")
        let errorText = NIOLockedValueBox("")
        FeedwebProcess.collect(output, into: outputText)
        FeedwebProcess.collect(errors, into: errorText)
        let start = ContinuousClock.now
        try process.run()
        let status = await ChildProcess.exitStatus(process, within: timeout)
        if status == nil { await ChildProcess.terminate(process, grace: 0) }
        let seconds = (ContinuousClock.now - start).timeInterval
        // Let the handlers take what is left in the pipes, then read the rest ourselves.
        try await Task.sleep(for: .milliseconds(50))
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        let restOfOutput = ChildProcess.takeBuffered(output)
        if !restOfOutput.isEmpty {
            outputText.withLockedValue { $0 += String(decoding: restOfOutput, as: UTF8.self) }
        }
        let restOfErrors = ChildProcess.takeBuffered(errors)
        if !restOfErrors.isEmpty {
            errorText.withLockedValue { $0 += String(decoding: restOfErrors, as: UTF8.self) }
        }
        return FeedwebRun(
            status: status, standardOutput: outputText.withLockedValue { $0 },
            standardError: errorText.withLockedValue { $0 }, seconds: seconds)
    }

    /// This process's environment without `FEEDWEB_…` variables, plus `adding`.
    public static func cleanEnvironment(adding: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FEEDWEB_") }
        for (key, value) in adding { environment[key] = value }
        return environment
    }
}
