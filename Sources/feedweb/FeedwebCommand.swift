import ArgumentParser
import FeedCore
import Foundation
import Logging
import WebUI

/// `feedweb`: turns a live JSON feed into a live web dashboard.
@main
struct FeedwebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedweb",
        abstract: "Turn a live JSON feed into a live web dashboard.",
        discussion: """
            With no source option, feedweb runs its built-in demo newswire. Every option can also \
            be set by an environment variable: FEEDWEB_ plus the option name in upper case with - \
            as _ (--max-clients → FEEDWEB_MAX_CLIENTS); the option wins over the variable.
            """
    )

    @Option(help: "Address to serve on, HOST:PORT (IPv6 as [::1]:8080).")
    var listen: String = "127.0.0.1:8080"

    @Option(help: "Upstream SSE feed URL (document protocol). Without it, the demo newswire runs.")
    var upstream: String?

    @Option(help: "Item profile: \(ItemProfile.names.joined(separator: ", ")).")
    var profile: String = "nyt-newswire"

    @Option(help: "Extra upstream request header \"Name: value\" (repeatable).")
    var header: [String] = []

    @Option(help: "Changes kept for resuming clients.")
    var history: Int = 1000

    @Option(help: "Most concurrent SSE clients; more get 503.")
    var maxClients: Int = 10_000

    @Option(help: "Largest upstream event in bytes.")
    var maxEventBytes: Int = 16 * 1024 * 1024

    @Option(help: "Longest wait between upstream reconnects, seconds.")
    var maxBackoff: Double = 30

    @Option(help: "Upstream silence (seconds) after which the connection counts as dead.")
    var readTimeout: Double = 45

    @Option(help: "PEM file of extra CA certificates trusted for an https upstream.")
    var caFile: String?

    @Option(help: "Who may embed the pages in a frame (CSP frame-ancestors).")
    var frameAncestors: String = "'self'"

    @Option(help: "Directory of static files served under /static/ (default: the project's Public/).")
    var publicDir: String?

    @Option(help: ArgumentHelp("Seconds between demo newswire steps.", visibility: .hidden))
    var demoInterval: Double = 4

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    mutating func validate() throws {
        do {
            _ = try ListenAddress(parsing: listen)
        } catch {
            throw ValidationError("--listen: \(error)")
        }
        guard ItemProfile.named(profile) != nil else {
            throw ValidationError("--profile: unknown profile '\(profile)'; use one of \(ItemProfile.names.joined(separator: ", "))")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level: unknown level '\(logLevel)'")
        }
        guard history >= 0 else { throw ValidationError("--history: must be 0 or more") }
        guard maxClients >= 1 else { throw ValidationError("--max-clients: must be at least 1") }
        guard maxEventBytes >= 1024 else { throw ValidationError("--max-event-bytes: must be at least 1024") }
        guard maxBackoff > 0, maxBackoff.isFinite else { throw ValidationError("--max-backoff: must be a positive number of seconds") }
        guard demoInterval >= 0.05, demoInterval.isFinite else { throw ValidationError("--demo-interval: must be at least 0.05 seconds") }
        guard readTimeout > 0, readTimeout.isFinite else { throw ValidationError("--read-timeout: must be a positive number of seconds") }
        for line in header where !line.contains(":") {
            throw ValidationError("--header: '\(line)' is not \"Name: value\"")
        }
        if let upstream, URL(string: upstream)?.scheme.map({ ["http", "https"].contains($0.lowercased()) }) != true {
            throw ValidationError("--upstream: '\(upstream)' is not an http or https URL")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "feedweb")
        ResourceLimits.raiseOpenFileLimit()

        var configuration = FeedwebConfiguration(
            listen: try ListenAddress(parsing: listen),
            source: upstream.map { .sse(url: $0) } ?? .demo,
            profile: ItemProfile.named(profile) ?? .nytNewswire,
            publicDirectory: publicDir ?? PublicDirectory.locate())
        configuration.history = history
        configuration.maxClients = maxClients
        configuration.maxEventBytes = maxEventBytes
        configuration.maxBackoff = .milliseconds(Int64(maxBackoff * 1000))
        configuration.readTimeout = .milliseconds(Int64(readTimeout * 1000))
        configuration.caFile = caFile
        configuration.demoInterval = .milliseconds(Int64(demoInterval * 1000))
        configuration.frameAncestors = frameAncestors
        configuration.headers = header.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }

        let application = FeedwebApplication(configuration: configuration, logger: logger)
        let port: UInt16
        do {
            port = try application.start()
        } catch {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
        let host = configuration.listen.isIPv6 ? "[\(configuration.listen.host)]" : configuration.listen.host
        logger.info("feedweb listening on http://\(host):\(port)/")
        // Tests and scripts read this line to learn the port (with --listen HOST:0).
        FileHandle.standardOutput.write(Data("feedweb listening on http://\(host):\(port)/\n".utf8))

        let runner = Task { await application.run() }
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { signal in
            logger.info("received signal \(signal); shutting down")
            runner.cancel()
        }
        await runner.value
        application.stop()
        signals.cancel()
        logger.info("feedweb stopped")
    }
}
