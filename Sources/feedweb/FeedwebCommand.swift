import ArgumentParser
import FeedCore
import Foundation
import Logging
import ServiceLifecycle
import WebUI

/// `feedweb`: turns a live JSON feed into a live web dashboard.
///
/// The options are parsed as text here and resolved (with their environment variables
/// and defaults) and checked by ``FeedwebOptions``. A wrong option or value exits with
/// status 2 and a message naming it, whether ArgumentParser found it (an unknown option, a
/// missing value) or the checks did (see ``FeedwebMain``).
struct FeedwebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedweb",
        abstract: "Turn a live JSON feed into a live web dashboard.",
        discussion: """
            Sources (one per process): --upstream URL (an SSE feed in the document protocol; \
            with --mode append one item per event; with --mode firebase Firebase's put/patch \
            streaming), --upstream ws(s)://… (a WebSocket: --mode append takes each message as \
            one item, document as a whole document), --poll URL (a JSON API polled with \
            conditional requests), or, with none, the built-in demo newswire.

            Every option can also be set by an environment variable: FEEDWEB_ plus the option \
            name in upper case with - as _ (--max-clients → FEEDWEB_MAX_CLIENTS). The option \
            wins over the variable; a repeatable option's variable holds one value per line; an \
            empty variable counts as unset.

            A wrong option or value exits with status 2, and so does an address in --listen \
            that cannot be served on (in use, or not this machine's). SIGTERM or SIGINT stop \
            feedweb cleanly (streams ended, state file written) with status 0.
            """,
        version: FeedwebVersion.description
    )

    @Option(
        help: ArgumentHelp("Address to serve on (default: 127.0.0.1:8080; IPv6 as [::1]:8080).", valueName: "host:port")
    )
    var listen: String?

    @Option(
        help: ArgumentHelp(
            "Upstream URL: an SSE feed (http or https) or a WebSocket (ws or wss).", valueName: "url"))
    var upstream: String?

    @Option(
        help: ArgumentHelp(
            "How to read --upstream: document (Streamdata data/patch events, or each WebSocket message a whole document; the default), append (each event or message one item, e.g. Wikimedia EventStreams) or firebase (Firebase REST streaming put/patch events, e.g. the Hacker News API; SSE only).",
            valueName: "document|append|firebase"))
    var mode: String?

    @Option(help: ArgumentHelp("JSON API URL to poll instead of an SSE feed (not with --upstream).", valueName: "url"))
    var poll: String?

    @Option(help: ArgumentHelp("Seconds between polls of --poll (default: 5).", valueName: "seconds"))
    var interval: String?

    @Option(
        help: ArgumentHelp(
            "Extra upstream request header (for a WebSocket, in the handshake), e.g. \"Authorization: Bearer …\" (repeatable).",
            valueName: "name: value"))
    var header: [String] = []

    @Option(
        help: ArgumentHelp(
            "Item profile: \(ItemProfile.names.joined(separator: ", ")) (default: nyt-newswire; wikimedia-recentchange with --mode append).",
            valueName: "name"))
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "JSON Pointer to the array of items (\"\" for a document that is the array).", valueName: "pointer"))
    var itemsPath: String?

    @Option(
        help: ArgumentHelp(
            "JSON Pointer, within an item, to its stable id (\"\" or none: a hash of the item).", valueName: "pointer"))
    var keyPath: String?

    @Option(
        help: ArgumentHelp(
            "JSON Pointer to the document's version number; pages only advance when it grows (\"\" or none: on every change).",
            valueName: "pointer"))
    var versionPath: String?

    @Option(
        help: ArgumentHelp(
            "Where an item keeps a field, e.g. title=/headline (repeatable; fields: \(ItemProfile.Field.allCases.map(\.rawValue).joined(separator: ", ")); NAME= drops one).",
            valueName: "name=pointer"))
    var field: [String] = []

    @Option(
        help: ArgumentHelp(
            "A notable event on /stats for each added or changed item whose value at the pointer equals value, e.g. 'New user:/type=newuser' (repeatable).",
            valueName: "LABEL:/pointer=value"))
    var mark: [String] = []

    @Option(help: ArgumentHelp("Items kept in append mode, newest first (default: 200).", valueName: "n"))
    var keep: String?

    @Option(help: ArgumentHelp("Changes kept for resuming clients (default: 1000).", valueName: "n"))
    var history: String?

    @Option(
        help: ArgumentHelp(
            "File to save the mirror in (atomically, at most once a second and at shutdown) and to restore it from at start.",
            valueName: "path"))
    var stateFile: String?

    @Option(help: ArgumentHelp("Most concurrent SSE clients; more get 503 (default: 10000).", valueName: "n"))
    var maxClients: String?

    @Option(
        help: ArgumentHelp(
            "Seconds a client connection may take to send a complete request, from its connect or, kept alive, from the previous response; then it is closed, however slowly it trickles (default: 10). SSE streams are exempt.",
            valueName: "seconds"))
    var headTimeout: String?

    @Option(
        help: ArgumentHelp(
            "Largest upstream event, WebSocket message or polled document in bytes (default: 16777216).",
            valueName: "bytes"))
    var maxEventBytes: String?

    @Option(
        help: ArgumentHelp("Longest wait between upstream retries, in seconds (default: 30).", valueName: "seconds"))
    var maxBackoff: String?

    @Option(
        help: ArgumentHelp(
            "Upstream silence after which the connection counts as dead, in seconds (default: 45); a WebSocket is pinged every half of it.",
            valueName: "seconds"))
    var readTimeout: String?

    @Option(
        help: ArgumentHelp(
            "PEM file of extra CA certificates to trust for an https or wss upstream.", valueName: "path"))
    var caFile: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Who may embed the pages in a frame: CSP sources separated by spaces, e.g. self https://intranet.example (self and none with or without quotes; schemes like https:; hosts like *.example.com:8443; default: 'self').",
            valueName: "sources"))
    var frameAncestors: [String] = []

    @Option(
        help: ArgumentHelp(
            "Log level: trace, debug, info, notice, warning, error, critical (default: info).", valueName: "level"))
    var logLevel: String?

    @Option(
        help: ArgumentHelp(
            "Directory of static files served under /static/ (default: the project's Public/).", valueName: "path"))
    var publicDir: String?

    @Option(
        help: ArgumentHelp(
            "Seconds between the demo newswire's changes, when there is no --upstream or --poll (default: 4).",
            valueName: "seconds"))
    var demoInterval: String?

    @Option(
        help: ArgumentHelp(
            "Run as one node of a cluster sharing this PostgreSQL database: one node subscribes upstream and logs each change there, every node serves the same ids (postgres://USER[:PASSWORD]@HOST:PORT/DB; sslmode=require for TLS).",
            valueName: "url"))
    var cluster: String?

    @Option(
        help: ArgumentHelp(
            "This node's name in the cluster, on /readyz and in the logs (default: host name:port).",
            valueName: "name"))
    var clusterNode: String?

    /// The values given on the command line, by option name.
    var commandLineValues: [String: [String]] {
        var values: [String: [String]] = [
            "listen": listen, "upstream": upstream, "mode": mode, "poll": poll, "interval": interval,
            "profile": profile, "items-path": itemsPath, "key-path": keyPath, "version-path": versionPath,
            "keep": keep, "history": history, "state-file": stateFile, "max-clients": maxClients,
            "head-timeout": headTimeout,
            "max-event-bytes": maxEventBytes, "max-backoff": maxBackoff, "read-timeout": readTimeout,
            "ca-file": caFile, "log-level": logLevel, "public-dir": publicDir, "demo-interval": demoInterval,
            "cluster": cluster, "cluster-node": clusterNode,
        ].compactMapValues { $0.map { [$0] } }
        values["header"] = header
        values["field"] = field
        values["mark"] = mark
        values["frame-ancestors"] = frameAncestors
        return values
    }

    /// The options resolved against `environment`.
    func resolve(environment: [String: String]) throws(FeedwebOptions.Failure) -> FeedwebOptions.Resolved {
        try FeedwebOptions.resolve(
            commandLine: commandLineValues, environment: environment, defaultPublicDirectory: PublicDirectory.locate)
    }

    func run() async throws {
        let options: FeedwebOptions.Resolved
        do {
            options = try resolve(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
        let status = await Self.serve(options)
        if status != 0 { throw ExitCode(status) }
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
        let host = configuration.listen.isIPv6 ? "[\(configuration.listen.host)]" : configuration.listen.host
        logger.info("feedweb listening on http://\(host):\(port)/ (source: \(configuration.source.label))")
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
        logger.info("feedweb stopped in \(signals.elapsedText)")
        return status
    }
}

/// The entry point: ArgumentParser's own `main()` would exit with status 64 on a usage
/// error; the contract says 2.
@main
enum FeedwebMain {
    /// Parses, resolves and runs; every usage error exits with status 2.
    static func main() async {
        let command: FeedwebCommand
        do {
            let parsed = try FeedwebCommand.parseAsRoot()
            guard let root = parsed as? FeedwebCommand else {
                // `--help` and `-h` parse as ArgumentParser's own help command.
                var other = parsed
                try other.run()
                FeedwebCommand.exit()
            }
            command = root
        } catch {
            if FeedwebCommand.exitCode(for: error) == .success { FeedwebCommand.exit(withError: error) }  // --help
            fail(FeedwebCommand.fullMessage(for: error), withUsage: false)
        }
        let options: FeedwebOptions.Resolved
        do {
            options = try command.resolve(environment: ProcessInfo.processInfo.environment)
        } catch {
            fail(error.description)
        }
        exit(await FeedwebCommand.serve(options))
    }

    /// Writes a usage error and exits with status 2.
    private static func fail(_ message: String, withUsage: Bool = true) -> Never {
        var text = message.hasPrefix("Error:") ? message : "Error: \(message)"
        if withUsage { text += "\nSee 'feedweb --help' for the options." }
        FileHandle.standardError.write(Data((text + "\n").utf8))
        Foundation.exit(2)
    }
}
