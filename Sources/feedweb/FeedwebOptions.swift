import FeedCore
import Foundation
import Logging
import WebUI

/// The options of `feedweb`, resolved: each from the command line, else from its
/// environment variable (`FEEDWEB_` + the name in upper case with `-` as `_`), else its
/// default; checked, with errors that name the option (and the variable, when the value
/// came from one).
///
/// Environment rules: an empty variable counts as unset; a repeatable option's variable
/// holds one value per line; when the command line gives an option, its variable is not
/// read at all (for repeatable ones too). A source on the command line (`--upstream` or
/// `--poll`) also overrides a source from the environment, so `FEEDWEB_UPSTREAM` in a
/// service file does not clash with a `--poll` typed by hand.
enum FeedwebOptions {
    /// Every option's name (without `--`), in `--help` order.
    static let names = [
        "listen", "upstream", "mode", "poll", "interval", "header", "profile", "items-path", "key-path",
        "version-path", "field", "mark", "keep", "history", "state-file", "max-clients", "head-timeout",
        "max-event-bytes", "max-backoff", "read-timeout", "ca-file", "frame-ancestors", "log-level", "public-dir",
        "demo-interval", "cluster", "cluster-node",
    ]
    /// The options that may be given more than once.
    static let repeatable: Set<String> = ["header", "field", "mark"]

    /// The longest duration any option takes; longer values count as this (no overflow).
    static let longestDuration: Double = 365 * 24 * 3600

    /// The environment variable of option `name`: `max-clients` → `FEEDWEB_MAX_CLIENTS`.
    static func variable(for name: String) -> String {
        "FEEDWEB_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// One option's values and where they came from.
    struct Input: Equatable {
        var values: [String]
        /// The environment variable they came from; `nil` for the command line.
        var variable: String?
    }

    /// What the options resolve to.
    struct Resolved {
        var configuration: FeedwebConfiguration
        var logLevel: Logger.Level
        /// Things worth a warning in the log: unknown `FEEDWEB_…` variables (typos), options
        /// given on the command line that the chosen source does not use.
        var warnings: [String] = []
    }

    /// A wrong option or value.
    struct Failure: Error, CustomStringConvertible, Equatable {
        let option: String
        let variable: String?
        let message: String

        var description: String {
            let name = "--\(option)"
            return variable.map { "\(name) (from \($0)): \(message)" } ?? "\(name): \(message)"
        }
    }

    /// Each option's values: the command line's when it has any, else the environment's.
    static func merge(commandLine: [String: [String]], environment: [String: String]) -> [String: Input] {
        var inputs: [String: Input] = [:]
        for name in names {
            if let values = commandLine[name], !values.isEmpty {
                inputs[name] = Input(values: values, variable: nil)
                continue
            }
            let variable = variable(for: name)
            guard let text = environment[variable], !text.isEmpty else { continue }
            let values =
                repeatable.contains(name)
                ? text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
                    String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
                }.filter { !$0.isEmpty }
                : [text]
            if !values.isEmpty { inputs[name] = Input(values: values, variable: variable) }
        }
        // A source given on the command line replaces any source from the environment.
        let commandLineSource = ["upstream", "poll"].contains { inputs[$0]?.variable == nil && inputs[$0] != nil }
        if commandLineSource {
            for name in ["upstream", "poll"] where inputs[name]?.variable != nil { inputs[name] = nil }
        }
        return inputs
    }

    /// Resolves and checks everything.
    static func resolve(
        commandLine: [String: [String]], environment: [String: String], defaultPublicDirectory: () -> String
    ) throws(Failure) -> Resolved {
        let options = Reader(inputs: merge(commandLine: commandLine, environment: environment))

        let listenText = options.single("listen") ?? "127.0.0.1:8080"
        let listen: ListenAddress
        do {
            listen = try ListenAddress(parsing: listenText)
        } catch {
            throw options.failure("listen", "'\(listenText)' is not HOST:PORT (e.g. 127.0.0.1:8080 or [::1]:8080)")
        }

        // The source.
        let upstream = try options.url("upstream", transport: nil)
        let poll = try options.url("poll", transport: .http)
        if upstream != nil, poll != nil {
            let other = options.inputs["upstream"]?.variable.map { "--upstream (from \($0))" } ?? "--upstream"
            throw options.failure("poll", "cannot be combined with \(other): feedweb reads one source")
        }
        let webSocket = upstream.map { UpstreamEndpoint.transport(of: $0) == .webSocket } ?? false
        let modeText = options.single("mode") ?? "document"
        guard ["document", "append", "firebase"].contains(modeText) else {
            throw options.failure("mode", "must be document, append or firebase, not '\(modeText)'")
        }
        if modeText != "document" && upstream == nil {
            let reads = modeText == "firebase" ? "an SSE feed" : "an SSE feed or a WebSocket"
            throw options.failure(
                "mode", "\(modeText) reads \(reads): it needs --upstream URL\(poll != nil ? ", not --poll" : "")")
        }
        if modeText == "firebase" && webSocket {
            throw options.failure("mode", "firebase reads an SSE feed (http or https), not a WebSocket")
        }
        let append = modeText == "append"
        let interval = try options.seconds("interval", default: 5)
        let keep = try options.integer("keep", default: 200, in: 1...100_000)
        let source: FeedwebConfiguration.Source
        if let upstream, webSocket {
            source = .webSocket(url: upstream, mode: append ? .append(keep: keep) : .document)
        } else if let upstream {
            switch modeText {
            case "append": source = .append(url: upstream, keep: keep)
            case "firebase": source = .firebase(url: upstream)
            default: source = .sse(url: upstream)
            }
        } else if let poll {
            source = .poll(url: poll, interval: interval)
        } else {
            source = .demo
        }

        var profile = try options.profile(append: append)
        profile.marks = try options.marks()

        var configuration = FeedwebConfiguration(
            listen: listen, source: source, profile: profile,
            publicDirectory: try options.directory("public-dir") ?? defaultPublicDirectory())
        configuration.headers = try options.headers()
        configuration.history = try options.integer("history", default: 1000, in: 0...1_000_000)
        configuration.maxClients = try options.integer("max-clients", default: 10_000, in: 1...1_000_000)
        configuration.headTimeout = try options.seconds("head-timeout", default: 10)
        configuration.maxEventBytes = try options.integer(
            "max-event-bytes", default: 16 * 1024 * 1024, in: 1024...(1 << 30))
        configuration.maxBackoff = try options.seconds("max-backoff", default: 30)
        configuration.readTimeout = try options.seconds("read-timeout", default: 45)
        configuration.demoInterval = try options.seconds("demo-interval", default: 4)
        configuration.stateFile = try options.stateFile()
        if let caFile = options.single("ca-file") {
            if let problem = UpstreamTrust.problem(withCAFile: caFile) { throw options.failure("ca-file", problem) }
            configuration.caFile = caFile
        }
        configuration.frameAncestors = try options.frameAncestors()
        if let text = options.single("cluster") {
            do {
                configuration.cluster = try PostgresClusterSettings(url: text)
            } catch {
                throw options.failure("cluster", error.description)
            }
        }
        if let node = options.single("cluster-node") {
            guard !node.isEmpty, node.count <= 100, node.allSatisfy({ !$0.isNewline && $0 != "\0" }) else {
                throw options.failure("cluster-node", "must be a name of 1 to 100 characters on one line")
            }
            configuration.clusterNode = node
        }

        let levelText = options.single("log-level") ?? "info"
        guard let level = Logger.Level(rawValue: levelText) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw options.failure("log-level", "unknown level '\(levelText)'; levels are \(levels)")
        }
        var warnings: [String] = []
        let known = Set(names.map(variable(for:)))
        for name in environment.keys.sorted() where name.hasPrefix("FEEDWEB_") && !known.contains(name) {
            warnings.append("the environment variable \(name) is not a feedweb option; ignored")
        }
        let unused: [(option: String, used: Bool, needs: String)] = [
            ("interval", poll != nil, "--poll"), ("keep", append, "--mode append"),
            ("demo-interval", upstream == nil && poll == nil, "the demo (no --upstream or --poll)"),
            ("cluster-node", configuration.cluster != nil, "--cluster"),
        ]
        for (option, used, needs) in unused where !used && options.inputs[option]?.variable == nil {
            if options.inputs[option] != nil { warnings.append("--\(option) only applies with \(needs); ignored") }
        }
        return Resolved(configuration: configuration, logLevel: level, warnings: warnings)
    }
}

/// Reads and checks single options.
private struct Reader {
    let inputs: [String: FeedwebOptions.Input]

    func failure(_ name: String, _ message: String) -> FeedwebOptions.Failure {
        FeedwebOptions.Failure(option: name, variable: inputs[name]?.variable, message: message)
    }

    /// The value of a single-valued option (the last one given).
    func single(_ name: String) -> String? {
        inputs[name]?.values.last
    }

    func values(_ name: String) -> [String] {
        inputs[name]?.values ?? []
    }

    /// A source URL: of `transport`'s schemes, or (`nil`) of any source's: http, https, ws
    /// or wss. A wrong one is named redacted (it may hold a password or an API key).
    func url(_ name: String, transport: UpstreamEndpoint.Transport?) throws(FeedwebOptions.Failure) -> String? {
        guard let text = single(name) else { return nil }
        let checked = transport ?? UpstreamEndpoint.transport(of: text)
        guard UpstreamEndpoint.problem(withURL: text, transport: checked) != nil else { return text }
        let schemes =
            transport == nil && checked == .http
            ? "http(s) or ws(s)" : (checked == .http ? "http or https" : "ws or wss")
        throw failure(name, "'\(URLRedaction.redacted(text))' is not an absolute \(schemes) URL")
    }

    /// `--mark 'LABEL:/pointer=value'` values.
    func marks() throws(FeedwebOptions.Failure) -> [ItemMark] {
        var marks: [ItemMark] = []
        for text in values("mark") {
            do {
                marks.append(try ItemMark(parsing: text))
            } catch {
                throw failure(
                    "mark", "'\(text)' \(error.description); use LABEL:/pointer=value, e.g. 'New user:/type=newuser'")
            }
        }
        return marks
    }

    /// A number of seconds, at least 0.05; values over a year count as a year.
    func seconds(_ name: String, default value: Double) throws(FeedwebOptions.Failure) -> Duration {
        var seconds = value
        if let text = single(name) {
            guard let parsed = Double(text.trimmingCharacters(in: .whitespaces)), parsed.isFinite, parsed > 0 else {
                throw failure(name, "must be a positive number of seconds, not '\(text)'")
            }
            guard parsed >= 0.05 else { throw failure(name, "must be at least 0.05 seconds, not '\(text)'") }
            seconds = parsed
        }
        let clamped = min(seconds, FeedwebOptions.longestDuration)
        return .milliseconds(Int64(clamped * 1000))
    }

    func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws(FeedwebOptions.Failure) -> Int {
        guard let text = single(name) else { return value }
        guard let parsed = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(parsed) else {
            throw failure(
                name, "must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return parsed
    }

    /// A JSON Pointer; with `noneAllowed`, `""` and `none` mean none.
    func pointer(_ name: String, noneAllowed: Bool) throws(FeedwebOptions.Failure) -> JSONPointer?? {
        guard let text = single(name) else { return .none }
        if noneAllowed && (text.isEmpty || text == "none") { return .some(nil) }
        do {
            return .some(try JSONPointer(text))
        } catch {
            throw failure(name, "'\(text)' is not a JSON Pointer (\(error); e.g. /results)")
        }
    }

    /// The profile, then `--items-path`, `--key-path`, `--version-path` and `--field` over it.
    func profile(append: Bool) throws(FeedwebOptions.Failure) -> ItemProfile {
        let defaultName = append ? "wikimedia-recentchange" : "nyt-newswire"
        let name = single("profile") ?? defaultName
        guard var profile = ItemProfile.named(name) else {
            throw failure(
                "profile", "unknown profile '\(name)'; profiles are \(ItemProfile.names.joined(separator: ", "))")
        }
        let appendItems = JSONPointer(tokens: ["items"])
        if case .some(let items?) = try pointer("items-path", noneAllowed: false) {
            if append && items != appendItems {
                throw failure("items-path", "append mode keeps its items at /items, not at '\(items)'")
            }
            profile.itemsPath = items
        }
        if append { profile.itemsPath = appendItems }
        if case .some(let key) = try pointer("key-path", noneAllowed: true) {
            profile.keyPath = key
            // None means none: every item keyed by a hash of its JSON, not by the
            // profile's fallbacks (`/id`, `/url`, …) either.
            if key == nil { profile.fallbackKeyPaths = [] }
        }
        if case .some(let version) = try pointer("version-path", noneAllowed: true) {
            profile.versionPath = version
        }
        for mapping in values("field") {
            guard let equals = mapping.firstIndex(of: "=") else {
                throw failure("field", "'\(mapping)' is not NAME=/pointer (e.g. title=/headline)")
            }
            let fieldName = String(mapping[..<equals]).trimmingCharacters(in: .whitespaces)
            let pointerText = String(mapping[mapping.index(after: equals)...])
            guard let field = ItemProfile.Field(rawValue: fieldName) else {
                let fields = ItemProfile.Field.allCases.map(\.rawValue).joined(separator: ", ")
                throw failure("field", "unknown field '\(fieldName)'; fields are \(fields)")
            }
            if pointerText.isEmpty || pointerText == "none" {
                profile.fields[field] = nil
                continue
            }
            do {
                profile.fields[field] = try JSONPointer(pointerText)
            } catch {
                throw failure("field", "'\(pointerText)' for \(fieldName) is not a JSON Pointer (\(error))")
            }
        }
        return profile
    }

    /// `--header "Name: value"` lines (values are never echoed: they may be secrets).
    func headers() throws(FeedwebOptions.Failure) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for (index, line) in values("header").enumerated() {
            guard let colon = line.firstIndex(of: ":") else {
                throw failure("header", "header \(index + 1) is not \"Name: value\" (there is no colon)")
            }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if let problem = UpstreamEndpoint.problem(withHeaderName: name, value: value) {
                throw failure("header", problem)
            }
            headers.append((name, value))
        }
        return headers
    }

    func directory(_ name: String) throws(FeedwebOptions.Failure) -> String? {
        guard let path = single(name) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw failure(name, "'\(path)' is not a directory")
        }
        return path
    }

    /// The state file's path: its directory must exist and be writable; it must not be a
    /// directory itself.
    func stateFile() throws(FeedwebOptions.Failure) -> String? {
        guard let path = single("state-file") else { return nil }
        guard !path.isEmpty, !path.hasSuffix("/") else { throw failure("state-file", "'\(path)' is not a file path") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw failure("state-file", "'\(path)' is a directory")
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw failure("state-file", "the directory '\(directory)' does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw failure("state-file", "cannot write in the directory '\(directory)'")
        }
        return path
    }

    /// `--frame-ancestors`: CSP sources as typed, with or without the quotes of 'self' and
    /// 'none' (see ``FrameAncestors``); every value given, each split at spaces.
    func frameAncestors() throws(FeedwebOptions.Failure) -> String {
        let words = values("frame-ancestors")
        guard !words.isEmpty else { return FrameAncestors.ownOrigin.directiveValue }
        do {
            return try FrameAncestors(parsing: words).directiveValue
        } catch {
            throw failure("frame-ancestors", error.description)
        }
    }
}
