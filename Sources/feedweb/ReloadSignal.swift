import Logging
import UnixSignals

/// SIGHUP: read the `--templates` folder again (all of it or none), as daemons re-read
/// their configuration. Trapped from start, so a SIGHUP never ends feedweb.
struct ReloadSignal: Sendable {
    private let signals: UnixSignalsSequence
    private let logger: Logger

    /// Traps SIGHUP from now on.
    init(logger: Logger) async {
        signals = await UnixSignalsSequence(trapping: .sighup)
        self.logger = logger
    }

    /// Calls `reload` at each SIGHUP until cancelled.
    func watch(_ reload: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let (signals, logger) = (self.signals, self.logger)
        return Task {
            for await _ in signals {
                logger.info("received SIGHUP; reading the templates again")
                reload()
            }
        }
    }
}
