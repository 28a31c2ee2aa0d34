import Foundation

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
    static func parse(_ html: String) throws -> ParsedHTML {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(html.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        return try JSONDecoder().decode(ParsedHTML.self, from: data)
    }
}
