import FeedCore
import Foundation
import TestSupport
import Testing

/// The command line through the real binary: `--help`, exit status 2 with a message naming
/// the option for every kind of wrong option or value, environment variables.
@Suite(.timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct OptionsTests {
    /// Every option the contract lists (plus `--public-dir`), as `--help` must show them —
    /// except `--cluster`, which this version does not implement yet.
    static let documented = [
        "--listen", "--upstream", "--mode", "--poll", "--interval", "--header", "--profile", "--items-path",
        "--key-path", "--version-path", "--field", "--mark", "--keep", "--history", "--state-file", "--max-clients",
        "--head-timeout", "--max-event-bytes", "--max-backoff", "--read-timeout", "--ca-file", "--frame-ancestors",
        "--log-level",
        "--public-dir", "--demo-interval", "--version",
    ]

    @Test("--help exits 0 and lists every option with its text and the environment rule")
    func help() async throws {
        let run = try await FeedwebRun.run(["--help"])
        #expect(run.status == 0)
        for option in Self.documented {
            #expect(run.standardOutput.contains(option), "--help does not list \(option)")
        }
        #expect(run.standardOutput.contains("FEEDWEB_MAX_CLIENTS"))
        let short = try await FeedwebRun.run(["-h"])
        #expect(short.status == 0)
    }

    /// A wrong command line and what the message must contain.
    struct BadCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let expected: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badCases: [BadCase] = [
        BadCase(arguments: ["--bogus"], expected: ["--bogus"]),
        BadCase(arguments: ["--interval"], expected: ["--interval"]),
        BadCase(arguments: ["--interval", "abc"], expected: ["--interval: must be a positive number of seconds"]),
        BadCase(arguments: ["--interval", "0"], expected: ["--interval: must be a positive number of seconds"]),
        BadCase(
            arguments: ["--max-backoff", "nan"], expected: ["--max-backoff: must be a positive number of seconds"]),
        BadCase(arguments: ["--read-timeout", "inf"], expected: ["--read-timeout:"]),
        BadCase(
            arguments: ["--head-timeout", "0"], expected: ["--head-timeout: must be a positive number of seconds"]),
        BadCase(
            arguments: ["--field", "foo=/x"], expected: ["--field: unknown field 'foo'; fields are title, section"]),
        BadCase(arguments: ["--field", "title"], expected: ["--field:", "NAME=/pointer"]),
        BadCase(arguments: ["--field", "title=headline"], expected: ["--field:", "not a JSON Pointer"]),
        BadCase(arguments: ["--items-path", "results"], expected: ["--items-path: 'results' is not a JSON Pointer"]),
        BadCase(arguments: ["--key-path", "id"], expected: ["--key-path:", "not a JSON Pointer"]),
        BadCase(arguments: ["--version-path", "n"], expected: ["--version-path:", "not a JSON Pointer"]),
        BadCase(arguments: ["--profile", "nope"], expected: ["--profile: unknown profile 'nope'", "nyt-newswire"]),
        BadCase(arguments: ["--mode", "sideways"], expected: ["--mode: must be document, append or firebase"]),
        BadCase(
            arguments: ["--mode", "firebase", "--poll", "http://127.0.0.1:9/x"],
            expected: ["--mode: firebase reads an SSE feed", "not --poll"]),
        BadCase(
            arguments: ["--mode", "firebase", "--upstream", "ws://127.0.0.1:9/x"],
            expected: ["--mode: firebase reads an SSE feed (http or https), not a WebSocket"]),
        BadCase(arguments: ["--upstream", "ws:///no-host"], expected: ["--upstream:", "ws or wss"]),
        BadCase(
            arguments: ["--poll", "ws://127.0.0.1:9/x"], expected: ["--poll:", "not an absolute http or https URL"]),
        BadCase(arguments: ["--mark", "New user"], expected: ["--mark: 'New user' has no ':/pointer'"]),
        BadCase(arguments: ["--mark", "New user:/type"], expected: ["--mark:", "no '=value'"]),
        BadCase(arguments: ["--mark", ":/type=newuser"], expected: ["--mark:", "empty label"]),
        BadCase(arguments: ["--mark", "X:/a~2=1"], expected: ["--mark:", "not a JSON Pointer"]),
        BadCase(arguments: ["--mode", "append"], expected: ["--mode:", "--upstream"]),
        BadCase(
            arguments: ["--mode", "append", "--poll", "http://127.0.0.1:9/x"], expected: ["--mode:", "not --poll"]),
        BadCase(
            arguments: ["--upstream", "http://127.0.0.1:9/a", "--poll", "http://127.0.0.1:9/b"],
            expected: ["--poll: cannot be combined with --upstream"]),
        BadCase(arguments: ["--upstream", "ftp://example.com/x"], expected: ["--upstream:", "http"]),
        BadCase(arguments: ["--poll", "not a url"], expected: ["--poll:"]),
        BadCase(arguments: ["--listen", "nowhere"], expected: ["--listen: 'nowhere' is not HOST:PORT"]),
        BadCase(arguments: ["--keep", "0"], expected: ["--keep: must be a whole number from 1"]),
        BadCase(arguments: ["--history", "many"], expected: ["--history: must be a whole number"]),
        BadCase(arguments: ["--max-clients", "99999999999999999999999"], expected: ["--max-clients:"]),
        BadCase(
            arguments: ["--max-event-bytes", "10"], expected: ["--max-event-bytes: must be a whole number from 1024"]),
        BadCase(arguments: ["--header", "NoColonHere"], expected: ["--header:", "Name: value"]),
        BadCase(arguments: ["--header", "Bad Name: x"], expected: ["--header: 'Bad Name' is not a valid header name"]),
        BadCase(arguments: ["--ca-file", "/nonexistent/ca.pem"], expected: ["--ca-file: cannot read"]),
        BadCase(
            arguments: ["--state-file", "/nonexistent/dir/state.json"], expected: ["--state-file:", "does not exist"]),
        BadCase(arguments: ["--state-file", "/tmp"], expected: ["--state-file: '/tmp' is a directory"]),
        BadCase(arguments: ["--frame-ancestors", "'self'; script-src *"], expected: ["--frame-ancestors:"]),
        BadCase(
            arguments: ["--frame-ancestors", "'unsafe-inline'"],
            expected: ["--frame-ancestors: 'unsafe-inline' is not allowed in frame-ancestors"]),
        BadCase(
            arguments: ["--frame-ancestors", "none", "https://intranet.example"],
            expected: ["--frame-ancestors: 'none' cannot be combined"]),
        BadCase(
            arguments: ["--frame-ancestors", "https://intra_net.example"],
            expected: ["--frame-ancestors: 'https://intra_net.example' is not a CSP source"]),
        BadCase(
            arguments: ["--frame-ancestors", "https://a.example,https://b.example"],
            expected: ["--frame-ancestors:", "is not a CSP source"]),
        BadCase(arguments: ["--frame-ancestors", ""], expected: ["--frame-ancestors: needs at least one source"]),
        BadCase(arguments: ["--demo-interval", "0"], expected: ["--demo-interval: must be a positive number"]),
        BadCase(arguments: ["--log-level", "loud"], expected: ["--log-level: unknown level 'loud'"]),
        BadCase(
            arguments: ["--public-dir", "/nonexistent"], expected: ["--public-dir: '/nonexistent' is not a directory"]),
    ]

    @Test("a wrong option or value exits 2 with a message naming it", arguments: badCases)
    func badOption(_ bad: BadCase) async throws {
        let run = try await FeedwebRun.run(bad.arguments)
        #expect(run.status == 2, "stderr: \(run.standardError)")
        for text in bad.expected {
            #expect(run.standardError.contains(text), "stderr: \(run.standardError)")
        }
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

    @Test(
        "--frame-ancestors takes CSP sources as a shell passes them and sends keywords quoted",
        arguments: [
            (["--frame-ancestors", "self", "https://intranet.example"], [:], "'self' https://intranet.example"),
            (["--frame-ancestors", "'self' https://intranet.example"], [:], "'self' https://intranet.example"),
            (["--frame-ancestors", "'NONE'"], [:], "'none'"),
            ([], ["FEEDWEB_FRAME_ANCESTORS": "self *.example.com:8443 https:"], "'self' *.example.com:8443 https:"),
        ] as [([String], [String: String], String)])
    func frameAncestorsAsTyped(arguments: [String], environment: [String: String], sources: String) async throws {
        let feedweb = try await FeedwebProcess(arguments: arguments, environment: environment)
        defer { feedweb.kill() }
        let page = try await HTTPTestClient.get(port: feedweb.port, "/")
        let policy = page.headers["content-security-policy"] ?? ""
        let directive = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("frame-ancestors ") }
        #expect(directive == "frame-ancestors " + sources, "policy: \(policy)")
    }

    @Test("a wrong value from an environment variable exits 2 naming the option and the variable")
    func badEnvironment() async throws {
        let interval = try await FeedwebRun.run([], environment: ["FEEDWEB_INTERVAL": "soon"])
        #expect(interval.status == 2)
        #expect(interval.standardError.contains("--interval (from FEEDWEB_INTERVAL): must be a positive number"))

        let mark = try await FeedwebRun.run([], environment: ["FEEDWEB_MARK": "New user:/type=newuser\nbroken"])
        #expect(mark.status == 2)
        #expect(mark.standardError.contains("--mark (from FEEDWEB_MARK): 'broken' has no ':/pointer'"))
        let field = try await FeedwebRun.run([], environment: ["FEEDWEB_FIELD": "title=/t\nbogus=/x"])
        #expect(field.status == 2)
        #expect(field.standardError.contains("--field (from FEEDWEB_FIELD): unknown field 'bogus'"))

        let both = try await FeedwebRun.run(
            [], environment: ["FEEDWEB_UPSTREAM": "http://127.0.0.1:9/a", "FEEDWEB_POLL": "http://127.0.0.1:9/b"])
        #expect(both.status == 2)
        #expect(both.standardError.contains("FEEDWEB_POLL"))
        #expect(both.standardError.contains("FEEDWEB_UPSTREAM"))

        // The option wins: a good command-line value hides a bad variable.
        let overridden = try await FeedwebRun.run(["--log-level", "loud"], environment: ["FEEDWEB_LOG_LEVEL": "info"])
        #expect(overridden.status == 2)
        #expect(overridden.standardError.contains("--log-level: unknown level 'loud'"))
        #expect(!overridden.standardError.contains("FEEDWEB_LOG_LEVEL"))
    }

    @Test("an environment variable is used when the option is absent and overridden when present")
    func environmentFallback() async throws {
        let environment = [
            "FEEDWEB_FRAME_ANCESTORS": "https://env.example", "FEEDWEB_DEMO_INTERVAL": "60",
            "FEEDWEB_FRAME_ANCESTRY": "typo",
        ]
        let fromVariable = try await FeedwebProcess(arguments: [], environment: environment)
        defer { fromVariable.kill() }
        let page = try await HTTPTestClient.get(port: fromVariable.port, "/")
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors https://env.example") == true)
        #expect(fromVariable.log.contains("FEEDWEB_FRAME_ANCESTRY is not a feedweb option"), "a typo is logged")

        let fromOption = try await FeedwebProcess(
            arguments: ["--frame-ancestors", "https://option.example"], environment: environment)
        defer { fromOption.kill() }
        let optionPage = try await HTTPTestClient.get(port: fromOption.port, "/")
        let policy = optionPage.headers["content-security-policy"] ?? ""
        #expect(policy.contains("frame-ancestors https://option.example"))
        #expect(!policy.contains("env.example"))
    }

    @Test("a repeatable option's variable holds one value per line; the command line replaces them all")
    func repeatableEnvironment() async throws {
        let server = try await ScriptedSSEServer.start { _ in
            .stream([.text(SSEText.event("data", data: #"{"results":[]}"#))], ending: .stayOpen)
        }
        defer { server.shutdownNow() }
        let environment = ["FEEDWEB_HEADER": "X-One: 1\r\nX-Two: 2\n\n", "FEEDWEB_UPSTREAM": server.url("/feed")]
        let fromVariable = try await FeedwebProcess(arguments: [], environment: environment)
        let first = try await server.waitForRequests(1)[0]
        #expect(first.header("X-One") == "1")
        #expect(first.header("X-Two") == "2")
        let stopped = await fromVariable.stop()
        #expect(stopped?.status == 0, "stopped: \(String(describing: stopped)); log: \(fromVariable.log)")

        let fromOption = try await FeedwebProcess(arguments: ["--header", "X-Three: 3"], environment: environment)
        let second = try await server.waitForRequests(2)[1]
        #expect(second.header("X-Three") == "3")
        #expect(second.header("X-One") == nil)
        #expect(await fromOption.stop()?.status == 0)
    }

    @Test("a source on the command line overrides the environment's source")
    func commandLineSourceWins() async throws {
        let server = try await ScriptedSSEServer.start { _ in
            .status(200, headers: [("Content-Type", "application/json")], body: #"{"items":[]}"#)
        }
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(
            arguments: ["--poll", server.url("/api"), "--interval", "10"],
            environment: ["FEEDWEB_UPSTREAM": "http://127.0.0.1:9/never"])
        defer { feedweb.kill() }
        let request = try await server.waitForRequests(1)[0]
        #expect(request.path == "/api")
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
