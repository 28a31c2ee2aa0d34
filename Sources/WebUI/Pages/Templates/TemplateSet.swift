import Foundation
import Mustache

/// One complete, parsed set of page templates: the built-ins, with those a `--templates`
/// folder replaces. Immutable; a reload makes a new set or keeps the old one, never half
/// of each.
public struct TemplateSet: Sendable {
    /// Every template, by name.
    let library: MustacheLibrary
    /// What pages and frames rendered from this set are stamped with: `builtin`, or a hash
    /// of the folder's templates (a new set reloads the open pages once).
    public let version: String
    /// The folder read (`nil`: the built-ins alone).
    public let directory: String?
    /// The built-in templates the folder replaces, sorted.
    public let replaced: [String]
    /// What is wrong but does not stop the set: a file that replaces nothing and that no
    /// template includes (a typo), a template that breaks what the page script needs
    /// (``TemplateContract``). Each names its template.
    public let warnings: [String]

    /// Every built-in template's name and source, in the order `--export-templates` writes
    /// them.
    public static var builtinSources: [(name: String, source: String)] { Templates.builtins }

    /// The built-in templates alone.
    public static let builtin: TemplateSet = {
        var library = MustacheLibrary()
        for (name, source) in Templates.builtins {
            do {
                library.register(try TemplateEscaping.parse(source), named: name)
            } catch {
                // The templates are constants of this program: a parse error is a bug
                // that the tests catch, not a runtime condition.
                preconditionFailure("template \(name) does not parse: \(error)")
            }
        }
        return TemplateSet(library: library, version: "builtin", directory: nil, replaced: [], warnings: [])
    }()

    private init(library: MustacheLibrary, version: String, directory: String?, replaced: [String], warnings: [String])
    {
        self.library = library
        self.version = version
        self.directory = directory
        self.replaced = replaced
        self.warnings = warnings
    }

    /// Renders `context` with the template `name` (`""` when there is no such template).
    func render(_ context: Any, _ name: String) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    /// The built-ins with every `NAME.mustache` of `directory` in place of the built-in
    /// `NAME` (a name that is no built-in's is a partial the others may include); throws
    /// at the first file that cannot be read or parsed, naming its line and column.
    public static func load(directory: String) throws(TemplateLoadError) -> TemplateSet {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
                $0.hasSuffix(".mustache")
            }.sorted()
        } catch {
            throw .unreadableDirectory(directory, reason: (error as NSError).localizedDescription)
        }
        var library = builtin.library
        var sources: [(name: String, source: String)] = []
        for file in names {
            let path = (directory as NSString).appendingPathComponent(file)
            let source: String
            do {
                source = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw .unreadableFile(path, reason: (error as NSError).localizedDescription)
            }
            let name = String(file.dropLast(".mustache".count))
            do {
                library.register(try TemplateEscaping.parse(source), named: name)
            } catch let error as MustacheTemplate.ParserError {
                throw .parse(
                    file: path, line: TemplateEscaping.sourceLine(error.context.lineNumber),
                    column: error.context.columnNumber,
                    reason: Self.describe(error.error), text: error.context.line)
            } catch {
                throw .parse(file: path, line: 1, column: 1, reason: "\(error)", text: "")
            }
            sources.append((name, source))
        }
        var warnings: [String] = []
        let included = Set((Templates.builtins + sources).flatMap { Self.partials(in: $0.source) })
        for (name, _) in sources where !Templates.names.contains(name) && !included.contains(name) {
            let close = Templates.builtins.map(\.name).filter { Self.distance($0, name) <= 3 }
                .min { Self.distance($0, name) < Self.distance($1, name) }
            warnings.append(
                "\(name).mustache replaces no built-in template and no template includes it"
                    + (close.map { " (did you mean \($0).mustache?)" } ?? ""))
        }
        let replaced = sources.map(\.name).filter { Templates.names.contains($0) }.sorted()
        let version = Self.version(of: sources)
        let parsed = TemplateSet(
            library: library, version: version, directory: directory, replaced: replaced, warnings: warnings)
        return TemplateSet(
            library: library, version: version, directory: directory, replaced: replaced,
            warnings: warnings + TemplateContract.problems(in: parsed, replaced: replaced))
    }

    /// The names `source` includes as partials (`{{>name}}`).
    private static func partials(in source: String) -> [String] {
        var names: [String] = []
        var rest = source[...]
        while let open = rest.range(of: "{{>") {
            rest = rest[open.upperBound...]
            guard let close = rest.range(of: "}}") else { break }
            names.append(rest[..<close.lowerBound].trimmingCharacters(in: .whitespaces))
            rest = rest[close.upperBound...]
        }
        return names
    }

    /// A hash of the templates' names and sources, as 16 hex digits.
    private static func version(of sources: [(name: String, source: String)]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (name, source) in sources {
            for byte in name.utf8 + [0] + source.utf8 + [0] {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// How many single-character edits turn `a` into `b`.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case MustacheTemplate.Error.sectionCloseNameIncorrect: "a section is closed with another name than it opened"
        case MustacheTemplate.Error.unfinishedName: "a tag is not finished"
        case MustacheTemplate.Error.expectedSectionEnd: "a section is not closed"
        case MustacheTemplate.Error.invalidSetDelimiter: "a set-delimiter tag is malformed"
        default: "\(error)"
        }
    }
}

/// Why a `--templates` folder could not be read: where, and what is wrong there.
public enum TemplateLoadError: Error, Equatable, CustomStringConvertible {
    case unreadableDirectory(String, reason: String)
    case unreadableFile(String, reason: String)
    /// A template that does not parse: its file, the line and column (from 1) where the
    /// parser stopped, why, and that line's text.
    case parse(file: String, line: Int, column: Int, reason: String, text: String)

    public var description: String {
        switch self {
        case .unreadableDirectory(let path, let reason): "cannot read the folder \(path): \(reason)"
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .parse(let file, let line, let column, let reason, _): "\(file):\(line):\(column): \(reason)"
        }
    }
}
