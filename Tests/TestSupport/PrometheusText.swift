import Foundation

/// A strict reader of the Prometheus text exposition format (version 0.0.4), for tests:
/// every line must be a `# HELP`/`# TYPE` comment, another comment, blank, or a sample
/// `name{label="value",…} value [timestamp]` whose family was declared by a `# TYPE` line
/// before it (histogram and summary samples end in `_bucket`, `_sum` or `_count`).
public struct PrometheusText: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// One sample.
    public struct Sample: Sendable, Equatable {
        public let name: String
        public let labels: [String: String]
        public let value: Double
    }

    /// Each family's declared type (`counter`, `gauge`, `histogram`, …).
    public private(set) var types: [String: String] = [:]
    public private(set) var samples: [Sample] = []

    public init(parsing text: String) throws {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let number = index + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let words = line.split(separator: " ", maxSplits: 3).map(String.init)
                if words.count >= 2, words[1] == "TYPE" {
                    guard words.count == 4, Self.isMetricName(words[2]),
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3])
                    else { throw Failure(line: number, reason: "malformed TYPE line '\(line)'") }
                    guard types[words[2]] == nil else {
                        throw Failure(line: number, reason: "second TYPE line for \(words[2])")
                    }
                    types[words[2]] = words[3]
                }
                continue
            }
            let sample = try Self.sample(line, number: number)
            guard family(of: sample.name) != nil else {
                throw Failure(line: number, reason: "sample \(sample.name) has no TYPE line before it")
            }
            samples.append(sample)
        }
    }

    /// The declared family `name` belongs to, if any.
    public func family(of name: String) -> String? {
        if types[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if let type = types[base], type == "histogram" || type == "summary" { return base }
        }
        return nil
    }

    /// The value of the sample `name` whose labels include `labels`; `nil` if none.
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }?.value
    }

    private static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first == ":" || first.properties.isAlphabetic
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0 == ":" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    private static func sample(_ line: String, number: Int) throws -> Sample {
        var rest = Substring(line)
        let nameEnd = rest.firstIndex { $0 == "{" || $0 == " " } ?? rest.endIndex
        let name = String(rest[..<nameEnd])
        guard isMetricName(name) else { throw Failure(line: number, reason: "bad metric name '\(name)'") }
        rest = rest[nameEnd...]
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                guard let equals = rest.firstIndex(of: "=") else {
                    throw Failure(line: number, reason: "label without '='")
                }
                let key = String(rest[..<equals])
                guard isMetricName(key), !key.contains(":") else {
                    throw Failure(line: number, reason: "bad label name '\(key)'")
                }
                rest = rest[rest.index(after: equals)...]
                guard rest.first == "\"" else { throw Failure(line: number, reason: "label value not quoted") }
                rest = rest.dropFirst()
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        guard let escaped = rest.first else { throw Failure(line: number, reason: "dangling escape") }
                        rest = rest.dropFirst()
                        switch escaped {
                        case "n": value.append("\n")
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        default: throw Failure(line: number, reason: "bad escape '\\\(escaped)'")
                        }
                    } else {
                        value.append(character)
                    }
                }
                guard rest.first == "\"" else { throw Failure(line: number, reason: "unterminated label value") }
                rest = rest.dropFirst()
                labels[key] = value
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ")
        guard rest.first == " ", fields.count == 1 || fields.count == 2 else {
            throw Failure(line: number, reason: "expected ' value [timestamp]' after the name")
        }
        let value: Double
        switch fields[0] {
        case "+Inf": value = .infinity
        case "-Inf": value = -.infinity
        case "NaN": value = .nan
        default:
            guard let parsed = Double(fields[0]) else {
                throw Failure(line: number, reason: "bad value '\(fields[0])'")
            }
            value = parsed
        }
        if fields.count == 2, Int64(fields[1]) == nil {
            throw Failure(line: number, reason: "bad timestamp '\(fields[1])'")
        }
        return Sample(name: name, labels: labels, value: value)
    }
}
