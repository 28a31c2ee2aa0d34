import FeedCore
import Foundation
import WebUI

/// How the options' texts are read and checked: each function takes what was typed (or
/// set in a variable) and gives the value, or the ``FeedwebOption/Problem`` an exit-2
/// message says after the option's name. Nothing here knows which option it reads.
enum OptionValue {
    typealias Problem = FeedwebOption.Problem

    /// The longest duration any option takes; longer values count as this (no overflow).
    static let longestDuration: Double = 365 * 24 * 3600

    /// A number of seconds, at least 0.05, with a fraction if wanted; over a year counts as
    /// a year.
    static func seconds(_ text: String) throws(Problem) -> Duration {
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds > 0 else {
            throw Problem("must be a positive number of seconds, not '\(text)'")
        }
        guard seconds >= 0.05 else { throw Problem("must be at least 0.05 seconds, not '\(text)'") }
        return .milliseconds(Int64(min(seconds, longestDuration) * 1000))
    }

    /// `duration` in seconds as an option takes it: `30`, `0.5`.
    static func secondsText(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard attoseconds != 0 else { return String(seconds) }
        return String(Double(seconds) + Double(attoseconds) / 1e18)
    }

    static func wholeNumber(_ text: String, in range: ClosedRange<Int>) throws(Problem) -> Int {
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
            throw Problem("must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    static func listenAddress(_ text: String) throws(Problem) -> ListenAddress {
        do {
            return try ListenAddress(parsing: text)
        } catch {
            throw Problem("'\(text)' is not HOST:PORT (e.g. 127.0.0.1:8080 or [::1]:8080)")
        }
    }

    /// A source URL: of `transport`'s schemes, or (`nil`) of any source's: http, https, ws,
    /// wss, mqtt or mqtts. A wrong one is named redacted (it may hold a password or an API
    /// key).
    static func sourceURL(_ text: String, transport: UpstreamEndpoint.Transport?) throws(Problem) -> String {
        let checked = transport ?? UpstreamEndpoint.transport(of: text)
        guard UpstreamEndpoint.problem(withURL: text, transport: checked) != nil else { return text }
        let schemes = transport == nil && checked == .http ? "http(s), ws(s) or mqtt(s)" : checked.schemesText
        // A host without a scheme (`api.example/v1`, `127.0.0.1:8070/quotes`): the URL meant.
        let scheme = checked == .http ? "http://" : checked == .mqtt ? "mqtt://" : "ws://"
        let meant =
            !text.contains("://") && UpstreamEndpoint.problem(withURL: scheme + text, transport: checked) == nil
            ? "; did you mean '\(URLRedaction.redacted(scheme + text))'?" : ""
        throw Problem("'\(URLRedaction.redacted(text))' is not an absolute \(schemes) URL" + meant)
    }

    /// Webhook URLs (`--webhook`): each an absolute http or https URL, named redacted when
    /// wrong (it may hold a token).
    static func webhooks(_ texts: [String]) throws(Problem) -> [String] {
        for text in texts { _ = try sourceURL(text, transport: .http) }
        return texts
    }

    static func pointer(_ text: String) throws(Problem) -> JSONPointer {
        do {
            return try JSONPointer(text)
        } catch {
            throw Problem("'\(text)' is not a JSON Pointer (\(error); e.g. /results)")
        }
    }

    /// A JSON Pointer, or none: `""` or `none`.
    static func pointerOrNone(_ text: String) throws(Problem) -> PointerChoice {
        if text.isEmpty || text == "none" { return .nowhere }
        return .at(try pointer(text))
    }

    static func profile(_ name: String) throws(Problem) -> ItemProfile {
        guard let profile = ItemProfile.named(name) else {
            throw Problem("unknown profile '\(name)'; profiles are \(ItemProfile.names.joined(separator: ", "))")
        }
        return profile
    }

    /// `NAME=/pointer` mappings, in order; `NAME=` or `NAME=none` drops the field.
    static func fields(_ mappings: [String]) throws(Problem) -> [(field: ItemProfile.Field, pointer: JSONPointer?)] {
        var fields: [(field: ItemProfile.Field, pointer: JSONPointer?)] = []
        for mapping in mappings {
            guard let equals = mapping.firstIndex(of: "=") else {
                throw Problem("'\(mapping)' is not NAME=/pointer (e.g. title=/headline)")
            }
            let fieldName = String(mapping[..<equals]).trimmingCharacters(in: .whitespaces)
            let pointerText = String(mapping[mapping.index(after: equals)...])
            guard let field = ItemProfile.Field(rawValue: fieldName) else {
                let names = ItemProfile.Field.allCases.map(\.rawValue).joined(separator: ", ")
                throw Problem("unknown field '\(fieldName)'; fields are \(names)")
            }
            if pointerText.isEmpty || pointerText == "none" {
                fields.append((field, nil))
                continue
            }
            do {
                fields.append((field, try JSONPointer(pointerText)))
            } catch {
                throw Problem("'\(pointerText)' for \(fieldName) is not a JSON Pointer (\(error))")
            }
        }
        return fields
    }

    /// `LABEL:/pointer=value` marks (or `!=`, `<`, `<=`, `>`, `>=`).
    static func marks(_ texts: [String]) throws(Problem) -> [ItemMark] {
        var marks: [ItemMark] = []
        for text in texts {
            do {
                marks.append(try ItemMark(parsing: text))
            } catch {
                throw Problem(
                    "'\(text)' \(error.description); use LABEL:/pointer=value (or !=, <, <=, >, >= a number), "
                        + "e.g. 'New user:/type=newuser', 'Above 100:/price>100'")
            }
        }
        return marks
    }

    /// `NAME=QUERY` boards (``BoardPlaylist``), each query checked as `/board` would.
    static func playlists(_ texts: [String]) throws(Problem) -> [String: String] {
        var playlists: [String: String] = [:]
        for text in texts {
            guard let equals = text.firstIndex(of: "=") else {
                throw Problem("'\(text)' has no '='; use NAME='v=VIEW&v=VIEW&rotate=30,15'")
            }
            let name = String(text[..<equals])
            let query = String(text[text.index(after: equals)...])
            guard BoardPlaylist.isName(name) else {
                throw Problem("'\(name)' is not a name: letters, digits, '.', '_' and '-'")
            }
            if let problem = BoardPlaylist.problem(in: query) {
                throw Problem("'\(name)': \(problem)")
            }
            playlists[name] = query
        }
        return playlists
    }

    /// A dim schedule, `HH:MM-HH:MM` (``ScreenSettings/dim``).
    static func dimRange(_ text: String) throws(Problem) -> String? {
        guard ScreenSettings.isDimRange(text) else {
            throw Problem("'\(text)' is not a range of times; use HH:MM-HH:MM, e.g. 22:00-07:00")
        }
        return text
    }

    /// `LABEL=/pointer[:FORMAT]` columns, in order.
    static func columns(_ texts: [String]) throws(Problem) -> [ItemColumn] {
        var columns: [ItemColumn] = []
        for text in texts {
            do {
                columns.append(try ItemColumn(parsing: text))
            } catch {
                throw Problem(
                    "'\(text)' \(error.description); use LABEL=/pointer or LABEL=/pointer:FORMAT, e.g. 'Price=/price:number'"
                )
            }
        }
        var names = Set<String>()
        for column in columns where !names.insert(column.name).inserted {
            throw Problem("two columns are called '\(column.name)'; give each column its own label")
        }
        return columns
    }

    /// A column to sort a table by: `NAME`, `NAME:desc`, `-NAME`.
    static func sort(_ text: String) throws(Problem) -> ItemSort {
        guard let sort = ItemSort(parsing: text) else {
            throw Problem("'\(text)' is not a column to sort by; use NAME, NAME:desc or -NAME, e.g. price:desc")
        }
        return sort
    }

    /// A folder of templates that loads: every `NAME.mustache` in it parses (a parse error
    /// names its file, line and column).
    static func templates(_ path: String) throws(Problem) -> String {
        let directory = try Self.directory(path)
        do throws(TemplateLoadError) {
            _ = try TemplateSet.load(directory: directory)
        } catch {
            throw Problem(error.description)
        }
        return directory
    }

    /// A folder to write the built-in templates to: a path, not an existing file.
    static func exportFolder(_ path: String) throws(Problem) -> String {
        guard !path.isEmpty else { throw Problem("needs a folder") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Problem("'\(path)' is a file, not a folder")
        }
        return path
    }

    /// A board's name: any text but an empty one, at most 200 characters.
    static func title(_ text: String) throws(Problem) -> String {
        let title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw Problem("must not be empty") }
        guard title.count <= 200 else { throw Problem("must be at most 200 characters, not \(title.count)") }
        return title
    }

    /// `Name: value` header lines (values are never echoed: they may be secrets).
    static func headers(_ lines: [String]) throws(Problem) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for (index, line) in lines.enumerated() {
            guard let colon = line.firstIndex(of: ":") else {
                throw Problem("header \(index + 1) is not \"Name: value\" (there is no colon)")
            }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if let problem = UpstreamEndpoint.problem(withHeaderName: name, value: value) { throw Problem(problem) }
            headers.append((name, value))
        }
        return headers
    }

    /// Text messages to send (`--send`): any text but an empty one.
    static func messages(_ texts: [String]) throws(Problem) -> [String] {
        if let empty = texts.firstIndex(where: \.isEmpty) { throw Problem("message \(empty + 1) is empty") }
        return texts
    }

    /// A poll's request body as given (`--poll-body`): not empty.
    static func pollBody(_ text: String) throws(Problem) -> String? {
        guard !text.isEmpty else { throw Problem("must not be empty") }
        return text
    }

    /// Event names as given (`--event`): none empty, none with a line break (an SSE event's
    /// name ends at one).
    static func eventNames(_ names: [String]) throws(Problem) -> [String] {
        if let empty = names.firstIndex(where: \.isEmpty) { throw Problem("event name \(empty + 1) is empty") }
        if let broken = names.first(where: { $0.contains(where: \.isNewline) }) {
            throw Problem("an event name cannot have a line break: \(broken.debugDescription)")
        }
        return names
    }

    /// CSP sources as typed (see ``FrameAncestors``): every word given, each split at spaces.
    static func frameAncestors(_ words: [String]) throws(Problem) -> String {
        do {
            return try FrameAncestors(parsing: words).directiveValue
        } catch {
            throw Problem(error.description)
        }
    }

    /// Origins (`scheme://host[:port]`, http or https) or `*` (see ``AllowedOrigins``).
    static func allowedOrigins(_ values: [String]) throws(Problem) -> AllowedOrigins {
        do {
            return try AllowedOrigins(parsing: values)
        } catch {
            throw Problem(error.description)
        }
    }

    /// An http or https origin, `scheme://host[:port]`, a `/` after it allowed (see
    /// ``PageLinks``).
    static func publicOrigin(_ text: String) throws(Problem) -> PageLinks {
        do {
            return try PageLinks(origin: text)
        } catch {
            throw Problem(error.description)
        }
    }

    static func directory(_ path: String) throws(Problem) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Problem("'\(path)' is not a directory")
        }
        return path
    }

    /// A file to write: its directory must exist and be writable; it must not be a
    /// directory itself.
    static func stateFile(_ path: String) throws(Problem) -> String {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw Problem("'\(path)' is not a file path") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw Problem("'\(path)' is a directory")
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw Problem("the directory '\(directory)' does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw Problem("cannot write in the directory '\(directory)'")
        }
        return path
    }

    /// A readable PEM file with at least one certificate.
    static func caFile(_ path: String) throws(Problem) -> String {
        if let problem = UpstreamTrust.problem(withCAFile: path) { throw Problem(problem) }
        return path
    }

    static func cluster(_ url: String) throws(Problem) -> PostgresClusterSettings {
        if let unavailability = PostgresClusterSettings.unavailability { throw Problem(unavailability) }
        do {
            return try PostgresClusterSettings(url: url)
        } catch {
            throw Problem(error.description)
        }
    }

    /// A name of 1 to 100 characters on one line.
    static func nodeName(_ name: String) throws(Problem) -> String {
        guard !name.isEmpty, name.count <= 100, name.allSatisfy({ !$0.isNewline && $0 != "\0" }) else {
            throw Problem("must be a name of 1 to 100 characters on one line")
        }
        return name
    }
}
