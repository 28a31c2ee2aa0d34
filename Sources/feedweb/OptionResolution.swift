import FeedCore
import Foundation
import Logging
import WebUI

/// The options resolved: each from the command line, else from its environment variable,
/// else its default; checked, with errors that name the option (and the variable, when the
/// value came from one).
///
/// Environment rules: an empty variable counts as unset; a repeatable option's variable
/// holds one value per line; when the command line gives an option, its variable is not
/// read at all (for repeatable ones too). A source on the command line (`--upstream` or
/// `--poll`) also overrides a source from the environment, so `FEEDWEB_UPSTREAM` in a
/// service file does not clash with a `--poll` typed by hand.
extension FeedwebOptions {
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
        /// `--export-templates`: write the built-in templates there and exit, not serve.
        var exportTemplates: String?
        /// Things worth a warning in the log: unknown `FEEDWEB_…` variables (typos), options
        /// given on the command line that the chosen source does not use.
        var warnings: [String] = []
    }

    /// A wrong option or value: what feedweb says before it exits with status 2.
    struct Failure: Error, CustomStringConvertible, Equatable {
        /// The option it names, without `--`; `nil` for a word that is no option of feedweb's.
        let option: String?
        /// The environment variable the value came from, if it did.
        let variable: String?
        let message: String

        init(option: String?, variable: String? = nil, message: String) {
            self.option = option
            self.variable = variable
            self.message = message
        }

        var description: String {
            guard let option else { return message }
            let name = "--\(option)"
            return variable.map { "\(name) (from \($0)): \(message)" } ?? "\(name): \(message)"
        }
    }

    /// The options that name a source: one on the command line replaces both variables.
    private static let sources = ["upstream", "poll"]

    /// Each option's values: the command line's when it has any, else the environment's.
    static func merge(commandLine: [String: [String]], environment: [String: String]) -> [String: Input] {
        var inputs: [String: Input] = [:]
        for option in all {
            if let values = commandLine[option.name], !values.isEmpty {
                inputs[option.name] = Input(values: values, variable: nil)
                continue
            }
            guard let text = environment[option.variable], !text.isEmpty else { continue }
            let values =
                option.repetition == .repeatable
                ? text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
                    String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
                }.filter { !$0.isEmpty }
                : [text]
            if !values.isEmpty { inputs[option.name] = Input(values: values, variable: option.variable) }
        }
        if sources.contains(where: { inputs[$0] != nil && inputs[$0]?.variable == nil }) {
            for name in sources where inputs[name]?.variable != nil { inputs[name] = nil }
        }
        return inputs
    }

    /// Reads every option given into the settings, in table order, then puts the source and
    /// the profile together and checks the options against each other.
    static func resolve(
        commandLine: [String: [String]], environment: [String: String]
    ) throws(Failure) -> Resolved {
        let inputs = merge(commandLine: commandLine, environment: environment)
        var settings = FeedwebSettings()
        for option in all {
            guard let input = inputs[option.name] else { continue }
            do throws(FeedwebOption.Problem) {
                try option.read(input.values, &settings)
            } catch {
                throw Failure(option: option.name, variable: input.variable, message: error.message)
            }
        }
        let resolution = Resolution(settings: settings, inputs: inputs)
        let configuration = try resolution.configuration()
        var warnings: [String] = []
        let known = Set(all.map(\.variable))
        for name in environment.keys.sorted() where name.hasPrefix("FEEDWEB_") && !known.contains(name) {
            warnings.append("the environment variable \(name) is not a feedweb option; ignored")
        }
        warnings += resolution.unusedOptions(in: configuration)
        return Resolved(
            configuration: configuration, logLevel: settings.logLevel, exportTemplates: settings.exportTemplates,
            warnings: warnings)
    }
}

/// What several options mean together: the source, the profile, the options the source
/// does not use.
private struct Resolution {
    let settings: FeedwebSettings
    let inputs: [String: FeedwebOptions.Input]

    /// Append mode's items, where the document `{"items":[…]}` keeps them.
    static let appendItems = JSONPointer(tokens: ["items"])

    func failure(_ name: String, _ message: String) -> FeedwebOptions.Failure {
        FeedwebOptions.Failure(option: name, variable: inputs[name]?.variable, message: message)
    }

    /// The settings' configuration with its source and profile.
    func configuration() throws(FeedwebOptions.Failure) -> FeedwebConfiguration {
        var configuration = settings.configuration
        if let source = try source() { configuration.sources.source = source }
        (configuration.profile, configuration.profileDetection) = try profile()
        // A key given in append mode says which item an item is: a new version takes its place.
        if settings.mode == .append, case .at(let key)? = settings.keyPath {
            configuration.sources.itemsPutInPlaceAt = key
        }
        return configuration
    }

    /// The source that `--upstream`, `--poll`, `--mode`, `--interval` and `--keep` name;
    /// `nil` for none (the configuration's: the demo).
    func source() throws(FeedwebOptions.Failure) -> FeedwebConfiguration.Source? {
        let (upstream, poll, mode) = (settings.upstream, settings.poll, settings.mode)
        if upstream != nil, poll != nil {
            let other = inputs["upstream"]?.variable.map { "--upstream (from \($0))" } ?? "--upstream"
            throw failure("poll", "cannot be combined with \(other): feedweb reads one source")
        }
        let webSocket = upstream.map { UpstreamEndpoint.transport(of: $0) == .webSocket } ?? false
        let mqtt = upstream.map { UpstreamEndpoint.transport(of: $0) == .mqtt } ?? false
        if mode != .document && upstream == nil {
            let reads = mode == .firebase ? "an SSE feed" : "an SSE feed or a WebSocket"
            throw failure(
                "mode", "\(mode.rawValue) reads \(reads): it needs --upstream URL\(poll != nil ? ", not --poll" : "")")
        }
        if !settings.configuration.sources.sendOnOpen.isEmpty && !webSocket {
            throw failure("send", "sends text messages on a WebSocket: it needs --upstream ws://… or wss://…")
        }
        if mode == .firebase && (webSocket || mqtt) {
            throw failure("mode", "firebase reads an SSE feed (http or https), not a \(mqtt ? "broker" : "WebSocket")")
        }
        if let upstream, mqtt {
            return .mqtt(url: upstream, mode: mode == .append ? .append(keep: settings.keep) : .document)
        }
        if let upstream, webSocket {
            return .webSocket(url: upstream, mode: mode == .append ? .append(keep: settings.keep) : .document)
        }
        if let upstream {
            switch mode {
            case .document: return .sse(url: upstream)
            case .append: return .append(url: upstream, keep: settings.keep)
            case .firebase: return .firebase(url: upstream)
            }
        }
        return poll.map { .poll(url: $0, interval: settings.pollInterval) }
    }

    /// The profile: `--profile` (or, for the demo, the configuration's) with
    /// `--items-path`, `--key-path`, `--version-path`, `--field`, `--mark`, `--column` and
    /// `--sort` over it; without `--profile`, those options over what the first document
    /// with items shows (``ItemShapeDetector``).
    func profile() throws(FeedwebOptions.Failure) -> (profile: ItemProfile, detection: ItemProfile.Overrides?) {
        let append = settings.mode == .append
        var overrides = ItemProfile.Overrides()
        if let items = settings.itemsPath {
            if append && items != Self.appendItems {
                throw failure("items-path", "append mode keeps its items at /items, not at '\(items)'")
            }
            overrides.itemsPath = items
        }
        if append {
            overrides.itemsPath = Self.appendItems
            overrides.itemsArriveAlone = true
        }
        overrides.keyPath = settings.keyPath
        overrides.versionPath = settings.versionPath
        overrides.fields = settings.fields.map { ItemProfile.FieldPointer(field: $0.field, pointer: $0.pointer) }
        overrides.marks = settings.marks
        overrides.columns = settings.columns
        overrides.sort = settings.sort
        let demo = settings.upstream == nil && settings.poll == nil
        if let named = settings.profile ?? (demo ? settings.configuration.profile : nil) {
            return (overrides.applied(to: named), nil)
        }
        return (overrides.applied(to: .table), overrides)
    }

    /// A warning for each option given on the command line that `configuration` does not use.
    func unusedOptions(in configuration: FeedwebConfiguration) -> [String] {
        let (upstream, poll) = (settings.upstream, settings.poll)
        let unused: [(option: String, used: Bool, needs: String)] = [
            ("interval", poll != nil, "--poll"), ("poll-body", poll != nil, "--poll"),
            ("keep", settings.mode == .append, "--mode append"),
            ("event", settings.mode == .append, "--mode append"),
            ("demo-interval", upstream == nil && poll == nil, "the demo (no --upstream or --poll)"),
            ("cluster-node", configuration.cluster != nil, "--cluster"),
        ]
        var warnings = unused.filter { !$0.used && inputs[$0.option] != nil && inputs[$0.option]?.variable == nil }.map
        {
            "--\($0.option) only applies with \($0.needs); ignored"
        }
        // A broker's wildcard read as documents: each topic's message would replace the rest.
        if case .mqtt(let url, .document) = configuration.sources.source, let parsed = URL(string: url),
            MQTTMessages.topicFilter(of: parsed).contains(where: { $0 == "#" || $0 == "+" })
        {
            warnings.append(
                "--upstream subscribes to several topics, and in document mode each message replaces the whole document; --mode append keeps a row a topic"
            )
        }
        return warnings
    }
}
