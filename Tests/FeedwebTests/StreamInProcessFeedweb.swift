import FeedCore
import Foundation
import Logging
import WebUI

/// feedweb running in the test process (the same ``FeedwebApplication`` the binary runs),
/// for settings the command line does not offer: the heartbeat interval, the per-client
/// queue bound. Serves on `127.0.0.1:0`.
///
/// Its tasks (the upstream subscription, the timers) run on threads of their own, not on
/// Swift's cooperative pool: that pool has one thread per core, and tests elsewhere in
/// the process that block one of them would otherwise stall this feedweb for seconds.
final class InProcessFeedweb: @unchecked Sendable {
    let application: FeedwebApplication
    let port: UInt16
    private let executor = DedicatedTaskExecutor(threads: 2, name: "in-process-feedweb")
    private let task: Task<Void, Never>
    private var stopped = false

    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    /// Starts feedweb on `upstream`; `configure` adjusts the configuration first.
    init(upstream: String, configure: (inout FeedwebConfiguration) -> Void = { _ in }) throws {
        var configuration = FeedwebConfiguration(
            listen: try ListenAddress(parsing: "127.0.0.1:0"), source: .sse(url: upstream), profile: .nytNewswire,
            publicDirectory: Self.publicDirectory)
        configure(&configuration)
        var logger = Logger(label: "feedweb-in-process")
        logger.logLevel = .critical
        let application = FeedwebApplication(configuration: configuration, logger: logger)
        self.application = application
        port = try application.start()
        task = Task.detached(executorPreference: executor) { await application.run() }
    }

    /// Stops the timers and the upstream subscription, then the server.
    func stop() async {
        guard !stopped else { return }
        stopped = true
        task.cancel()
        await task.value
        application.stop()
        executor.shutdown()
    }
}

/// A task executor with threads of its own.
final class DedicatedTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var running = true

    init(threads: Int, name: String) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads end once the queue is empty.
    func shutdown() {
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty && running { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
