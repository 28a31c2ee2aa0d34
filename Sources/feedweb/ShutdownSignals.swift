import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import UnixSignals

/// SIGTERM and SIGINT, through swift-service-lifecycle's signal sequence: the first one
/// starts the `ServiceGroup`'s graceful shutdown (each part stops, the state file is
/// written, the streams end cleanly) and arms a watchdog that makes sure the process is
/// gone within ``deadline`` even if a part hangs, saving the state first; a second signal
/// exits at once with status 128 + signal, as a shell reports a killed process.
///
/// Made (and its signal handlers registered) before feedweb says where it listens, so a
/// signal at any moment after that line is a clean stop, never a kill; a signal before the
/// group runs is remembered by the group (`triggerGracefulShutdown()`).
final class ShutdownSignals: Sendable {
    /// How long a graceful shutdown may take before the watchdog ends the process (the
    /// contract allows 2 s).
    static let deadline: Duration = .milliseconds(1900)

    /// The thread the signals are handled on.
    private static let executor = ThreadTaskExecutor(name: "feedweb-signals")

    private let signals: UnixSignalsSequence
    private let logger: Logger
    private let firstSignal = NIOLockedFirstInstant()

    /// Traps SIGTERM and SIGINT from now on.
    init(logger: Logger) async {
        signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        self.logger = logger
    }

    /// The time since the first signal, e.g. `0.123 s`.
    var elapsedText: String {
        guard let start = firstSignal.instant else { return "0 s" }
        return String(format: "%.3f s", (ContinuousClock.now - start).timeInterval)
    }

    /// Handles the signals until the process ends: the first shuts `group` down (and arms
    /// the watchdog, which calls `lastWords` before it ends the process), the next exits.
    /// On a thread of its own, so that a busy or blocked cooperative pool cannot delay the
    /// watchdog.
    func watch(_ group: ServiceGroup, lastWords: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let (signals, logger, firstSignal) = (self.signals, self.logger, self.firstSignal)
        return Task(executorPreference: Self.executor) {
            for await signal in signals {
                guard firstSignal.record() else {
                    logger.warning("received \(signal) again; exiting at once")
                    _exit(128 + signal.rawValue)
                }
                logger.info("received \(signal); shutting down")
                Self.armWatchdog(logger: logger, lastWords: lastWords)
                await group.triggerGracefulShutdown()
            }
        }
    }

    /// Starts a thread of its own (it must run even if every task is stuck) that saves the
    /// state and ends the process once ``deadline`` has passed.
    private static func armWatchdog(logger: Logger, lastWords: @escaping @Sendable () -> Void) {
        let milliseconds = Int(deadline.timeInterval * 1000)
        let watchdog = Thread {
            usleep(useconds_t(milliseconds * 1000))
            logger.error("shutdown did not finish within \(milliseconds) ms; saving the state and exiting now")
            lastWords()
            _exit(0)
        }
        watchdog.name = "feedweb-shutdown-watchdog"
        watchdog.start()
    }
}

/// The instant of the first signal, recorded once.
private final class NIOLockedFirstInstant: Sendable {
    /// Guards the instant only; a leaf.
    private let box = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    var instant: ContinuousClock.Instant? { box.withLockedValue { $0 } }

    /// Records now as the first instant; `false` if one was recorded before.
    func record() -> Bool {
        box.withLockedValue { instant in
            guard instant == nil else { return false }
            instant = .now
            return true
        }
    }
}
