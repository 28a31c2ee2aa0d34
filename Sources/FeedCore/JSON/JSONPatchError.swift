/// Why a JSON Patch (RFC 6902) could not be decoded or applied.
///
/// Every case about one operation carries `index`, the operation's position (from 0) in
/// the patch.
public enum JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why an operation object is malformed.
    public enum Malformation: Sendable, Hashable, CustomStringConvertible {
        /// The operation is not a JSON object.
        case notAnObject
        /// A required member (`op`, `path`, `from`, `value`) is absent.
        case missingMember(String)
        /// `op`, `path` or `from` is not a string.
        case memberNotAString(String)
        /// `path` or `from` is not a valid JSON Pointer.
        case invalidPointer(member: String, JSONPointerError)
        /// `op` is none of the six operations.
        case unknownOperation(String)

        public var description: String {
            switch self {
            case .notAnObject: return "operation is not an object"
            case .missingMember(let name): return "missing \"\(name)\""
            case .memberNotAString(let name): return "\"\(name)\" is not a string"
            case .invalidPointer(let name, let error): return "\"\(name)\": \(error)"
            case .unknownOperation(let op): return "unknown op \"\(op)\""
            }
        }
    }

    // Decoding

    /// The patch text is not JSON.
    case invalidJSON(JSONParseError)
    /// The patch document is not a JSON array.
    case notAnArray
    /// Operation `index` is malformed.
    case invalidOperation(index: Int, Malformation)

    // Applying

    /// Nothing at `path` (a missing member, an index at or past the end, or a path that
    /// goes through a scalar).
    case pathNotFound(index: Int, path: JSONPointer)
    /// The parent of an `add` target is not an object or array.
    case notAContainer(index: Int, path: JSONPointer)
    /// An array reference token that is not a canonical index (`01`, `1e0`, `-1`, `foo`, or
    /// `-` where it cannot be used).
    case invalidArrayIndex(index: Int, path: JSONPointer, token: String)
    /// An `add` index greater than the array's count.
    case indexOutOfBounds(index: Int, path: JSONPointer, arrayIndex: Int, count: Int)
    /// A `test` whose value differs from the document's.
    case testFailed(index: Int, path: JSONPointer)
    /// A `move` whose `from` is a proper prefix of its `path`.
    case moveIntoOwnChild(index: Int, from: JSONPointer, path: JSONPointer)
    /// A `remove` of the whole document (path `""`), which has no meaning here.
    case cannotRemoveRoot(index: Int)

    /// The failing operation's position, when the error is about one operation.
    public var operationIndex: Int? {
        switch self {
        case .invalidJSON, .notAnArray:
            return nil
        case .invalidOperation(let i, _), .pathNotFound(let i, _), .notAContainer(let i, _),
            .invalidArrayIndex(let i, _, _), .indexOutOfBounds(let i, _, _, _),
            .testFailed(let i, _), .moveIntoOwnChild(let i, _, _), .cannotRemoveRoot(let i):
            return i
        }
    }

    public var description: String {
        switch self {
        case .invalidJSON(let error):
            return "patch is not valid JSON: \(error)"
        case .notAnArray:
            return "patch is not a JSON array"
        case .invalidOperation(let i, let why):
            return "operation \(i): \(why)"
        case .pathNotFound(let i, let path):
            return "operation \(i): path \"\(path)\" not found"
        case .notAContainer(let i, let path):
            return "operation \(i): parent of \"\(path)\" is not an object or array"
        case .invalidArrayIndex(let i, let path, let token):
            return "operation \(i): \"\(token)\" in \"\(path)\" is not a valid array index"
        case .indexOutOfBounds(let i, let path, let arrayIndex, let count):
            return
                "operation \(i): index \(arrayIndex) in \"\(path)\" is beyond the array's \(count) elements"
        case .testFailed(let i, let path):
            return "operation \(i): test of \"\(path)\" failed"
        case .moveIntoOwnChild(let i, let from, let path):
            return "operation \(i): cannot move \"\(from)\" into its own child \"\(path)\""
        case .cannotRemoveRoot(let i):
            return "operation \(i): cannot remove the whole document"
        }
    }
}
