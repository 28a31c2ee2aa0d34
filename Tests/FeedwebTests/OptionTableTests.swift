import Foundation
import Testing

@testable import feedweb

/// The option table is the one list: `--help` is made from it, README's option table says
/// the same (each option as typed, in order, with its default), and the defaults are the
/// contract's.
@Suite
struct OptionTableTests {
    /// README.md, at the repository's root.
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// One row of README's option table: the option as typed and its default (`nil`: none,
    /// written `—` or left empty), backticks and escapes removed.
    struct Row: Equatable {
        let synopsis: String
        let shownDefault: String?
    }

    /// The rows of README's `| option | default | what |` table.
    static func readmeRows() throws -> [Row] {
        let lines = try String(contentsOf: readme, encoding: .utf8).split(separator: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("| option | default | what |") })
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            let cells = Self.cells(of: line)
            let shown = cells.count > 1 ? cells[1] : ""
            return Row(synopsis: cells.first ?? "", shownDefault: shown.isEmpty || shown == "—" ? nil : shown)
        }
    }

    /// The cells of a Markdown table row, split at each `|` not escaped as `\|`, trimmed,
    /// without backticks.
    static func cells(of line: Substring) -> [String] {
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped {
                cell.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(cell.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
        }
        return cells
    }

    @Test("README's option table lists every option as --help does, in its order, with its default")
    func readmeMatchesTheTable() throws {
        let rows = try Self.readmeRows()
        #expect(rows.suffix(2).map(\.synopsis) == ["--version", "--help, -h"])
        let options = Array(rows.dropLast(2))
        #expect(options.map(\.synopsis) == FeedwebOptions.all.map(\.synopsis))
        for option in FeedwebOptions.all {
            let row = options.first { $0.synopsis == option.synopsis }
            #expect(
                row?.shownDefault == option.shownDefault, "\(option.flag): README says \(row?.shownDefault ?? "none")")
        }
    }

    /// The text `--help` gives `synopsis`: from its line to the next option's, whitespace
    /// collapsed.
    static func helpEntry(_ synopsis: String, in help: String) -> String? {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == "  " + synopsis || $0.hasPrefix("  " + synopsis + " ") })
        else { return nil }
        let margin = String(repeating: " ", count: FeedwebHelp.helpColumn)
        var entry = [String(lines[start].dropFirst(2 + synopsis.count))]
        entry += lines[(start + 1)...].prefix { $0.hasPrefix(margin) }.map(String.init)
        return entry.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("--help lists every option with its help and default, then --version and -h, within 80 columns")
    func helpComesFromTheTable() throws {
        let help = FeedwebHelp.text
        for option in FeedwebOptions.all {
            let expected = FeedwebHelp.help(of: option).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(Self.helpEntry(option.synopsis, in: help) == expected, "\(option.flag)")
        }
        #expect(Self.helpEntry("--version", in: help) == "Show the version.")
        #expect(Self.helpEntry("-h, --help", in: help) == "Show help information.")
        #expect(help.contains("FEEDWEB_MAX_CLIENTS"), "the environment rule is told")
        let long = help.split(separator: "\n").filter { $0.count > FeedwebHelp.width }
        #expect(long.isEmpty, "\(long)")
    }

    @Test("each option's default is the one the contract states")
    func contractDefaults() {
        let contract: [(option: String, shown: String)] = [
            ("listen", "127.0.0.1:8080"), ("interval", "5"), ("keep", "200"), ("history", "1000"),
            ("max-clients", "10000"), ("max-event-bytes", "16777216"), ("max-backoff", "30"), ("read-timeout", "45"),
            ("head-timeout", "10"), ("frame-ancestors", "'self'"), ("demo-interval", "4"), ("mode", "document"),
            ("log-level", "info"), ("profile", "found in the first document"),
        ]
        for (name, shown) in contract {
            #expect(FeedwebOptions.named(name)?.shownDefault == shown, "--\(name)")
        }
    }

    @Test("names are unique; each variable is FEEDWEB_ and the name in upper case with - as _")
    func namesAndVariables() {
        let names = FeedwebOptions.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(FeedwebOptions.named("max-clients")?.variable == "FEEDWEB_MAX_CLIENTS")
        for option in FeedwebOptions.all {
            #expect(option.variable == "FEEDWEB_" + option.name.uppercased().replacingOccurrences(of: "-", with: "_"))
            #expect(option.name.allSatisfy { $0.isLowercase || $0 == "-" }, "\(option.name)")
        }
        let repeatable = FeedwebOptions.all.filter { $0.repetition == .repeatable }.map(\.name)
        #expect(
            repeatable == [
                "header", "send", "event", "field", "mark", "playlist", "column", "allow-origin", "webhook",
                "webhook-header",
            ])
    }
}
