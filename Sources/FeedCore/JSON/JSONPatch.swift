/// A JSON Patch (RFC 6902): a list of operations applied in order, atomically.
///
/// Semantics, per RFC 6902 section 4:
/// - `add` to an object member sets it (replacing an existing one); to an array inserts
///   before the index, where the index may equal the count or be `-` to append; a greater
///   index fails. The parent must exist and be an object or array.
/// - `remove`, `replace` and `test` need an existing target; `-` never denotes one.
/// - `move` is `remove` then `add`; moving a location into its own child fails; moving to
///   the same location succeeds (if it exists) and changes nothing.
/// - `copy` adds a deep copy of the source (values have value semantics).
/// - `test` compares with JSON equality (``JSONValue``'s `==`: `1 == 1.0`, member order
///   ignored).
/// - Array index tokens are decimal digits with no leading zeros (`"0"` itself is fine);
///   `01`, `1e0`, `-1` and `+1` are not indices.
/// - The root path `""`: `add` and `replace` replace the whole document, `test` compares
///   the whole document, `copy`/`move` may read from it (`move` only to itself, since any
///   other target is inside it). `remove` of `""` fails with
///   ``JSONPatchError/cannotRemoveRoot(index:)``: a ``JSONValue`` cannot be absent.
/// - Scalar documents (`"foo"`, `42`) are documents like any other.
public struct JSONPatch: Sendable, Equatable {
    /// One RFC 6902 operation.
    public enum Operation: Sendable, Equatable {
        case add(path: JSONPointer, value: JSONValue)
        case remove(path: JSONPointer)
        case replace(path: JSONPointer, value: JSONValue)
        case move(from: JSONPointer, path: JSONPointer)
        case copy(from: JSONPointer, path: JSONPointer)
        case test(path: JSONPointer, value: JSONValue)

        /// The `op` member: `"add"`, `"remove"`, ….
        public var name: String {
            switch self {
            case .add: return "add"
            case .remove: return "remove"
            case .replace: return "replace"
            case .move: return "move"
            case .copy: return "copy"
            case .test: return "test"
            }
        }

        /// The `path` member (the target location).
        public var path: JSONPointer {
            switch self {
            case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path),
                .copy(_, let path), .test(let path, _):
                return path
            }
        }

        /// The value the operation leaves at its ``path``: `add`'s and `replace`'s own, or for
        /// `move` and `copy` what `document` (read after the patch) holds there; `nil` for
        /// `remove` and `test`.
        public func valueLeft(in document: (JSONPointer) -> JSONValue?) -> JSONValue? {
            switch self {
            case .add(_, let value), .replace(_, let value): value
            case .move(_, let path), .copy(_, let path): document(path)
            case .remove, .test: nil
            }
        }

        /// Decodes one operation object; `index` is only used in errors.
        public init(json: JSONValue, index: Int = 0) throws(JSONPatchError) {
            guard case .object(let members) = json else {
                throw .invalidOperation(index: index, .notAnObject)
            }
            func string(_ name: String) throws(JSONPatchError) -> String {
                guard let member = members[name] else {
                    throw .invalidOperation(index: index, .missingMember(name))
                }
                guard case .string(let text) = member else {
                    throw .invalidOperation(index: index, .memberNotAString(name))
                }
                return text
            }
            func pointer(_ name: String) throws(JSONPatchError) -> JSONPointer {
                let text = try string(name)
                do {
                    return try JSONPointer(text)
                } catch {
                    throw .invalidOperation(index: index, .invalidPointer(member: name, error))
                }
            }
            func value() throws(JSONPatchError) -> JSONValue {
                guard let member = members["value"] else {
                    throw .invalidOperation(index: index, .missingMember("value"))
                }
                return member
            }
            let op = try string("op")
            switch op {
            case "add": self = .add(path: try pointer("path"), value: try value())
            case "remove": self = .remove(path: try pointer("path"))
            case "replace": self = .replace(path: try pointer("path"), value: try value())
            case "move": self = .move(from: try pointer("from"), path: try pointer("path"))
            case "copy": self = .copy(from: try pointer("from"), path: try pointer("path"))
            case "test": self = .test(path: try pointer("path"), value: try value())
            default: throw .invalidOperation(index: index, .unknownOperation(op))
            }
        }

        /// The RFC 6902 operation object (members `op`, then `from`, `path`, `value`).
        public var json: JSONValue {
            var members = JSONObject(minimumCapacity: 3)
            members["op"] = .string(name)
            switch self {
            case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
                members["path"] = .string(path.description)
                members["value"] = value
            case .remove(let path):
                members["path"] = .string(path.description)
            case .move(let from, let path), .copy(let from, let path):
                members["from"] = .string(from.description)
                members["path"] = .string(path.description)
            }
            return .object(members)
        }
    }

    /// The operations, applied in order.
    public var operations: [Operation]

    public init(operations: [Operation] = []) {
        self.operations = operations
    }

    /// Decodes an RFC 6902 patch document (a JSON array of operation objects). Members an
    /// operation does not use are ignored, as the RFC requires.
    public init(json: JSONValue) throws(JSONPatchError) {
        guard case .array(let items) = json else { throw .notAnArray }
        var operations: [Operation] = []
        operations.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            operations.append(try Operation(json: item, index: index))
        }
        self.operations = operations
    }

    /// Parses and decodes a patch document from UTF-8 JSON text.
    public init(parsing bytes: [UInt8]) throws(JSONPatchError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .invalidJSON(error)
        }
        try self.init(json: json)
    }

    /// Parses and decodes a patch document from JSON text.
    public init(parsing string: String) throws(JSONPatchError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(string)
        } catch {
            throw .invalidJSON(error)
        }
        try self.init(json: json)
    }

    /// The RFC 6902 patch document.
    public var json: JSONValue {
        .array(operations.map(\.json))
    }

    /// The compact JSON text of the patch document.
    public func serializedBytes() -> [UInt8] {
        JSONSerializer.serialize(json)
    }

    /// `true` when the patch has no operations.
    public var isEmpty: Bool { operations.isEmpty }

    /// Applies every operation in order. Atomic: if any operation fails, `document` is left
    /// exactly as it was and the error names the failing operation.
    ///
    /// Cost: the document is shared with a working copy, so copy-on-write only duplicates
    /// the containers along the paths that are touched (and each of those once per patch).
    public func apply(to document: inout JSONValue) throws(JSONPatchError) {
        // A single operation other than `move` checks everything before its one mutation,
        // so it is atomic by itself and can work on `document` in place, copying nothing.
        if operations.count == 1, let only = operations.first {
            if case .move = only {
            } else {
                try Self.perform(only, index: 0, on: &document)
                return
            }
        }
        var work = document
        for index in operations.indices {
            try Self.perform(operations[index], index: index, on: &work)
        }
        document = work
    }

    /// The result of applying the patch to `document` (which is not changed).
    public func applied(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = document
        try apply(to: &result)
        return result
    }
}

// MARK: - Applying

extension JSONPatch {
    static func perform(_ operation: Operation, index: Int, on document: inout JSONValue)
        throws(JSONPatchError)
    {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path, index: index, on: &document)
        case .remove(let path):
            _ = try remove(at: path, index: index, on: &document)
        case .replace(let path, let value):
            try modify(&document, tokens: path.tokens[...], index: index, path: path) {
                (target: inout JSONValue) throws(JSONPatchError) in
                target = value
            }
        case .move(let from, let path):
            if from == path {
                guard document.value(at: from) != nil else {
                    throw .pathNotFound(index: index, path: from)
                }
                return
            }
            if from.isProperPrefix(of: path) {
                throw .moveIntoOwnChild(index: index, from: from, path: path)
            }
            let value = try remove(at: from, index: index, on: &document)
            try add(value, at: path, index: index, on: &document)
        case .copy(let from, let path):
            guard let value = document.value(at: from) else {
                throw .pathNotFound(index: index, path: from)
            }
            try add(value, at: path, index: index, on: &document)
        case .test(let path, let value):
            guard let current = document.value(at: path) else {
                throw .pathNotFound(index: index, path: path)
            }
            guard current == value else { throw .testFailed(index: index, path: path) }
        }
    }

    /// The canonical array index `token` denotes, or an error (`-` included).
    @inline(__always)
    static func arrayIndex(_ token: String, index: Int, path: JSONPointer) throws(JSONPatchError)
        -> Int
    {
        guard let value = JSONPointer.arrayIndex(token) else {
            throw .invalidArrayIndex(index: index, path: path, token: token)
        }
        return value
    }

    // In-place mutation: a container is bound with `if case .object(var members) = slot`,
    // then the slot is set to `.null` so that `members` holds the only reference to its
    // storage, changed, and put back (by `defer`, also when throwing). This exact shape
    // is the one that avoids a copy-on-write copy in both debug and release builds (a
    // `switch` on the slot keeps a second reference alive during the case body).

    /// Runs `body` on the value `tokens` lead to, mutating each container on the way in place.
    static func modify<R>(
        _ value: inout JSONValue,
        tokens: ArraySlice<String>,
        index: Int,
        path: JSONPointer,
        body: (inout JSONValue) throws(JSONPatchError) -> R
    ) throws(JSONPatchError) -> R {
        guard let token = tokens.first else { return try body(&value) }
        let rest = tokens.dropFirst()
        if case .object(var members) = value {
            value = .null
            defer { value = .object(members) }
            guard let position = members.index(forKey: token) else {
                throw .pathNotFound(index: index, path: path)
            }
            return try modify(
                &members.values[position], tokens: rest, index: index, path: path, body: body)
        }
        if case .array(var elements) = value {
            value = .null
            defer { value = .array(elements) }
            let position = try arrayIndex(token, index: index, path: path)
            guard position < elements.count else { throw .pathNotFound(index: index, path: path) }
            return try modify(&elements[position], tokens: rest, index: index, path: path, body: body)
        }
        throw .pathNotFound(index: index, path: path)
    }

    static func add(
        _ newValue: JSONValue, at path: JSONPointer, index: Int, on document: inout JSONValue
    )
        throws(JSONPatchError)
    {
        guard let last = path.tokens.last else {
            document = newValue
            return
        }
        try modify(&document, tokens: path.tokens.dropLast(), index: index, path: path) {
            (parent: inout JSONValue) throws(JSONPatchError) in
            if case .object(var members) = parent {
                parent = .null
                defer { parent = .object(members) }
                members[last] = newValue
                return
            }
            if case .array(var elements) = parent {
                parent = .null
                defer { parent = .array(elements) }
                let position: Int
                if last == "-" {
                    position = elements.count
                } else {
                    position = try arrayIndex(last, index: index, path: path)
                    guard position <= elements.count else {
                        throw .indexOutOfBounds(
                            index: index, path: path, arrayIndex: position, count: elements.count)
                    }
                }
                elements.insert(newValue, at: position)
                return
            }
            throw .notAContainer(index: index, path: path)
        }
    }

    static func remove(at path: JSONPointer, index: Int, on document: inout JSONValue)
        throws(JSONPatchError)
        -> JSONValue
    {
        guard let last = path.tokens.last else { throw .cannotRemoveRoot(index: index) }
        return try modify(&document, tokens: path.tokens.dropLast(), index: index, path: path) {
            (parent: inout JSONValue) throws(JSONPatchError) -> JSONValue in
            if case .object(var members) = parent {
                parent = .null
                defer { parent = .object(members) }
                guard let position = members.index(forKey: last) else {
                    throw .pathNotFound(index: index, path: path)
                }
                return members.remove(at: position).value
            }
            if case .array(var elements) = parent {
                parent = .null
                defer { parent = .array(elements) }
                let position = try arrayIndex(last, index: index, path: path)
                guard position < elements.count else { throw .pathNotFound(index: index, path: path) }
                return elements.remove(at: position)
            }
            throw .pathNotFound(index: index, path: path)
        }
    }
}
