/// How a page that can only replace, delete and insert elements (htmx's out-of-band swaps,
/// Datastar's patches) gets from one frame's entries to the next, worked out without I/O.
///
/// feedweb's own page script reorders the elements it has; these libraries cannot move an
/// element without its HTML. So a reordering is told as the fewest entries taken out and put
/// back: those not in a longest run of entries that kept their relative order (a longest
/// increasing subsequence of their old positions), each put back after the entry above it.
/// A sorted table whose changed row moves sends that row alone.
enum EntryEdit: Sendable, Equatable {
    /// Every entry, in order: the container's content replaced (a whole state).
    case all([String])
    /// `remove` (dom ids) deleted, then each run of `insert` put in, top to bottom, then
    /// each of `update` replaced where it is.
    case change(remove: [String], insert: [Run], update: [String])

    /// Entries (dom ids, top first) to insert together: at the top of the container when
    /// `after` is `nil`, else right after the entry `after`.
    struct Run: Sendable, Equatable {
        let after: String?
        var ids: [String]
    }

    /// The dom ids of the entries that need their fragment: every one for ``all(_:)``, the
    /// inserted and updated ones for ``change(remove:insert:update:)``.
    var needed: [String] {
        switch self {
        case .all(let ids): ids
        case .change(_, let insert, let update): insert.flatMap(\.ids) + update
        }
    }

    /// New entries on top (`prepend`, top first), `remove` gone, `changed` replaced in place
    /// (a ``ListOrderChange/delta(prepend:remove:)``, or nothing moved at all).
    static func delta(prepend: [String], remove: [String], changed: [String]) -> EntryEdit {
        let top = Set(prepend)
        return .change(
            remove: remove, insert: prepend.isEmpty ? [] : [Run(after: nil, ids: prepend)],
            update: changed.filter { !top.contains($0) })
    }

    /// From the entries `before` to the entries `after` (dom ids, top first); `changed` are
    /// the entries whose fragment changed (or that are new).
    ///
    /// Cost: O(n log n) in the entries, on ids alone.
    static func between(before: [String], after: [String], changed: [String]) -> EntryEdit {
        var position: [String: Int] = [:]
        position.reserveCapacity(before.count)
        for (index, id) in before.enumerated() { position[id] = index }
        // The entries that stay, as (their index in `after`, their index in `before`).
        var stayed: [(after: Int, before: Int)] = []
        for (index, id) in after.enumerated() {
            if let old = position[id] { stayed.append((index, old)) }
        }
        // A longest increasing subsequence of the old positions (patience sorting).
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: stayed.count)
        for k in stayed.indices {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if stayed[tails[middle]].before < stayed[k].before { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[k] = tails[low - 1] }
            if low == tails.count { tails.append(k) } else { tails[low] = k }
        }
        var kept = Set<String>()
        var k = tails.last ?? -1
        while k >= 0 {
            kept.insert(after[stayed[k].after])
            k = previous[k]
        }
        let remove = before.filter { !kept.contains($0) }
        var runs: [Run] = []
        var runEnd = -2
        for (index, id) in after.enumerated() where !kept.contains(id) {
            if index == runEnd + 1, !runs.isEmpty {
                runs[runs.count - 1].ids.append(id)
            } else {
                runs.append(Run(after: index == 0 ? nil : after[index - 1], ids: [id]))
            }
            runEnd = index
        }
        return .change(remove: remove, insert: runs, update: changed.filter { kept.contains($0) })
    }
}
