/// The length of a value's compact JSON text (``JSONSerializer``'s, member order as
/// stored), computed without writing it, and how one JSON Patch operation changes the
/// length of a document: so the store knows the encoded size of every state without
/// serialising the whole document per change.
///
/// Invariant: `JSONByteCount.of(v) == v.serializedBytes().count` for every value, and for a
/// document `d` to which `op` applies, `JSONByteCount.of(d) + delta(op, before: d)` is
/// the length of `d` after `op`.
public enum JSONByteCount {
    /// The length of `value`'s compact JSON text, in bytes.
    public static func of(_ value: JSONValue) -> Int {
        switch value {
        case .null: return 4
        case .bool(let b): return b ? 4 : 5
        case .int(let i): return digits(i)
        case .double(let d): return d.isFinite ? d.description.utf8.count : 4
        case .string(let s): return string(s)
        case .array(let elements):
            var total = 2 + max(0, elements.count - 1)
            for element in elements { total += of(element) }
            return total
        case .object(let members):
            var total = 2 + max(0, members.count - 1) + members.count
            for (key, member) in members { total += string(key) + of(member) }
            return total
        }
    }

    /// The length of `text` as a JSON string, quotes included.
    public static func string(_ text: String) -> Int {
        var total = 2
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C: total += 2
            case 0..<0x20: total += 6
            default: total += 1
            }
        }
        return total
    }

    /// How many bytes `operation` adds to (or, negative, removes from) the compact text of
    /// `document`, which it is about to be applied to. `nil` when the operation would not
    /// apply (the caller's apply then fails and reports why).
    public static func delta(of operation: JSONPatch.Operation, before document: JSONValue) -> Int? {
        switch operation {
        case .test:
            return 0
        case .add(let path, let value):
            return added(value, at: path, in: document)
        case .remove(let path):
            return removed(at: path, in: document)
        case .replace(let path, let value):
            guard let old = document.value(at: path) else { return nil }
            return of(value) - of(old)
        case .copy(let from, let path):
            guard let value = document.value(at: from) else { return nil }
            return added(value, at: path, in: document)
        case .move(let from, let path):
            guard from != path else { return 0 }
            guard let value = document.value(at: from), let removal = removed(at: from, in: document) else {
                return nil
            }
            var after = document
            guard (try? JSONPatch(operations: [.remove(path: from)]).apply(to: &after)) != nil,
                let addition = added(value, at: path, in: after)
            else { return nil }
            return removal + addition
        }
    }

    private static func added(_ value: JSONValue, at path: JSONPointer, in document: JSONValue) -> Int? {
        guard let last = path.tokens.last else { return of(value) - of(document) }
        guard let parent = document.value(at: JSONPointer(tokens: Array(path.tokens.dropLast()))) else { return nil }
        switch parent {
        case .array(let elements):
            return of(value) + (elements.isEmpty ? 0 : 1)
        case .object(let members):
            if let old = members[last] { return of(value) - of(old) }
            return string(last) + 1 + of(value) + (members.isEmpty ? 0 : 1)
        default:
            return nil
        }
    }

    private static func removed(at path: JSONPointer, in document: JSONValue) -> Int? {
        guard let last = path.tokens.last else { return nil }
        guard let parent = document.value(at: JSONPointer(tokens: Array(path.tokens.dropLast()))),
            let old = document.value(at: path)
        else { return nil }
        switch parent {
        case .array(let elements):
            return -(of(old) + (elements.count > 1 ? 1 : 0))
        case .object(let members):
            return -(string(last) + 1 + of(old) + (members.count > 1 ? 1 : 0))
        default:
            return nil
        }
    }

    private static func digits(_ value: Int64) -> Int {
        var magnitude = value.magnitude
        var count = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            count += 1
        }
        return count
    }
}
