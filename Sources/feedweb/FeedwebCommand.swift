import FeedCore
import Foundation
import Logging
import ServiceLifecycle
import WebUI

/// `feedweb`: turns a live JSON feed into a live web dashboard.
///
/// The command line is read by the option table, ``FeedwebOptions``, not by
/// ArgumentParser: its options are properties, one declaration each, and they would be a
/// second list beside the table that the environment lookup, the defaults, `--help` and
/// README must agree with. The table drives a parse of its own (``CommandLineRequest``) with
/// ArgumentParser's rules, and `--help` (``FeedwebHelp``).
///
/// A wrong option or value exits with status 2 and a message naming it, whether the parse
/// found it (an unknown option, a missing value) or the checks did.
@main
enum FeedwebCommand {
    /// Parses, resolves and runs; every usage error exits with status 2.
    static func main() async {
        let request: CommandLineRequest
        do throws(FeedwebOptions.Failure) {
            request = try CommandLineRequest(parsing: Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail(error)
        }
        switch request {
        case .help:
            FileHandle.standardOutput.write(Data(FeedwebHelp.text.utf8))
        case .version:
            FileHandle.standardOutput.write(Data((FeedwebVersion.description + "\n").utf8))
        case .run(let values):
            let options: FeedwebOptions.Resolved
            do throws(FeedwebOptions.Failure) {
                options = try FeedwebOptions.resolve(
                    commandLine: values, environment: ProcessInfo.processInfo.environment)
            } catch {
                fail(error)
            }
            if let folder = options.exportTemplates {
                do throws(TemplateExport.Failure) {
                    let count = try TemplateExport.write(to: folder)
                    FileHandle.standardOutput.write(Data("wrote \(count) templates to \(folder)\n".utf8))
                    exit(0)
                } catch {
                    fail(FeedwebOptions.Failure(option: "export-templates", message: error.description))
                }
            }
            exit(await serve(options))
        }
    }

    /// Runs feedweb until SIGTERM or SIGINT; returns the exit status: 0 after a clean stop,
    /// 2 when the `--listen` address cannot be served on, 1 when anything else fails at start.
    static func serve(_ options: FeedwebOptions.Resolved) async -> Int32 {
        let level = options.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "feedweb")
        // Signals are caught from here on, so that a SIGTERM during start (or right after
        // the "listening" line) is a clean stop, not a kill.
        let signals = await ShutdownSignals(logger: logger)
        for warning in options.warnings { logger.warning("\(warning)") }
        ResourceLimits.raiseOpenFileLimit()

        let configuration = options.configuration
        let application = FeedwebApplication(configuration: configuration, logger: logger)
        let port: UInt16
        do {
            port = try application.start()
        } catch let error as HTTPServerError {
            // The address was checked when the options were read; that it cannot be bound
            // (in use, or not an address of this machine) is still a wrong --listen.
            let message = "Error: --listen: \(error); choose another address or port with --listen HOST:PORT\n"
            FileHandle.standardError.write(Data(message.utf8))
            return 2
        } catch {
            logger.critical("\(error)")
            return 1
        }
        // Every long-running part is a service of one group; the first signal shuts the
        // group down gracefully, in reverse order of start (the HTTP server last).
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: application.services, logger: logger))
        let watcher = signals.watch(group) { application.saveState(final: false) }
        let reloads = await ReloadSignal(logger: logger).watch { application.reloadTemplates() }
        let address = configuration.server.address
        let host = address.isIPv6 ? "[\(address.host)]" : address.host
        logger.info("feedweb listening on http://\(host):\(port)/ (source: \(configuration.sources.source.label))")
        // Tests and scripts read this line to learn the port (with --listen HOST:0).
        FileHandle.standardOutput.write(Data("feedweb listening on http://\(host):\(port)/\n".utf8))

        var status: Int32 = 0
        do {
            try await group.run()
        } catch {
            logger.critical("feedweb stopped: \(error)")
            status = 1
        }
        // Whatever ended the group, the state is saved and the streams ended (idempotent).
        application.stop()
        watcher.cancel()
        reloads.cancel()
        logger.info("feedweb stopped in \(signals.elapsedText)")
        return status
    }

    /// Writes a usage error and exits with status 2.
    private static func fail(_ failure: FeedwebOptions.Failure) -> Never {
        let text = "Error: \(failure)\nSee 'feedweb --help' for the options.\n"
        FileHandle.standardError.write(Data(text.utf8))
        exit(2)
    }
}
