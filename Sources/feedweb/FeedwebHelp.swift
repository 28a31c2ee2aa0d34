/// What `feedweb --help` prints: what feedweb does, then every option of
/// ``FeedwebOptions/all`` with its help and its default, in ArgumentParser's layout (the
/// options in a column, their help beside them), wrapped to 80 columns.
enum FeedwebHelp {
    static let overview = "Turn a live JSON feed into a live web dashboard."

    static let discussion = [
        """
        Sources (one per process): --upstream URL (an SSE feed in the document protocol; with --mode append one \
        item per event; with --mode firebase Firebase's put/patch streaming), --upstream ws(s)://… (a WebSocket: \
        --mode append takes each message as one item, document as a whole document), --upstream URL answered \
        with a stream of JSON (NDJSON, a Kubernetes watch, Docker's /events: each value read as a WebSocket \
        message is), --upstream mqtt(s)://HOST/TOPIC-FILTER (an MQTT broker: --mode append keeps each topic's \
        latest message as one item, document reads each as a whole document), --poll URL (a JSON API polled \
        with conditional requests), or, with none, the built-in demo newswire.
        """,
        """
        Every option can also be set by an environment variable: FEEDWEB_ plus the option name in upper case \
        with - as _ (--max-clients → FEEDWEB_MAX_CLIENTS). The option wins over the variable; a repeatable \
        option's variable holds one value per line; an empty variable counts as unset.
        """,
        """
        A wrong option or value exits with status 2, and so does an address in --listen that cannot be served \
        on (in use, or not this machine's). SIGTERM or SIGINT stop feedweb cleanly (streams ended, state file \
        written) with status 0.
        """,
    ]

    /// The width the text is wrapped to.
    static let width = 80
    /// Where the help of each option starts.
    static let helpColumn = 26

    /// The whole text.
    static var text: String {
        var lines = ["OVERVIEW: \(overview)", ""]
        for paragraph in discussion { lines += wrapped(paragraph, indent: 0) + [""] }
        lines += ["USAGE: feedweb [<options>]", "", "OPTIONS:"]
        for option in FeedwebOptions.all { lines += entry(label: option.synopsis, help: help(of: option)) }
        lines += entry(label: "--version", help: "Show the version.")
        lines += entry(label: "-h, --help", help: "Show help information.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// An option's help and, when it has one, its default.
    static func help(of option: FeedwebOption) -> String {
        option.help + (option.shownDefault.map { " (default: \($0))" } ?? "")
    }

    /// `label` indented by two, `help` beside it from ``helpColumn`` on (below it when the
    /// label reaches that far).
    private static func entry(label: String, help: String) -> [String] {
        var lines = wrapped(help, indent: helpColumn)
        let labelled = "  " + label
        if labelled.count + 2 <= helpColumn {
            lines[0] = labelled + lines[0].dropFirst(labelled.count)
        } else {
            lines.insert(labelled, at: 0)
        }
        return lines
    }

    /// `text`'s words in lines of at most ``width`` columns (a longer word alone on its
    /// line), each indented by `indent` spaces.
    private static func wrapped(_ text: String, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent + line.count + 1 + word.count > width {
                lines.append(margin + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(margin + line)
        return lines
    }
}
