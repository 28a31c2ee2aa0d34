import FeedCore
import Foundation

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
        let start = ContinuousClock.now
        try process.run()
        let outputReader = PipeReader(output)
        let errorReader = PipeReader(errors)
        let status = await ChildProcess.exitStatus(process, within: timeout)
        if status == nil { await ChildProcess.terminate(process, grace: 0) }
        let seconds = (ContinuousClock.now - start).timeInterval
        // Everything it wrote: the pipes end with the process.
        await outputReader.end(within: 5)
        await errorReader.end(within: 5)
        return FeedwebRun(
            status: status, standardOutput: outputReader.text, standardError: errorReader.text, seconds: seconds)
    }

    /// This process's environment without `FEEDWEB_…` variables, plus `adding`.
    public static func cleanEnvironment(adding: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FEEDWEB_") }
        for (key, value) in adding { environment[key] = value }
        return environment
    }
}
