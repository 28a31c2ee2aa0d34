import Foundation
import Logging

@testable import WebUI

/// The whole of feedweb in the test process — the same ``FeedwebApplication`` the binary
/// runs, with its upstream source and its timers — on a free loopback port. For what only
/// the running application does by itself (the static-file watcher, say).
final class InProcessApplication: Sendable {
    let application: FeedwebApplication
    let port: UInt16
    private let task: Task<Void, Never>

    /// Starts feedweb on its built-in demo newswire (no network); `configure` adjusts the
    /// configuration first.
    init(publicDirectory: String, configure: (inout FeedwebConfiguration) -> Void = { _ in }) throws {
        var configuration = FeedwebConfiguration(
            listen: try ListenAddress(parsing: "127.0.0.1:0"), source: .demo, profile: .nytNewswire,
            publicDirectory: publicDirectory)
        configure(&configuration)
        var logger = Logger(label: "feedweb-in-process")
        logger.logLevel = .critical
        let application = FeedwebApplication(configuration: configuration, logger: logger)
        self.application = application
        port = try application.start()
        task = Task { await application.run() }
    }

    /// Stops the timers and the upstream subscription, then the server.
    func stop() async {
        task.cancel()
        await task.value
        application.stop()
    }
}
