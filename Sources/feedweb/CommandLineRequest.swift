/// What `feedweb`'s command line asks for, read by the option table (``FeedwebOptions/all``)
/// with the rules ArgumentParser applied before: `--name value` or `--name=value`; a value
/// never starts with `-` (but may be `-` or empty); a single option given twice keeps the
/// last value; `--frame-ancestors` takes every word up to the next option; `--` ends the
/// options; `-h`, `--help` and `--version` anywhere before it win over everything else.
enum CommandLineRequest: Equatable {
    case help
    case version
    /// Run with these values, by option name (without `--`), in the order given.
    case run([String: [String]])

    /// Reads `arguments` (without the program's name). A word that is no option, an
    /// unknown option or one without its value is a ``FeedwebOptions/Failure`` naming it.
    init(parsing arguments: [String]) throws(FeedwebOptions.Failure) {
        let options = arguments.prefix { $0 != "--" }
        if options.contains(where: { $0 == "-h" || $0 == "--help" }) {
            self = .help
            return
        }
        if options.contains("--version") {
            self = .version
            return
        }
        var values: [String: [String]] = [:]
        var unexpected: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                unexpected += rest
                break
            }
            guard Self.isOption(argument) else {
                unexpected.append(argument)
                continue
            }
            let equals = argument.hasPrefix("--") ? argument.firstIndex(of: "=") : nil
            let flag = equals.map { String(argument[..<$0]) } ?? argument
            guard flag.hasPrefix("--"), let option = FeedwebOptions.named(String(flag.dropFirst(2))) else {
                throw FeedwebOptions.Failure(option: nil, message: Self.unknownOption(flag))
            }
            var given = equals.map { [String(argument[argument.index(after: $0)...])] } ?? []
            let takesWords = option.repetition == .words
            while given.isEmpty || takesWords, let next = rest.first, next != "--", !Self.isOption(next) {
                given.append(next)
                rest.removeFirst()
            }
            guard !given.isEmpty else {
                throw FeedwebOptions.Failure(option: nil, message: "Missing value for '\(option.synopsis)'")
            }
            values[option.name, default: []] += given
        }
        guard unexpected.isEmpty else {
            let message =
                unexpected.count == 1
                ? "Unexpected argument '\(unexpected[0])'"
                : "\(unexpected.count) unexpected arguments: '\(unexpected.joined(separator: "', '"))'"
            throw FeedwebOptions.Failure(option: nil, message: message)
        }
        self = .run(values)
    }

    /// Whether `argument` is an option (or a mistyped one), not a value: a dash followed
    /// by more, other than the `--` that ends the options.
    static func isOption(_ argument: String) -> Bool {
        argument.count > 1 && argument.hasPrefix("-") && argument != "--"
    }

    /// Every flag the command line knows, for suggestions.
    static let flags = FeedwebOptions.all.map(\.flag) + ["--version", "--help"]

    /// "Unknown option", with the closest flag when one is near (fewer than 4 edits).
    static func unknownOption(_ flag: String) -> String {
        let closest = flags.map { (flag: $0, distance: editDistance($0, flag)) }.min { $0.distance < $1.distance }
        guard flag.hasPrefix("--"), let closest, closest.distance < 4 else { return "Unknown option '\(flag)'" }
        return "Unknown option '\(flag)'. Did you mean '\(closest.flag)'?"
    }

    /// The Levenshtein distance between `a` and `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
