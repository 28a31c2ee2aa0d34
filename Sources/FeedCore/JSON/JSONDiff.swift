/// Computes a small JSON Patch that turns one document into another.
///
/// `diff(from: a, to: b).applied(to: a) == b` always holds (with ``JSONValue``'s JSON
/// equality). The patch is built as follows:
/// - Equal values (JSON equality) → no operation.
/// - Two objects → member by member: `remove` for keys only in `a`, a recursive diff for
///   keys in both, `add` for keys only in `b` (appended, so member order may differ from
///   `b`'s, which JSON equality ignores).
/// - Two arrays → common prefix and suffix are trimmed, then the middle is aligned with
///   Myers' O((N+M)D) shortest edit script on element equality (comparing elements
///   directly while the distance is at most 8, else on integer ids obtained by hashing
///   every element once). Kept elements cost nothing; inside each gap between
///   kept elements, deleted and inserted elements are paired up in order: a pair of two
///   objects or two arrays is diffed recursively, any other pair becomes one `replace`;
///   the surplus becomes `remove`s or `add`s. Indices are those valid at the moment each
///   operation is applied, in order.
/// - Whenever the operations found for two containers weigh more (one per operation plus
///   the nodes of the values they carry) than one `replace` of the whole container, that
///   `replace` is emitted instead, so unrelated values never explode into many operations.
/// - When the alignment would cost too much (edit distance beyond ``maxEditDistance`` or
///   ``maxAlignmentWork``), the middle is instead paired position by position (recursing
///   / replacing), with `remove`s or `add`s for the difference in length.
/// - Anything else (different kinds, different scalars) → `replace`, at the root with
///   path `""`.
public enum JSONDiff {
    /// The largest edit distance the array alignment searches before falling back.
    public static let maxEditDistance = 1_000
    /// The most steps (about (N+M)·D) the array alignment may take before falling back.
    public static let maxAlignmentWork = 20_000_000

    /// A patch that turns `a` into `b`.
    public static func diff(from a: JSONValue, to b: JSONValue) -> JSONPatch {
        var builder = _DiffBuilder()
        builder.diff(a, b, path: JSONPointer.root)
        return JSONPatch(operations: builder.operations)
    }
}

struct _DiffBuilder {
    var operations: [JSONPatch.Operation] = []

    /// The running total of ``cost(of:)`` over `operations`.
    var cost = 0

    mutating func append(_ operation: JSONPatch.Operation) {
        operations.append(operation)
        cost += Self.cost(of: operation)
    }

    /// A rough size of an operation: one for the operation plus the nodes of its value.
    static func cost(of operation: JSONPatch.Operation) -> Int {
        switch operation {
        case .add(_, let value), .replace(_, let value), .test(_, let value):
            return 1 + nodeCount(value)
        case .remove, .move, .copy:
            return 1
        }
    }

    /// The number of values in `value` (itself included), counting stops past `limit`.
    static func nodeCount(_ value: JSONValue, limit: Int = .max) -> Int {
        switch value {
        case .array(let elements):
            var count = 1
            for element in elements where count <= limit {
                count += nodeCount(element, limit: limit - count)
            }
            return count
        case .object(let members):
            var count = 1
            for member in members.values where count <= limit {
                count += nodeCount(member, limit: limit - count)
            }
            return count
        default:
            return 1
        }
    }

    mutating func diff(_ a: JSONValue, _ b: JSONValue, path: JSONPointer) {
        let mark = operations.count
        let costMark = cost
        switch (a, b) {
        case (.object(let x), .object(let y)):
            diffObjects(x, y, path: path)
        case (.array(let x), .array(let y)):
            diffArrays(x, y, path: path)
        default:
            if a != b {
                append(.replace(path: path, value: b))
            }
            return
        }
        // When the detailed changes outweigh simply replacing the container (two unrelated
        // objects, say), replace it instead.
        if operations.count - mark > 1 {
            let detailedCost = cost - costMark
            let replacementCost = 1 + Self.nodeCount(b, limit: detailedCost)
            if detailedCost > replacementCost {
                operations.removeSubrange(mark...)
                operations.append(.replace(path: path, value: b))
                cost = costMark + replacementCost
            }
        }
    }

    mutating func diffObjects(_ a: JSONObject, _ b: JSONObject, path: JSONPointer) {
        for (key, value) in a {
            if let other = b[key] {
                if !Self.sameKindContainers(value, other) {
                    if value != other {
                        append(.replace(path: path.appending(key), value: other))
                    }
                } else if value != other {
                    diff(value, other, path: path.appending(key))
                }
            } else {
                append(.remove(path: path.appending(key)))
            }
        }
        for (key, value) in b where a[key] == nil {
            append(.add(path: path.appending(key), value: value))
        }
    }

    static func sameKindContainers(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object, .object), (.array, .array): return true
        default: return false
        }
    }

    mutating func diffArrays(_ a: [JSONValue], _ b: [JSONValue], path: JSONPointer) {
        // Common prefix and suffix.
        var prefix = 0
        let shorter = min(a.count, b.count)
        while prefix < shorter && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let aMiddle = a[prefix..<(a.count - suffix)]
        let bMiddle = b[prefix..<(b.count - suffix)]
        if aMiddle.isEmpty && bMiddle.isEmpty { return }

        var script: [_Edit]? = nil
        if !aMiddle.isEmpty && !bMiddle.isEmpty {
            script = Self.align(aMiddle, bMiddle)
        }
        var position = prefix
        if let script {
            var aIndex = aMiddle.startIndex
            var bIndex = bMiddle.startIndex
            var i = 0
            while i < script.count {
                if script[i] == .keep {
                    aIndex += 1
                    bIndex += 1
                    position += 1
                    i += 1
                    continue
                }
                // A gap: consecutive deletes and inserts, in any order.
                var deletes = 0
                var inserts = 0
                while i < script.count && script[i] != .keep {
                    if script[i] == .delete { deletes += 1 } else { inserts += 1 }
                    i += 1
                }
                emitGap(
                    a[aIndex..<(aIndex + deletes)], b[bIndex..<(bIndex + inserts)],
                    position: &position, path: path)
                aIndex += deletes
                bIndex += inserts
            }
        } else {
            emitGap(aMiddle, bMiddle, position: &position, path: path)
        }
    }

    /// Turns the run `deleted` (at `position` in the array being patched) into `inserted`.
    mutating func emitGap(
        _ deleted: ArraySlice<JSONValue>, _ inserted: ArraySlice<JSONValue>,
        position: inout Int, path: JSONPointer
    ) {
        let paired = min(deleted.count, inserted.count)
        for k in 0..<paired {
            let old = deleted[deleted.startIndex + k]
            let new = inserted[inserted.startIndex + k]
            let elementPath = path.appending(index: position)
            if Self.sameKindContainers(old, new) {
                diff(old, new, path: elementPath)
            } else if old != new {
                append(.replace(path: elementPath, value: new))
            }
            position += 1
        }
        if deleted.count > paired {
            let elementPath = path.appending(index: position)
            for _ in paired..<deleted.count {
                append(.remove(path: elementPath))
            }
        }
        for k in paired..<inserted.count {
            append(.add(path: path.appending(index: position), value: inserted[inserted.startIndex + k]))
            position += 1
        }
    }

    /// Myers' shortest edit script between two non-empty runs, or `nil` when it would cost
    /// more than the limits allow.
    ///
    /// First a cheap attempt that compares elements directly (unequal JSON values usually
    /// differ early, so this is fast when the edit distance is small, the common case for a
    /// feed); if the distance exceeds a few edits, every element is mapped to an integer id
    /// by hashing and the search runs on ids with the full limits.
    static func align(_ a: ArraySlice<JSONValue>, _ b: ArraySlice<JSONValue>) -> [_Edit]? {
        let n = a.count
        let m = b.count
        let aStart = a.startIndex
        let bStart = b.startIndex
        if let edits = myers(
            n: n, m: m, maxD: min(n + m, 8), equal: { a[aStart + $0] == b[bStart + $1] })
        {
            return edits
        }
        // Map every element to a small integer id (equal elements, equal ids) so the search
        // compares integers. Buckets by a fast structural hash, verified with `==`.
        var representatives: [JSONValue] = []
        var nextInBucket: [Int32] = []
        var buckets: [UInt64: Int32] = [:]
        buckets.reserveCapacity(n + m)
        func id(of element: JSONValue) -> Int32 {
            let h = _FastHash.hash(element)
            var candidate = buckets[h] ?? -1
            while candidate >= 0 {
                if representatives[Int(candidate)] == element { return candidate }
                candidate = nextInBucket[Int(candidate)]
            }
            let new = Int32(truncatingIfNeeded: representatives.count)
            representatives.append(element)
            nextInBucket.append(buckets[h] ?? -1)
            buckets[h] = new
            return new
        }
        let x = a.map(id(of:))
        let y = b.map(id(of:))
        let maxD = min(n + m, JSONDiff.maxEditDistance, JSONDiff.maxAlignmentWork / max(n + m, 1))
        return myers(n: n, m: m, maxD: maxD, equal: { x[$0] == y[$1] })
    }

    /// Myers' greedy O((N+M)D) search for a shortest edit script of at most `maxD` edits,
    /// with `equal(i, j)` telling whether old element `i` equals new element `j`.
    static func myers(n: Int, m: Int, maxD: Int, equal: (Int, Int) -> Bool) -> [_Edit]? {
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        // trace[d] holds v[k] for k in -d...d after round d (stride 2), for backtracking.
        var trace: [[Int]] = []
        var finalD: Int? = nil
        search: for d in 0...maxD {
            var k = -d
            while k <= d {
                var xi: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    xi = v[offset + k + 1]  // down: insertion
                } else {
                    xi = v[offset + k - 1] + 1  // right: deletion
                }
                var yi = xi - k
                while xi < n && yi < m && yi >= 0 && equal(xi, yi) {
                    xi += 1
                    yi += 1
                }
                v[offset + k] = xi
                if xi >= n && yi >= m {
                    finalD = d
                    trace.append(Array(v[(offset - d)...(offset + d)]))
                    break search
                }
                k += 2
            }
            trace.append(Array(v[(offset - d)...(offset + d)]))
        }
        guard var d = finalD else { return nil }

        // Backtrack from (n, m) to (0, 0), collecting edits in reverse. The path never
        // leaves the grid: x and y only grow along it and end at (n, m).
        var edits: [_Edit] = []
        edits.reserveCapacity(n + m)
        var xi = n
        var yi = m
        while d > 0 {
            let k = xi - yi
            let previous = trace[d - 1]  // k in -(d-1)...(d-1) at indices 0...2d-2
            let base = d - 1
            let previousK: Int
            if k == -d || (k != d && previous[base + k - 1] < previous[base + k + 1]) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = previous[base + previousK]
            let previousY = previousX - previousK
            while xi > previousX && yi > previousY {
                edits.append(.keep)
                xi -= 1
                yi -= 1
            }
            if previousK == k + 1 {
                edits.append(.insert)
                yi -= 1
            } else {
                edits.append(.delete)
                xi -= 1
            }
            d -= 1
        }
        while xi > 0 && yi > 0 {
            edits.append(.keep)
            xi -= 1
            yi -= 1
        }
        edits.reverse()
        return edits
    }
}

enum _Edit: UInt8 {
    case keep, delete, insert
}
