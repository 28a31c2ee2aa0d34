import FeedCore

/// What of `/inspect`'s document tree (``JSONTreeHTML``) a new document redraws: the whole
/// tree, or only the nodes whose drawing changed, each swapped in by its id.
///
/// A scalar is redrawn when its JSON text or type changed; a container when it became
/// another kind, or its member names, their order or its length changed; otherwise only
/// what changed within it is. An event that replaces a title and bumps a version redraws
/// those two lines, not the document.
enum JSONTreeChange: Sendable, Equatable {
    /// The whole tree (`#inspect-tree`).
    case whole
    /// These nodes, each whole (none inside another; empty: nothing drawn changed).
    case nodes([JSONPointer])

    /// The most nodes redrawn one by one; past it the tree is redrawn whole.
    static let maxNodes = 64

    /// What redraws the tree of `old` as the tree of `new`: ``whole`` when there was none,
    /// when either is too large to be drawn whole (``JSONTreeHTML/isWhole(_:)``: a node's
    /// drawing then depends on what comes before it), when the root itself changed or more
    /// than ``maxNodes`` did.
    static func between(_ old: JSONValue?, _ new: JSONValue?) -> JSONTreeChange {
        guard let old, let new, JSONTreeHTML.isWhole(old), JSONTreeHTML.isWhole(new) else { return .whole }
        var changed: [JSONPointer] = []
        guard !redraws(old, new, at: .root, changed: &changed), changed.count <= maxNodes else { return .whole }
        return .nodes(changed)
    }

    /// Whether the node at `path` must be redrawn whole (``JSONTreeChange``'s rule); if not,
    /// adds the nodes within it that must be to `changed`. Stops adding past ``maxNodes``.
    private static func redraws(
        _ old: JSONValue, _ new: JSONValue, at path: JSONPointer, changed: inout [JSONPointer]
    ) -> Bool {
        switch (old, new) {
        case (.object(let before), .object(let after)):
            guard before.count == after.count, before.keys.elementsEqual(after.keys) else { return true }
            for (name, pair) in zip(after.keys, zip(before.values, after.values)) {
                guard changed.count <= maxNodes else { return false }
                if redraws(pair.0, pair.1, at: path.appending(name), changed: &changed) {
                    changed.append(path.appending(name))
                }
            }
            return false
        case (.array(let before), .array(let after)):
            guard before.count == after.count else { return true }
            for (index, pair) in zip(before, after).enumerated() {
                guard changed.count <= maxNodes else { return false }
                if redraws(pair.0, pair.1, at: path.appending(index: index), changed: &changed) {
                    changed.append(path.appending(index: index))
                }
            }
            return false
        default:
            return !drawnAlike(old, new)
        }
    }

    /// Whether two values, not both objects nor both arrays, are drawn alike: the same
    /// scalar type and JSON text (`1` and `1.0` are equal JSON, but not drawn alike).
    private static func drawnAlike(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): x == y
        default: false
        }
    }
}
