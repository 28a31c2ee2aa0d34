/// Firebase's REST streaming dialect over SSE (`--mode firebase`; the Hacker News API
/// speaks it), turned into documents and RFC 6902 patches without I/O.
///
/// - `put {"path": P, "data": D}`: the data at `P` becomes `D`. At `/` it is the whole
///   document (a snapshot, or after a reconnect the new state, which the store diffs into
///   a patch). Elsewhere, missing objects on the way are created (Firebase creates them).
/// - `patch {"path": P, "data": {K: V, …}}`: each named child `P/K` becomes `V`, the
///   others are kept; a key with `/` in it reaches deeper.
/// - `null` deletes; an object left empty by a delete goes too (Firebase stores no empty
///   objects), up to but not including the document itself.
/// - `keep-alive`: a heartbeat (not counted).
/// - `cancel`, `auth_revoked`: upstream ended the stream; shown as an upstream error, the
///   state kept, and the usual reconnect follows.
/// - anything else: counted and ignored.
///
/// Firebase has no arrays: it sends an object with the keys 0…n as an array. An array here
/// is changed in place while an index is replaced, appended or the last one deleted; any
/// other change to it (a hole, a key that is not an index) turns it into the object
/// Firebase holds.
///
/// Bad input — data that is not `{"path", "data"}`, a path through a scalar, a `patch`
/// whose data is not an object, a `put` below `/` before the first `put` at `/` — is
/// counted and shown as an upstream error; the state is kept.
///
/// State: the document as this stream built it, so that each change is a patch in
/// proportion to the change. A new value for each connection (the stream starts again
/// with a `put` at `/`).
public struct FirebaseProtocol: SSEDialect {
    /// The document as this stream has built it; `nil` before the first `put` at `/`.
    public private(set) var document: JSONValue?

    public init() {}

    public mutating func interpret(_ event: SSEEvent) -> UpstreamCommand {
        switch event.type {
        case "put", "patch":
            guard let value = try? JSONValue(parsing: event.data), let path = value["path"]?.stringValue,
                let data = value["data"]
            else {
                return .reportError("a \(event.type) event whose data is not {\"path\": …, \"data\": …}")
            }
            let tokens = Self.tokens(path)
            return event.type == "put" ? put(data, at: tokens, path: path) : patch(data, at: tokens, path: path)
        case "keep-alive":
            return .ignore(reason: "keep-alive", counted: false)
        case "cancel":
            return .endStream("cancel: the database's rules no longer allow this read")
        case "auth_revoked":
            return .endStream("auth_revoked: the credential expired or was revoked")
        default:
            return .ignore(reason: "unknown event type in firebase mode", counted: true)
        }
    }

    private mutating func put(_ data: JSONValue, at tokens: [String], path: String) -> UpstreamCommand {
        guard !tokens.isEmpty else {
            document = data
            return .replaceDocument(data)
        }
        guard let current = document else {
            return .reportError("a put at \(String(path.prefix(200))) before the first put at /")
        }
        do {
            var change = Change(document: current)
            try change.set(data.isNull ? nil : data, at: tokens)
            return commit(change)
        } catch {
            return .reportError("a put at \(String(path.prefix(200))) goes through \(error.description)")
        }
    }

    private mutating func patch(_ data: JSONValue, at tokens: [String], path: String) -> UpstreamCommand {
        guard case .object(let children) = data else {
            return .reportError("a patch at \(String(path.prefix(200))) whose data is not an object")
        }
        guard let current = document else {
            return .reportError("a patch at \(String(path.prefix(200))) before the first put at /")
        }
        var change = Change(document: current)
        do {
            for (key, value) in children {
                try change.set(value.isNull ? nil : value, at: tokens + Self.tokens(key))
            }
        } catch {
            return .reportError("a patch at \(String(path.prefix(200))) goes through \(error.description)")
        }
        return commit(change)
    }

    private mutating func commit(_ change: Change) -> UpstreamCommand {
        guard !change.operations.isEmpty else { return .ignore(reason: "no change", counted: false) }
        document = change.document
        return .applyPatch(JSONPatch(operations: change.operations))
    }

    /// A Firebase path's keys: `/a/b` → `a`, `b`; `/` and `""` → none.
    static func tokens(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// A path that runs through a value that has no children.
    struct ThroughScalar: Error, CustomStringConvertible {
        let pointer: JSONPointer
        var description: String { "a scalar at \(pointer.description.isEmpty ? "/" : pointer.description)" }
    }

    /// One event's changes to the document, with the RFC 6902 operations that make them.
    struct Change {
        private(set) var document: JSONValue
        private(set) var operations: [JSONPatch.Operation] = []

        init(document: JSONValue) {
            self.document = document
        }

        /// Sets the value at `tokens` (below the root) to `value`; `nil` deletes it. A
        /// `null` document is an empty location: the first value below it creates it.
        mutating func set(_ value: JSONValue?, at tokens: [String]) throws(ThroughScalar) {
            let root: JSONValue? = document.isNull ? nil : document
            document = try Self.set(value, at: tokens[...], in: root, pointer: .root, operations: &operations) ?? .null
        }

        /// `node` (at `pointer`; `nil`: absent) with the value at `tokens` set to `value`
        /// (`nil`: deleted); appends the operations that do it. Returns `nil` when the node
        /// is left absent (deleted, or an object left empty).
        private static func set(
            _ value: JSONValue?, at tokens: ArraySlice<String>, in node: JSONValue?, pointer: JSONPointer,
            operations: inout [JSONPatch.Operation]
        ) throws(ThroughScalar) -> JSONValue? {
            guard let token = tokens.first else {
                switch (node, value) {
                case (nil, nil): break
                case (_?, nil): operations.append(.remove(path: pointer))
                case (nil, let value?): operations.append(.add(path: pointer, value: value))
                case (let node?, let value?) where node != value:
                    operations.append(.replace(path: pointer, value: value))
                default: break
                }
                return value
            }
            let rest = tokens.dropFirst()
            let childPointer = pointer.appending(token)
            switch node {
            case nil:
                guard let value else { return nil }
                let created = nested(value, under: rest)
                operations.append(.add(path: pointer, value: .object([token: created])))
                return .object([token: created])
            case .object(var members)?:
                let child = try set(value, at: rest, in: members[token], pointer: childPointer, operations: &operations)
                members[token] = child
                if members.isEmpty && !pointer.isRoot {
                    // Firebase keeps no empty object: this one goes too, in one operation.
                    operations.removeAll { childPointer == $0.path || childPointer.isProperPrefix(of: $0.path) }
                    operations.append(.remove(path: pointer))
                    return nil
                }
                return .object(members)
            case .array(var elements)?:
                let index = JSONPointer.arrayIndex(token)
                if let index, index < elements.count {
                    var inner: [JSONPatch.Operation] = []
                    let element = try set(
                        value, at: rest, in: elements[index], pointer: childPointer, operations: &inner)
                    if let element {
                        elements[index] = element
                        operations += inner
                        return .array(elements)
                    }
                    if index == elements.count - 1 {
                        elements.removeLast()
                        if elements.isEmpty && !pointer.isRoot {
                            operations.append(.remove(path: pointer))
                            return nil
                        }
                        operations.append(.remove(path: childPointer))
                        return .array(elements)
                    }
                } else if let index, index == elements.count, let value {
                    let created = nested(value, under: rest)
                    operations.append(.add(path: childPointer, value: created))
                    return .array(elements + [created])
                }
                // A hole or a key that is not an index: the array becomes the object
                // Firebase holds, replaced whole.
                var members = JSONObject()
                for (offset, element) in elements.enumerated() { members[String(offset)] = element }
                var ignored: [JSONPatch.Operation] = []
                let object = try set(value, at: tokens, in: .object(members), pointer: pointer, operations: &ignored)
                if let object {
                    operations.append(.replace(path: pointer, value: object))
                } else {
                    operations.append(.remove(path: pointer))
                }
                return object
            default:
                throw ThroughScalar(pointer: pointer)
            }
        }

        /// `value` inside objects keyed by `tokens`, outermost first.
        private static func nested(_ value: JSONValue, under tokens: ArraySlice<String>) -> JSONValue {
            tokens.reversed().reduce(value) { inner, token in .object([token: inner]) }
        }
    }
}
