import FeedCore
import Foundation
import Logging

/// The shutdown sequence's bookkeeping: the first SIGTERM/SIGINT starts it (the caller
/// then cancels the application, which stops publishing, writes the state file, ends the
/// streams and stops the server); a watchdog makes sure the process is gone within
/// ``deadlineMilliseconds`` even if something hangs, saving the state first; a second
/// signal exits at once.
final class Shutdown: @unchecked Sendable {
    /// How long a clean shutdown may take before the watchdog ends the process (the
    /// contract allows 2 s).
    static let deadlineMilliseconds = 1900

    private let logger: Logger
    private let lock = NSLock()
    private var startedAt: ContinuousClock.Instant?
    private var runner: Task<Void, Never>?
    private var lastWords: (@Sendable () -> Void)?

    init(logger: Logger) {
        self.logger = logger
    }

    /// The task that runs the application: cancelled by the first signal, at once if the
    /// signal came before it existed. `lastWords` (saving the state) runs on the
    /// watchdog's thread before it ends the process.
    func setRunner(_ task: Task<Void, Never>, lastWords: @escaping @Sendable () -> Void) {
        let started = lock.withLock { () -> Bool in
            runner = task
            self.lastWords = lastWords
            return startedAt != nil
        }
        if started { task.cancel() }
    }

    /// Called for each signal: the first starts shutting down (cancels the runner and
    /// arms the watchdog). A second signal exits at once with status 128 + signal, as a
    /// shell reports a killed process.
    func begin(signal: Int32) {
        let (first, runner) = lock.withLock { () -> (Bool, Task<Void, Never>?) in
            guard startedAt == nil else { return (false, nil) }
            startedAt = .now
            return (true, self.runner)
        }
        guard first else {
            logger.warning("received signal \(signal) again; exiting at once")
            _exit(128 + signal)
        }
        logger.info("received signal \(signal); shutting down")
        let milliseconds = Self.deadlineMilliseconds
        let watchdog = Thread { [self] in
            usleep(useconds_t(milliseconds * 1000))
            logger.error("shutdown did not finish within \(milliseconds) ms; saving the state and exiting now")
            lock.withLock { self.lastWords }?()
            _exit(0)
        }
        watchdog.name = "feedweb-shutdown-watchdog"
        watchdog.start()
        runner?.cancel()
    }

    /// The time since the first signal, e.g. `0.123 s`.
    var elapsedText: String {
        guard let startedAt = lock.withLock({ self.startedAt }) else { return "0 s" }
        return String(format: "%.3f s", (ContinuousClock.now - startedAt).timeInterval)
    }
}
