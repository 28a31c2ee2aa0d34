import FeedCore
import Foundation
import Testing

/// Parses JSON text written in a test; a typo in a test literal is recorded as a failure.
func jsonValue(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    do {
        return try JSONValue(parsing: text)
    } catch {
        Issue.record("test literal is not JSON: \(error)\n\(text)", sourceLocation: sourceLocation)
        return .null
    }
}

/// Reads a fixture file next to the tests (no bundle resources).
func fixtureBytes(_ relativePath: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
        .appendingPathComponent(relativePath)
    return Array(try Data(contentsOf: url))
}

/// Random JSON values for property tests: every scalar kind, awkward keys and strings.
struct RandomJSON {
    var rng: SplitMix64

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    static let keys: [String] = [
        "a", "b", "id", "title", "", "/", "~", "~1", "~0", "a/b", "m~n", "ü", "日本", "😀", "0", "1",
        "-", "01", "1e0", " ", "key with spaces", "\"quoted\"", "back\\slash", "tab\t", "x",
    ]

    static let strings: [String] = [
        "", "plain", "with \"quotes\"", "back\\slash", "slash/", "new\nline", "\u{0}nul", "\u{1F}",
        "tab\there", "café", "日本語", "emoji 😀👍🏽", "\u{FFFD}", "\u{2028}\u{2029}", "~0~1", "\u{7F}",
        "multi\r\n\u{8}\u{C}",
    ]

    mutating func int(_ range: Range<Int>) -> Int {
        Int.random(in: range, using: &rng)
    }

    mutating func chance(_ percent: Int) -> Bool {
        int(0..<100) < percent
    }

    mutating func key() -> String {
        if chance(80) {
            return Self.keys[int(0..<Self.keys.count)]
        }
        return "k\(int(0..<50))"
    }

    mutating func string() -> String {
        if chance(70) {
            return Self.strings[int(0..<Self.strings.count)]
        }
        var scalars = String.UnicodeScalarView()
        for _ in 0..<int(0..<12) {
            let pick = int(0..<10)
            let value: UInt32
            switch pick {
            case 0..<5: value = UInt32(int(0x20..<0x7F))
            case 5: value = UInt32(int(0..<0x20))
            case 6: value = UInt32(int(0x80..<0x800))
            case 7: value = UInt32(int(0x800..<0xD800))
            case 8: value = UInt32(int(0xE000..<0x10000))
            default: value = UInt32(int(0x10000..<0x110000))
            }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    mutating func double() -> Double {
        switch int(0..<6) {
        case 0: return Double(int(-1000..<1000)) / 8
        case 1: return Double(int(-1_000_000..<1_000_000)) / 1000
        case 2:
            return [
                0.1, -0.0, 1e300, -1e-300, .leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 1e22,
                1e23, 2.5,
            ][int(0..<9)]
        case 3: return Double(int(-100..<100))  // integral doubles
        default:
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite { return d }
            }
        }
    }

    mutating func scalar() -> JSONValue {
        switch int(0..<10) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .int(Int64(int(-10..<100)))
        case 3:
            return .int([Int64.max, Int64.min, Int64(bitPattern: rng.next()), 1 << 53 + 1][int(0..<4)])
        case 4, 5: return .double(double())
        default: return .string(string())
        }
    }

    mutating func value(depth: Int = 0) -> JSONValue {
        let containerChance = depth >= 4 ? 0 : 45 - depth * 8
        guard chance(containerChance) else { return scalar() }
        if chance(50) {
            var elements: [JSONValue] = []
            for _ in 0..<int(0..<7) { elements.append(value(depth: depth + 1)) }
            return .array(elements)
        }
        var members = JSONObject()
        for _ in 0..<int(0..<7) { members[key()] = value(depth: depth + 1) }
        return .object(members)
    }

    /// A document that is always a container at the root, a little bigger than `value()`.
    mutating func document() -> JSONValue {
        if chance(50) {
            var elements: [JSONValue] = []
            for _ in 0..<int(0..<12) { elements.append(value(depth: 1)) }
            return .array(elements)
        }
        var members = JSONObject()
        for _ in 0..<int(0..<10) { members[key()] = value(depth: 1) }
        return .object(members)
    }

    /// Applies a few random edits somewhere inside `document`.
    mutating func edit(_ document: inout JSONValue, edits: Int) {
        for _ in 0..<edits { editOnce(&document, depth: 0) }
    }

    private mutating func editOnce(_ value: inout JSONValue, depth: Int) {
        switch value {
        case .array(var elements):
            value = .null
            defer { value = .array(elements) }
            if !elements.isEmpty && depth < 5 && chance(45) {
                let i = int(0..<elements.count)
                editOnce(&elements[i], depth: depth + 1)
                return
            }
            switch int(0..<6) {
            case 0, 1:
                elements.insert(self.value(depth: depth + 1), at: int(0..<(elements.count + 1)))
            case 2:
                if !elements.isEmpty { elements.remove(at: int(0..<elements.count)) }
            case 3:
                if !elements.isEmpty { elements[int(0..<elements.count)] = self.value(depth: depth + 1) }
            case 4:
                if elements.count > 1 {
                    let moved = elements.remove(at: int(0..<elements.count))
                    elements.insert(moved, at: int(0..<(elements.count + 1)))
                }
            default:
                if elements.count > 1 {
                    // Several changes at once: drop the last, add a new first.
                    elements.removeLast()
                    elements.insert(self.value(depth: depth + 1), at: 0)
                }
            }
        case .object(var members):
            value = .null
            defer { value = .object(members) }
            if !members.isEmpty && depth < 5 && chance(50) {
                let i = int(0..<members.count)
                editOnce(&members.values[i], depth: depth + 1)
                return
            }
            switch int(0..<4) {
            case 0:
                members[key()] = self.value(depth: depth + 1)
            case 1:
                if !members.isEmpty { members.remove(at: int(0..<members.count)) }
            case 2:
                if !members.isEmpty {
                    members.values[int(0..<members.count)] = self.value(depth: depth + 1)
                }
            default:
                // Reordering members changes nothing under JSON equality.
                members.reverse()
            }
        default:
            value = chance(50) ? scalar() : self.value(depth: depth)
        }
    }
}
