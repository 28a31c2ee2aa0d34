import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import WebUI

/// feedweb running in the test process (the same ``FeedwebApplication`` the binary runs,
/// with its upstream source and its timers), for settings the command line does not offer
/// (the heartbeat interval, the per-client queue bound) and for what only the running
/// application does by itself (the static-file watcher). Serves on `127.0.0.1:0`.
///
/// Its tasks (the upstream subscription, the timers) run on threads of their own, not on
/// Swift's cooperative pool: that pool has one thread per core, and tests elsewhere in
/// the process that block one of them would otherwise stall this feedweb for seconds.
public final class InProcessFeedweb: @unchecked Sendable {
    public let application: FeedwebApplication
    public let port: UInt16
    private let executor = DedicatedTaskExecutor(threads: 2, name: "in-process-feedweb")
    private let task: Task<Void, Never>
    private let finished = NIOLockedValueBox(false)
    private let stopped = NIOLockedValueBox(false)

    /// The repository's Public/ directory.
    public static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    /// Starts feedweb on the SSE `upstream`; `configure` adjusts the configuration first.
    public convenience init(upstream: String, configure: (inout FeedwebConfiguration) -> Void = { _ in }) throws {
        try self.init(source: .sse(url: upstream), configure: configure)
    }

    /// Starts feedweb on `source`, serving `publicDirectory`; `configure` adjusts the
    /// configuration first.
    public convenience init(
        source: FeedwebConfiguration.Source, publicDirectory: String = InProcessFeedweb.publicDirectory,
        configure: (inout FeedwebConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = FeedwebConfiguration()
        configuration.sources.source = source
        configuration.publicDirectory = publicDirectory
        configure(&configuration)
        try self.init(configuration: configuration)
    }

    /// Starts feedweb with `configuration` (as the command line resolved it, say), but on
    /// `127.0.0.1:0`.
    public init(configuration: FeedwebConfiguration) throws {
        var configuration = configuration
        configuration.server.address = try ListenAddress(parsing: "127.0.0.1:0")
        var logger = Logger(label: "feedweb-in-process")
        logger.logLevel = .critical
        let application = FeedwebApplication(configuration: configuration, logger: logger)
        self.application = application
        port = try application.start()
        let finished = self.finished
        task = Task.detached(executorPreference: executor) {
            await application.run()
            finished.withLockedValue { $0 = true }
        }
    }

    /// Stops the timers and the upstream subscription (waiting at most 5 s for them),
    /// then the server. Throws if the application's tasks did not end in time.
    public func stop() async throws {
        guard !stopped.withLockedValue({ $0 }) else { return }
        stopped.withLockedValue { $0 = true }
        task.cancel()
        defer {
            application.stop()
            executor.shutdown()
        }
        let finished = self.finished
        try await Eventually.check("the in-process feedweb's tasks to end", within: 5) {
            finished.withLockedValue { $0 }
        }
    }
}
