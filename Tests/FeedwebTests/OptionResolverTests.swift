import FeedCore
import Foundation
import Testing
import WebUI

@testable import feedweb

/// The command line and the environment resolved in this process, without starting
/// feedweb: every kind of wrong option or value is a message naming it (and the variable
/// it came from); the environment's rules; what the options set.
@Suite
struct OptionResolverTests {
    /// `arguments` and `environment` resolved as `feedweb ARGUMENTS` with that environment
    /// would resolve them.
    static func resolve(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(FeedwebOptions.Failure) -> FeedwebOptions.Resolved {
        guard case .run(let values) = try CommandLineRequest(parsing: arguments) else {
            throw FeedwebOptions.Failure(option: nil, message: "\(arguments) asks for no run")
        }
        return try FeedwebOptions.resolve(commandLine: values, environment: environment)
    }

    /// What feedweb says of `arguments` and `environment` before exiting with status 2, or
    /// `nil` when they resolve.
    static func failure(_ arguments: [String], environment: [String: String] = [:]) -> String? {
        do throws(FeedwebOptions.Failure) {
            _ = try resolve(arguments, environment: environment)
            return nil
        } catch {
            return error.description
        }
    }

    /// The configuration `arguments` resolve to.
    static func configuration(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws -> FeedwebConfiguration {
        try resolve(arguments, environment: environment).configuration
    }

    /// A wrong command line and what the message must contain.
    struct BadCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let expected: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badCases: [BadCase] = [
        BadCase(arguments: ["--bogus"], expected: ["Unknown option '--bogus'"]),
        BadCase(
            arguments: ["--threads", "0"], expected: ["--threads: must be a whole number from 1 to 1024, not '0'"]),
        BadCase(arguments: ["--lisen", "x"], expected: ["Unknown option '--lisen'. Did you mean '--listen'?"]),
        BadCase(arguments: ["-x"], expected: ["Unknown option '-x'"]),
        BadCase(arguments: ["stray"], expected: ["Unexpected argument 'stray'"]),
        BadCase(arguments: ["--", "--listen"], expected: ["Unexpected argument '--listen'"]),
        BadCase(arguments: ["--interval"], expected: ["Missing value for '--interval SECONDS'"]),
        BadCase(arguments: ["--interval", "--keep", "3"], expected: ["Missing value for '--interval SECONDS'"]),
        BadCase(arguments: ["--frame-ancestors", "--keep", "3"], expected: ["Missing value for '--frame-ancestors"]),
        BadCase(arguments: ["--interval", "abc"], expected: ["--interval: must be a positive number of seconds"]),
        BadCase(arguments: ["--interval", "0"], expected: ["--interval: must be a positive number of seconds"]),
        BadCase(arguments: ["--interval", "0.01"], expected: ["--interval: must be at least 0.05 seconds"]),
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
        BadCase(
            arguments: ["--poll", "127.0.0.1:8070/quotes?api_key=SECRET"],
            expected: [
                "--poll:",
                "not an absolute http or https URL; did you mean 'http://127.0.0.1:8070/quotes?api_key=REDACTED'?",
            ]),
        BadCase(arguments: ["--mark", "New user"], expected: ["--mark: 'New user' has no ':/pointer'"]),
        BadCase(arguments: ["--playlist", "lobby"], expected: ["--playlist: 'lobby' has no '='"]),
        BadCase(arguments: ["--playlist", "lo by=v=list"], expected: ["--playlist: 'lo by' is not a name"]),
        BadCase(arguments: ["--playlist", "lobby=v=list&dim=25:00-07:00"], expected: ["--playlist: 'lobby': dim:"]),
        BadCase(arguments: ["--dim", "22-7"], expected: ["--dim: '22-7' is not a range of times", "HH:MM-HH:MM"]),
        BadCase(arguments: ["--attention", "soon"], expected: ["--attention: must be a whole number from 0"]),
        BadCase(arguments: ["--attention", "86401"], expected: ["--attention: must be a whole number from 0"]),
        BadCase(arguments: ["--mark", "New user:/type"], expected: ["--mark:", "no '=value'"]),
        BadCase(arguments: ["--mark", ":/type=newuser"], expected: ["--mark:", "empty label"]),
        BadCase(arguments: ["--mark", "X:/a~2=1"], expected: ["--mark:", "not a JSON Pointer"]),
        BadCase(arguments: ["--column", "Price"], expected: ["--column: 'Price' has no '=/pointer'"]),
        BadCase(arguments: ["--column", "=/price"], expected: ["--column: '=/price' has an empty label"]),
        BadCase(arguments: ["--column", "Price=price"], expected: ["--column: 'Price=price'", "not a JSON Pointer"]),
        BadCase(arguments: ["--column", "Price=/a~7"], expected: ["--column: 'Price=/a~7'", "not a JSON Pointer"]),
        BadCase(
            arguments: ["--column", "Price=/price:currency"],
            expected: ["--column: 'Price=/price:currency' has an unknown format 'currency'", "number, percent"]),
        BadCase(
            arguments: ["--column", "Price=/price", "--column", "price=/last"],
            expected: ["--column: two columns are called 'price'"]),
        BadCase(arguments: ["--sort", ":desc"], expected: ["--sort: ':desc' is not a column to sort by"]),
        BadCase(arguments: ["--title", "  "], expected: ["--title: must not be empty"]),
        BadCase(arguments: ["--mode", "append"], expected: ["--mode:", "--upstream"]),
        BadCase(
            arguments: ["--mode", "append", "--poll", "http://127.0.0.1:9/x"], expected: ["--mode:", "not --poll"]),
        BadCase(
            arguments: ["--upstream", "http://127.0.0.1:9/a", "--mode", "append", "--items-path", "/results"],
            expected: ["--items-path: append mode keeps its items at /items, not at '/results'"]),
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
        BadCase(
            arguments: ["--upstream", "http://127.0.0.1:9/feed", "--send", "{}"],
            expected: ["--send: sends text messages on a WebSocket: it needs --upstream ws://… or wss://…"]),
        BadCase(arguments: ["--send", "{}"], expected: ["--send: sends text messages on a WebSocket"]),
        BadCase(
            arguments: ["--upstream", "ws://127.0.0.1:9/ws", "--send", "a", "--send", ""],
            expected: ["--send: message 2 is empty"]),
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
        BadCase(
            arguments: ["--allow-origin", "https://intranet.example/"],
            expected: ["--allow-origin: 'https://intranet.example/' has a path (/)", "scheme://host[:port]"]),
        BadCase(
            arguments: ["--allow-origin", "http://127.0.0.1:8000/app?x=1"],
            expected: ["--allow-origin: 'http://127.0.0.1:8000/app?x=1' has a path"]),
        BadCase(
            arguments: ["--allow-origin", "intranet.example"],
            expected: ["--allow-origin: 'intranet.example' is not an origin", "or *"]),
        BadCase(
            arguments: ["--allow-origin", "ftp://files.example"],
            expected: ["--allow-origin: 'ftp://files.example' is not an http or https origin"]),
        BadCase(
            arguments: ["--allow-origin", "https://a.example:99999"],
            expected: ["--allow-origin: 'https://a.example:99999' has no valid port"]),
        BadCase(
            arguments: ["--allow-origin", "https://a.example:0"],
            expected: ["--allow-origin: 'https://a.example:0' has no valid port"]),
        BadCase(arguments: ["--allow-origin", "https://"], expected: ["--allow-origin: 'https://' has no valid host"]),
        BadCase(
            arguments: ["--allow-origin", "https://user@a.example"],
            expected: ["--allow-origin: 'https://user@a.example' has no valid host"]),
        BadCase(
            arguments: ["--allow-origin", "https://a.example", "--allow-origin", "**"],
            expected: ["--allow-origin: '**' is not an origin"]),
        BadCase(arguments: ["--allow-origin", ""], expected: ["--allow-origin: '' is not an origin"]),
        BadCase(arguments: ["--demo-interval", "0"], expected: ["--demo-interval: must be a positive number"]),
        BadCase(arguments: ["--log-level", "loud"], expected: ["--log-level: unknown level 'loud'"]),
        BadCase(
            arguments: ["--public-dir", "/nonexistent"], expected: ["--public-dir: '/nonexistent' is not a directory"]),
        BadCase(arguments: ["--cluster", "mysql://x@h/db"], expected: ["--cluster:"]),
        BadCase(arguments: ["--cluster-node", ""], expected: ["--cluster-node: must be a name of 1 to 100"]),
    ]

    @Test("a wrong option or value is a message naming it", arguments: badCases)
    func badOption(_ bad: BadCase) {
        let message = Self.failure(bad.arguments)
        for text in bad.expected {
            #expect(message?.contains(text) == true, "message: \(message ?? "none: the options resolved")")
        }
    }

    @Test(
        "an invalid source URL or cluster URL is named without its secrets",
        arguments: [
            (["--upstream", "ftp://alice:PASSWD@example.com/feed?token=SECRETKEY"], "--upstream"),
            (["--poll", "ws://alice:PASSWD@example.com/feed?api-key=SECRETTWO"], "--poll"),
            (["--upstream", "http://alice:PASSWD@/feed?token=SECRETKEY"], "--upstream"),
            (["--upstream", "wss://alice:PASSWD@example.com/x?token=SECRETKEY", "--mode", "firebase"], "--mode"),
            (["--cluster", "postgres://u:PASSWD@/nodb"], "--cluster"),
        ] as [([String], String)])
    func secretsNotEchoed(arguments: [String], named: String) throws {
        let message = try #require(Self.failure(arguments))
        #expect(message.contains(named), "\(message)")
        for secret in ["PASSWD", "SECRETKEY", "SECRETTWO"] {
            #expect(!message.contains(secret), "\(message)")
        }
    }

    @Test("a wrong value from an environment variable names the option and the variable")
    func badEnvironment() {
        #expect(
            Self.failure([], environment: ["FEEDWEB_INTERVAL": "soon"])?.contains(
                "--interval (from FEEDWEB_INTERVAL): must be a positive number") == true)
        #expect(
            Self.failure([], environment: ["FEEDWEB_MARK": "New user:/type=newuser\nbroken"])?.contains(
                "--mark (from FEEDWEB_MARK): 'broken' has no ':/pointer'") == true)
        #expect(
            Self.failure([], environment: ["FEEDWEB_FIELD": "title=/t\nbogus=/x"])?.contains(
                "--field (from FEEDWEB_FIELD): unknown field 'bogus'") == true)
        #expect(
            Self.failure([], environment: ["FEEDWEB_CLUSTER": "mysql://x@h/db"])?.contains("FEEDWEB_CLUSTER") == true)

        let both = Self.failure(
            [], environment: ["FEEDWEB_UPSTREAM": "http://127.0.0.1:9/a", "FEEDWEB_POLL": "http://127.0.0.1:9/b"])
        #expect(
            both == "--poll (from FEEDWEB_POLL): cannot be combined with --upstream (from FEEDWEB_UPSTREAM): "
                + "feedweb reads one source")

        // The option wins: a bad command-line value is not excused by a good variable.
        let overridden = Self.failure(["--log-level", "loud"], environment: ["FEEDWEB_LOG_LEVEL": "info"])
        #expect(overridden?.hasPrefix("--log-level: unknown level 'loud'") == true, "\(overridden ?? "")")
        #expect(overridden?.contains("FEEDWEB_LOG_LEVEL") == false)
    }

    @Test("a variable is used when its option is absent, not read when it is given; an empty one counts as unset")
    func environmentFallback() throws {
        let environment = [
            "FEEDWEB_FRAME_ANCESTORS": "https://env.example", "FEEDWEB_DEMO_INTERVAL": "60",
            "FEEDWEB_FRAME_ANCESTRY": "typo", "FEEDWEB_HISTORY": "",
        ]
        let fromVariable = try Self.resolve([], environment: environment)
        #expect(fromVariable.configuration.frameAncestors == "https://env.example")
        #expect(fromVariable.configuration.sources.demoInterval == .seconds(60))
        #expect(fromVariable.configuration.history == 1000, "an empty variable counts as unset")
        #expect(
            fromVariable.warnings == [
                "the environment variable FEEDWEB_FRAME_ANCESTRY is not a feedweb option; ignored"
            ])

        let fromOption = try Self.configuration(
            ["--frame-ancestors", "https://option.example"], environment: ["FEEDWEB_FRAME_ANCESTORS": "bad;value"])
        #expect(fromOption.frameAncestors == "https://option.example", "the variable is not even checked")
    }

    @Test("a repeatable option's variable holds one value per line; the command line replaces them all")
    func repeatableEnvironment() throws {
        let environment = ["FEEDWEB_HEADER": "X-One: 1\r\nX-Two: 2\n\n"]
        let fromVariable = try Self.configuration([], environment: environment)
        #expect(fromVariable.sources.headers.map { $0.name } == ["X-One", "X-Two"])
        #expect(fromVariable.sources.headers.map { $0.value } == ["1", "2"])
        let fromOption = try Self.configuration(["--header", "X-Three: 3"], environment: environment)
        #expect(fromOption.sources.headers.map { $0.name } == ["X-Three"])
    }

    @Test("--allow-origin keeps origins as a browser sends them, * for any; none by default; its variable one a line")
    func allowOrigin() throws {
        #expect(try Self.configuration([]).allowedOrigins == .none)
        let given = try Self.configuration([
            "--allow-origin", "HTTPS://Intranet.Example:443", "--allow-origin", "http://[::1]:8000",
            "--allow-origin", "http://127.0.0.1:80",
        ]).allowedOrigins
        #expect(given.origins == ["https://intranet.example", "http://[::1]:8000", "http://127.0.0.1"])
        #expect(!given.allowsAny)
        #expect(given.allows("https://intranet.example") && given.allows("http://127.0.0.1"))
        #expect(!given.allows("https://intranet.example:8443") && !given.allows("null"))
        #expect(try Self.configuration(["--allow-origin", "*"]).allowedOrigins.allowsAny)

        let fromVariable = try Self.configuration(
            [], environment: ["FEEDWEB_ALLOW_ORIGIN": "https://a.example\r\nhttp://b.example:8080\n\n"]
        ).allowedOrigins
        #expect(fromVariable.origins == ["https://a.example", "http://b.example:8080"])
        #expect(
            Self.failure([], environment: ["FEEDWEB_ALLOW_ORIGIN": "https://a.example\nhttps://b.example/"])?.contains(
                "--allow-origin (from FEEDWEB_ALLOW_ORIGIN): 'https://b.example/' has a path") == true)
        let fromOption = try Self.configuration(
            ["--allow-origin", "https://c.example"], environment: ["FEEDWEB_ALLOW_ORIGIN": "bad"]
        ).allowedOrigins
        #expect(fromOption.origins == ["https://c.example"], "the option wins; the variable is not read")
    }

    @Test("--public-origin takes an origin as a browser sends it, a / after it allowed; links are paths by default")
    func publicOrigin() throws {
        #expect(try Self.configuration([]).links == .paths)
        #expect(try Self.configuration([]).links.origin == "")
        for (given, origin) in [
            ("HTTPS://Dash.Example:443/", "https://dash.example"), ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("http://[::1]:80", "http://[::1]"),
        ] {
            #expect(try Self.configuration(["--public-origin", given]).links.origin == origin, "\(given)")
        }
        #expect(
            try Self.configuration([], environment: ["FEEDWEB_PUBLIC_ORIGIN": "https://tv.example"]).links.origin
                == "https://tv.example")
        for (given, says) in [
            ("https://dash.example/feed", "has a path (/feed)"), ("dash.example", "is not an origin"),
            ("ftp://dash.example", "is not an http or https origin"), ("https://dash.example?x=1", "has a query"),
            ("https://dash.example:99999", "has no valid port"), ("*", "is not an origin"),
        ] {
            let message = Self.failure(["--public-origin", given])
            #expect(message?.contains("or *") == false, "one origin, not any: \(message ?? "accepted")")
            #expect(
                message?.contains("--public-origin: '\(given)' \(says)") == true, "\(given): \(message ?? "accepted")")
        }
    }

    @Test("--attention and --dim set what boards and kiosks do where their URL does not say; none by default")
    func screenDefaults() throws {
        let plain = try Self.configuration([]).screens
        #expect(plain.attention == 0 && plain.dim == nil)
        let given = try Self.configuration(["--attention", "12", "--dim", "22:30-06:45"]).screens
        #expect(given.attention == 12 && given.dim == "22:30-06:45")
        let fromVariables = try Self.configuration(
            [], environment: ["FEEDWEB_ATTENTION": "5", "FEEDWEB_DIM": "01:00-02:00"]
        ).screens
        #expect(fromVariables.attention == 5 && fromVariables.dim == "01:00-02:00")
    }

    @Test("a source on the command line overrides the environment's source")
    func commandLineSourceWins() throws {
        let configuration = try Self.configuration(
            ["--poll", "http://127.0.0.1:9/api", "--interval", "10"],
            environment: ["FEEDWEB_UPSTREAM": "http://127.0.0.1:9/never"])
        guard case .poll(let url, let interval) = configuration.sources.source else {
            Issue.record("source: \(configuration.sources.source.label)")
            return
        }
        #expect(url == "http://127.0.0.1:9/api")
        #expect(interval == .seconds(10))
        #expect(configuration.sources.comparedPollInterval == .seconds(10), "/stats compares with the polls made")
    }

    @Test(
        "--frame-ancestors takes CSP sources as a shell passes them and sends keywords quoted",
        arguments: [
            (["--frame-ancestors", "self", "https://intranet.example"], [:], "'self' https://intranet.example"),
            (["--frame-ancestors", "'self' https://intranet.example"], [:], "'self' https://intranet.example"),
            (["--frame-ancestors", "'NONE'"], [:], "'none'"),
            (
                ["--frame-ancestors=self", "https://a.example", "--frame-ancestors", "b.example"], [:],
                "'self' https://a.example b.example"
            ),
            ([], ["FEEDWEB_FRAME_ANCESTORS": "self *.example.com:8443 https:"], "'self' *.example.com:8443 https:"),
        ] as [([String], [String: String], String)])
    func frameAncestorsAsTyped(arguments: [String], environment: [String: String], sources: String) throws {
        #expect(try Self.configuration(arguments, environment: environment).frameAncestors == sources)
    }

    @Test("without options: the defaults the contract states")
    func defaults() throws {
        let resolved = try Self.resolve([])
        let configuration = resolved.configuration
        #expect(configuration.server.address.description == "127.0.0.1:8080")
        #expect(configuration.sources.source.label == "demo newswire")
        #expect(configuration.profile == .nytNewswire)
        #expect(configuration.history == 1000)
        #expect(configuration.server.maxStreams == 10_000)
        #expect(configuration.server.headTimeout == .seconds(10))
        #expect(configuration.sources.maxEventBytes == 16 * 1024 * 1024)
        #expect(configuration.sources.maxBackoff == .seconds(30))
        #expect(configuration.sources.readTimeout == .seconds(45))
        #expect(configuration.sources.demoInterval == .seconds(4))
        #expect(configuration.frameAncestors == "'self'")
        #expect(
            configuration.sources.headers.isEmpty && configuration.stateFile == nil
                && configuration.sources.caFile == nil)
        #expect(configuration.cluster == nil && configuration.clusterNode == nil)
        #expect(configuration.server.connectionTimeout == 60)
        #expect(configuration.streams.maxQueuedBytesPerClient == 4 * 1024 * 1024)
        #expect(configuration.streams.stallTimeout == .seconds(5))
        #expect(configuration.streams.heartbeatInterval == .seconds(15))
        #expect(configuration.sources.comparedPollInterval == .seconds(5), "/stats compares the demo with 5 s polls")
        #expect(resolved.logLevel == .info)
        #expect(resolved.warnings.isEmpty)

        guard case .poll(_, let interval) = try Self.configuration(["--poll", "http://127.0.0.1:9/api"]).sources.source
        else {
            Issue.record("--poll is not a polled source")
            return
        }
        #expect(interval == .seconds(5))
        let append = try Self.configuration(["--upstream", "http://127.0.0.1:9/rc", "--mode", "append"])
        guard case .append(_, let keep) = append.sources.source else {
            Issue.record("--mode append is not an append source: \(append.sources.source.label)")
            return
        }
        #expect(keep == 200)
        // Found in the first document (Wikimedia's events are recognised), at /items.
        #expect(append.profileDetection?.itemsPath == JSONPointer(tokens: ["items"]))
        #expect(append.profileDetection?.itemsArriveAlone == true)
    }

    @Test("the application's own defaults are the binary's: one FeedwebConfiguration() for both")
    func configurationDefaultsAreTheBinarys() throws {
        let resolved = try Self.configuration([])
        let inProcess = FeedwebConfiguration()
        #expect(resolved.server.address == inProcess.server.address)
        #expect(resolved.history == inProcess.history)
        #expect(resolved.server.maxStreams == inProcess.server.maxStreams)
        #expect(resolved.server.headTimeout == inProcess.server.headTimeout)
        #expect(resolved.sources.maxEventBytes == inProcess.sources.maxEventBytes)
        #expect(resolved.sources.maxBackoff == inProcess.sources.maxBackoff)
        #expect(resolved.sources.readTimeout == inProcess.sources.readTimeout)
        #expect(resolved.sources.demoInterval == inProcess.sources.demoInterval)
        #expect(resolved.server.connectionTimeout == inProcess.server.connectionTimeout)
        #expect(resolved.streams.stallTimeout == inProcess.streams.stallTimeout)
        #expect(resolved.streams.heartbeatInterval == inProcess.streams.heartbeatInterval)
        #expect(resolved.streams.maxQueuedBytesPerClient == inProcess.streams.maxQueuedBytesPerClient)
        #expect(resolved.frameAncestors == inProcess.frameAncestors)
        #expect(resolved.profile == inProcess.profile)
        #expect(resolved.publicDirectory == inProcess.publicDirectory)
    }

    @Test("the source each combination of --upstream, --poll and --mode names")
    func sources() throws {
        let labels = try [
            ["--upstream", "http://127.0.0.1:9/feed"],
            ["--upstream", "http://127.0.0.1:9/feed", "--mode", "firebase"],
            ["--upstream", "http://127.0.0.1:9/rc", "--mode", "append", "--keep", "7"],
            ["--upstream", "ws://127.0.0.1:9/ws"],
            ["--upstream", "wss://127.0.0.1:9/ws", "--mode", "append"],
            ["--poll", "http://127.0.0.1:9/api"],
        ].map { try Self.configuration($0).sources.source.label }
        #expect(
            labels == [
                "http://127.0.0.1:9/feed", "firebase http://127.0.0.1:9/feed", "append http://127.0.0.1:9/rc",
                "ws://127.0.0.1:9/ws", "append wss://127.0.0.1:9/ws", "poll http://127.0.0.1:9/api",
            ])
    }

    @Test("--send: the messages in order, for a WebSocket")
    func sendOnOpen() throws {
        let configuration = try Self.configuration([
            "--upstream", "wss://127.0.0.1:9/ws", "--mode", "append", "--send", #"{"type":"subscribe"}"#,
            "--send=second",
        ])
        #expect(configuration.sources.sendOnOpen == [#"{"type":"subscribe"}"#, "second"])
    }

    @Test("--key-path in append mode puts a new version of an item in its place; not without a key, nor for documents")
    func keyedAppend() throws {
        let ws = ["--upstream", "wss://127.0.0.1:9/ws", "--mode", "append"]
        let sse = ["--upstream", "http://127.0.0.1:9/ticker", "--mode", "append"]
        let key = JSONPointer(tokens: ["product_id"])
        #expect(try Self.configuration(ws + ["--key-path", "/product_id"]).sources.itemsPutInPlaceAt == key)
        #expect(try Self.configuration(sse + ["--key-path", "/product_id"]).sources.itemsPutInPlaceAt == key)
        #expect(try Self.configuration(sse).sources.itemsPutInPlaceAt == nil)
        #expect(try Self.configuration(sse + ["--key-path", "none"]).sources.itemsPutInPlaceAt == nil)
        let document = ["--upstream", "http://127.0.0.1:9/doc", "--key-path", "/product_id"]
        #expect(try Self.configuration(document).sources.itemsPutInPlaceAt == nil)
    }

    @Test("--items-path, --key-path, --version-path, --field and --mark over the profile, from options or variables")
    func profileOptions() throws {
        let options = [
            "--profile", "generic", "--items-path", "/data/entries", "--key-path", "/ident", "--version-path", "/v",
            "--field", "title=/headline", "--field", "section=/desk", "--field", "byline=",
            "--mark", "Big:/size=large",
        ]
        let variables = [
            "FEEDWEB_PROFILE": "generic", "FEEDWEB_ITEMS_PATH": "/data/entries", "FEEDWEB_KEY_PATH": "/ident",
            "FEEDWEB_VERSION_PATH": "/v", "FEEDWEB_FIELD": "title=/headline\nsection=/desk\nbyline=",
            "FEEDWEB_MARK": "Big:/size=large",
        ]
        var expected = ItemProfile.generic
        expected.itemsPath = try JSONPointer("/data/entries")
        expected.keyPath = try JSONPointer("/ident")
        expected.versionPath = try JSONPointer("/v")
        expected.fields[.title] = try JSONPointer("/headline")
        expected.fields[.section] = try JSONPointer("/desk")
        expected.fields[.byline] = nil
        expected.marks = [try ItemMark(parsing: "Big:/size=large")]
        #expect(try Self.configuration(options).profile == expected)
        #expect(try Self.configuration([], environment: variables).profile == expected)

        // Each option wins over its variable, which points elsewhere.
        let elsewhere = [
            "FEEDWEB_PROFILE": "google-books", "FEEDWEB_ITEMS_PATH": "/archive", "FEEDWEB_KEY_PATH": "/id",
            "FEEDWEB_VERSION_PATH": "none", "FEEDWEB_FIELD": "title=/desk", "FEEDWEB_MARK": "Small:/size=small",
        ]
        #expect(try Self.configuration(options, environment: elsewhere).profile == expected)
    }

    @Test(
        "--key-path none keys items by a hash, not by the profile's fallback ids; --version-path none drops the guard")
    func pointersToNothing() throws {
        let profile = try Self.configuration(["--profile", "generic", "--key-path", "none", "--version-path", ""])
            .profile
        #expect(profile.keyPath == nil)
        #expect(profile.fallbackKeyPaths.isEmpty)
        #expect(profile.versionPath == nil)
    }

    @Test("--threads sets the shards; by default one per core this process may run on")
    func threads() throws {
        let three = try Self.configuration(["--threads", "3"]).server
        #expect(three.shards == 3 && three.requestThreads == 3 && three.streamSenders == 3)
        #expect(try Self.configuration([], environment: ["FEEDWEB_THREADS": "5"]).server.shards == 5)
        #expect(try Self.configuration([]).server.shards == HTTPServer.Configuration.availableCores())
    }

    @Test("huge values are taken: durations as a year at most, numbers up to their bounds")
    func hugeValues() throws {
        let configuration = try Self.configuration([
            "--max-backoff", "1e300", "--read-timeout", "1e300", "--demo-interval", "1e300", "--head-timeout", "1e300",
            "--history", "1000000", "--max-clients", "1000000", "--max-event-bytes", "1073741824",
        ])
        let year: Duration = .seconds(365 * 24 * 3600)
        #expect(configuration.sources.maxBackoff == year)
        #expect(configuration.sources.readTimeout == year)
        #expect(configuration.sources.demoInterval == year)
        #expect(configuration.server.headTimeout == year)
        #expect(configuration.history == 1_000_000)
        #expect(configuration.server.maxStreams == 1_000_000)
        #expect(configuration.sources.maxEventBytes == 1 << 30)
    }

    @Test("an option the source does not use is a warning when typed, not when it comes from a variable")
    func unusedOptions() throws {
        let typed = try Self.resolve(["--interval", "3", "--keep", "9", "--cluster-node", "n1", "--event", "trade"])
            .warnings
        #expect(
            typed == [
                "--interval only applies with --poll; ignored", "--keep only applies with --mode append; ignored",
                "--event only applies with --mode append; ignored",
                "--cluster-node only applies with --cluster; ignored",
            ])
        let events = try Self.configuration([
            "--upstream", "http://127.0.0.1:9/feed", "--mode", "append", "--event", "trade", "--event", "quote",
        ])
        #expect(events.sources.chosenEvents == ["trade", "quote"])
        let graphQL = try Self.configuration([
            "--poll", "http://127.0.0.1:9/graphql", "--poll-body", #"{"query":"{ builds { id } }"}"#,
        ])
        #expect(graphQL.sources.pollBody == #"{"query":"{ builds { id } }"}"#)
        #expect(
            try Self.resolve(["--upstream", "http://127.0.0.1:9/feed", "--poll-body", "{}"]).warnings == [
                "--poll-body only applies with --poll; ignored"
            ])
        // A broker's wildcard in document mode, said; one topic, or append mode, not.
        let wildcard = try Self.resolve(["--upstream", "mqtt://127.0.0.1:9/home/#"]).warnings
        #expect(wildcard.count == 1 && wildcard.first?.contains("--mode append keeps a row a topic") == true)
        #expect(try Self.resolve(["--upstream", "mqtt://127.0.0.1:9/home/+/state", "--mode", "append"]).warnings == [])
        #expect(try Self.resolve(["--upstream", "mqtt://127.0.0.1:9/board/state"]).warnings == [])
        let broker = try Self.configuration(["--upstream", "mqtts://u:p@127.0.0.1:9/a", "--mode", "append"])
        guard case .mqtt(let url, .append)? = Optional(broker.sources.source) else {
            Issue.record("not a broker: \(broker.sources.source)")
            return
        }
        #expect(url == "mqtts://u:p@127.0.0.1:9/a")
        #expect(throws: (any Error).self) { try Self.resolve(["--poll", "http://127.0.0.1:9/q", "--poll-body", ""]) }
        #expect(throws: (any Error).self) { try Self.resolve(["--event", ""]) }
        #expect(throws: (any Error).self) { try Self.resolve(["--event", "a\nb"]) }
        let demo = try Self.resolve(["--upstream", "http://127.0.0.1:9/feed", "--demo-interval", "9"]).warnings
        #expect(demo == ["--demo-interval only applies with the demo (no --upstream or --poll); ignored"])
        #expect(try Self.resolve([], environment: ["FEEDWEB_INTERVAL": "3"]).warnings.isEmpty)
    }

    @Test("the command line's words: --name=value, the last of a single option, -h, --help and --version first")
    func commandLineWords() throws {
        #expect(try Self.configuration(["--history=7", "--history", "8"]).history == 8)
        #expect(
            try Self.configuration(["--header", "A: 1", "--header=B: 2"]).sources.headers.map { $0.name } == ["A", "B"])
        let dash = Self.failure(["--key-path", "-"])
        #expect(dash?.hasPrefix("--key-path: '-' is not a JSON Pointer") == true, "- is a value: \(dash ?? "")")
        #expect(try CommandLineRequest(parsing: ["-h"]) == .help)
        #expect(try CommandLineRequest(parsing: ["--bogus", "--help"]) == .help)
        #expect(try CommandLineRequest(parsing: ["--listen", "nowhere", "--version"]) == .version)
        #expect(Self.failure(["--", "--help"]) == "Unexpected argument '--help'")
        #expect(try CommandLineRequest(parsing: []) == .run([:]))
    }
}
