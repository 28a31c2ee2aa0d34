import Foundation
import TestSupport

/// A page parsed by html5lib (see `check_html.py`).
struct ParsedHTML: Decodable {
    struct ParseError: Decodable, CustomStringConvertible {
        let position: [Int]
        let code: String
        let data: [String: String]
        var description: String { "\(code) at \(position) \(data)" }
    }

    struct Element: Decodable {
        let tag: String
        let attributes: [String: String]
    }

    let errors: [ParseError]
    let elements: [Element]
    let text: String

    /// Every attribute value of `name` (e.g. every `href`).
    func values(of name: String) -> [String] {
        elements.compactMap { $0.attributes[name] }
    }
}

enum HTMLChecker {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "check_html.py")

    /// Parses `html` with the real HTML5 parser in a child process (at most 30 s).
    static func parse(_ html: String) async throws -> ParsedHTML {
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reader = PipeReader(output)
        input.fileHandleForWriting.write(Data(html.utf8))
        try input.fileHandleForWriting.close()
        guard await ChildProcess.exited(process, within: 30) else {
            await ChildProcess.terminate(process, grace: 0)
            throw Eventually.TimedOut(what: "html5lib to parse the page", last: "")
        }
        await reader.end(within: 5)
        return try JSONDecoder().decode(ParsedHTML.self, from: Data(reader.bytes))
    }
}
