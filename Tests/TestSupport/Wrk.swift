import Foundation

/// wrk (the HTTP benchmarking tool, Debian's `wrk`) run against feedweb as a keep-alive
/// crowd: `connections` clients on two threads, each asking again the moment its answer is
/// whole, going round `paths` (a Lua script sets each request's path), for `seconds`; a
/// request unanswered after `timeout` seconds counts as a timeout.
public enum Wrk {
    /// What wrk reported.
    public struct Report: Sendable, CustomStringConvertible {
        /// Requests answered whole.
        public var requests = 0
        /// Answers per second.
        public var rate = 0.0
        /// The slowest answer, in seconds.
        public var slowest = 0.0
        /// Connections that could not be made.
        public var connectErrors = 0
        /// Reads that failed: connections the server closed or reset.
        public var readErrors = 0
        /// Writes that failed.
        public var writeErrors = 0
        /// Requests unanswered after the timeout.
        public var timeouts = 0
        /// Answers with a status of 400 or more.
        public var badAnswers = 0
        /// wrk's whole output.
        public var output = ""

        public var description: String {
            "\(requests) answers (\(Int(rate))/s), slowest \(slowest) s, errors: connect \(connectErrors), read \(readErrors), write \(writeErrors), timeout \(timeouts), non-2xx/3xx \(badAnswers)"
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs wrk on `127.0.0.1:port` and parses what it prints; throws when wrk is missing
    /// or says nothing parseable.
    public static func run(
        port: UInt16, paths: [String], connections: Int, seconds: Int, timeout: Int = 1, threads: Int = 2
    ) async throws -> Report {
        precondition(!paths.isEmpty)
        let scratch = try ScratchDirectory("wrk")
        let script = scratch.file("paths.lua")
        let list = paths.map { "\"\($0)\"" }.joined(separator: ", ")
        try """
        local paths = { \(list) }
        local index = 0
        request = function()
          index = index % #paths + 1
          return wrk.format("GET", paths[index])
        end
        """.write(toFile: script, atomically: true, encoding: .utf8)
        guard
            let executable = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile)
        else { throw Failure(description: "wrk is not installed (scripts/install-deps.sh --test)") }
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--timeout", "\(timeout)s", "--latency", "-s", script,
            "http://127.0.0.1:\(port)\(paths[0])",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = PipeReader(pipe)
        guard await ChildProcess.exited(process, within: Double(seconds) + 30) else {
            await ChildProcess.terminate(process)
            throw Failure(description: "wrk did not finish: \(output.text)")
        }
        try await Eventually.check("wrk's report", within: 5) { output.text.contains("Requests/sec") }
        return try parse(output.text)
    }

    /// The figures in wrk's report.
    static func parse(_ text: String) throws -> Report {
        var report = Report(output: text)
        var sawRate = false
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Latency "), words.count >= 4, let max = seconds(words[3]) {
                report.slowest = max
            } else if line.contains(" requests in "), let count = Int(words.first ?? "") {
                report.requests = count
            } else if line.hasPrefix("Socket errors:") {
                // "Socket errors: connect 0, read 0, write 0, timeout 0"
                let numbers = line.replacingOccurrences(of: ",", with: "").split(separator: " ").compactMap { Int($0) }
                if numbers.count == 4 {
                    (report.connectErrors, report.readErrors, report.writeErrors, report.timeouts) =
                        (numbers[0], numbers[1], numbers[2], numbers[3])
                }
            } else if line.hasPrefix("Non-2xx or 3xx responses:"), let count = Int(words.last ?? "") {
                report.badAnswers = count
            } else if line.hasPrefix("Requests/sec:"), let rate = Double(words.last ?? "") {
                report.rate = rate
                sawRate = true
            }
        }
        guard sawRate else { throw Failure(description: "no report from wrk: \(text)") }
        return report
    }

    /// wrk's `12.34ms`, `900.00us`, `1.20s` or `2.00m`, in seconds.
    private static func seconds(_ text: Substring) -> Double? {
        for (suffix, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("m", 60.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
}
