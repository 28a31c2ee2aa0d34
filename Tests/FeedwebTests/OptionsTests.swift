import FeedCore
import Foundation
import TestSupport
import Testing

@testable import feedweb

/// The command line through the real binary, for what needs a process: `--help` and
/// `--version` printed and exit 0; exit status 2 and the message on standard error for a
/// wrong word, option or value (from the command line or a variable); a `--listen` that
/// cannot be bound; the environment read; huge values at work. What each option resolves
/// to, and every message, is checked in this process by ``OptionResolverTests``.
@Suite(.timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct OptionsTests {
    @Test("--help and -h print the option table's help and exit 0")
    func help() async throws {
        let run = try await FeedwebRun.run(["--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput == FeedwebHelp.text)
        for option in FeedwebOptions.all {
            #expect(run.standardOutput.contains(option.synopsis), "--help does not list \(option.flag)")
        }
        #expect(run.standardError.isEmpty)
        let short = try await FeedwebRun.run(["-h"])
        #expect(short.status == 0)
        #expect(short.standardOutput == run.standardOutput)
    }

    @Test(
        "a wrong word, option or value exits 2 with the message naming it, and nothing listens",
        arguments: [
            (["--bogus"], [:], "Error: Unknown option '--bogus'"),
            (["--interval"], [:], "Error: Missing value for '--interval SECONDS'"),
            (["stray"], [:], "Error: Unexpected argument 'stray'"),
            (["--interval", "abc"], [:], "Error: --interval: must be a positive number of seconds, not 'abc'"),
            ([], ["FEEDWEB_INTERVAL": "soon"], "Error: --interval (from FEEDWEB_INTERVAL): must be a positive number"),
            (
                ["--column", "Price=/price:currency"], [:],
                "Error: --column: 'Price=/price:currency' has an unknown format 'currency'"
            ),
            ([], ["FEEDWEB_COLUMN": "Price"], "Error: --column (from FEEDWEB_COLUMN): 'Price' has no '=/pointer'"),
            (
                ["--allow-origin", "https://intranet.example/"], [:],
                "Error: --allow-origin: 'https://intranet.example/' has a path (/)"
            ),
        ] as [([String], [String: String], String)])
    func badOption(arguments: [String], environment: [String: String], message: String) async throws {
        let run = try await FeedwebRun.run(arguments, environment: environment)
        #expect(run.status == 2, "stderr: \(run.standardError)")
        #expect(run.standardError.hasPrefix(message), "stderr: \(run.standardError)")
        #expect(run.standardError.hasSuffix("See 'feedweb --help' for the options.\n"))
        #expect(run.standardOutput.isEmpty, "nothing listens")
        #expect(run.seconds < 5)
    }

    @Test("--version prints the version and the commit (or that the build did not record one), and exits 0")
    func version() async throws {
        let run = try await FeedwebRun.run(["--version"])
        #expect(run.status == 0, "stderr: \(run.standardError)")
        let line = run.standardOutput.trimmingCharacters(in: .newlines)
        let commit = try #require(line.firstMatch(of: /^feedweb \d+\.\d+\.\d+ \(commit (.+)\)$/), "printed: \(line)")
        let recorded = String(commit.1)
        #expect(
            recorded == "not recorded in this build" || recorded.wholeMatch(of: /[0-9a-f]{16}/) != nil,
            "commit: \(recorded)")
        #expect(run.standardError.isEmpty)
    }

    @Test("a --listen port that is in use exits 2 with a message naming --listen")
    func busyListenPort() async throws {
        let taken = try ListeningSocket()
        defer { taken.close() }
        let run = try await FeedwebRun.run(["--listen", "127.0.0.1:\(taken.port)"])
        #expect(run.status == 2, "stderr: \(run.standardError)")
        #expect(
            run.standardError.contains("--listen: cannot listen on 127.0.0.1:\(taken.port)"),
            "stderr: \(run.standardError)")
        #expect(run.standardError.contains("in use"))
        #expect(run.standardOutput.isEmpty, "nothing listens")

        let fromVariable = try await FeedwebRun.run([], environment: ["FEEDWEB_LISTEN": "127.0.0.1:\(taken.port)"])
        #expect(fromVariable.status == 2)
        #expect(fromVariable.standardError.contains("--listen:"))
    }

    @Test("the binary reads its environment: a variable reaches the pages, a typo in a name is logged")
    func environmentRead() async throws {
        let environment = [
            "FEEDWEB_FRAME_ANCESTORS": "https://env.example", "FEEDWEB_DEMO_INTERVAL": "60",
            "FEEDWEB_FRAME_ANCESTRY": "typo",
        ]
        let feedweb = try await FeedwebProcess(arguments: [], environment: environment)
        defer { feedweb.kill() }
        let page = try await HTTPTestClient.get(port: feedweb.port, "/")
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors https://env.example") == true)
        #expect(feedweb.log.contains("FEEDWEB_FRAME_ANCESTRY is not a feedweb option"), "a typo is logged")
    }

    @Test("huge values are taken (durations as a year at most): feedweb serves, stays connected, streams work")
    func hugeValues() async throws {
        let feedweb = try await FeedwebProcess(arguments: [
            "--max-backoff", "1e300", "--read-timeout", "1e300", "--demo-interval", "1e300", "--interval", "1e300",
            "--head-timeout", "1e300",
            "--history", "1000000", "--max-clients", "1000000", "--max-event-bytes", "1073741824", "--keep", "100000",
        ])
        defer { feedweb.kill() }
        // The demo's document arrives and /events serves it: an overflowed read timeout
        // would drop the upstream at once, an overflowed client limit refuse the stream.
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        let client = try await SSETestClient(port: feedweb.port)
        #expect(client.status == 200)
        let data = try await client.next(type: "data", within: 5)
        #expect(try JSONValue(parsing: data.data)["results"]?.arrayValue?.isEmpty == false)
        let upstream = try await FeedwebProbe.readiness(port: feedweb.port).body["upstream"]
        #expect(upstream?["state"] == .string("open"))
        #expect(upstream?["reconnects"] == .int(0))
        client.close()
        let stopped = await feedweb.stop()
        #expect(stopped?.status == 0)
    }
}
