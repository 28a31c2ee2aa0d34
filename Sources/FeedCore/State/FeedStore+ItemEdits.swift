/// Append mode's edits of an item already kept, by its key: a post edited or deleted after
/// it arrived (Mastodon's streaming API sends `status.update` with the whole post again and
/// `delete` with its id). The item is found by the reading's key path
/// (``ItemProfile/keyPath``), its key made as the pages make it (``ItemKey``), so an id
/// sent as text finds an item whose id is a number and the other way round. Where the
/// protocol itself names where an item's id is (a Kubernetes watch: `/metadata/uid`),
/// ``putItem(_:idAt:keep:position:arrival:)`` and ``removeItem(withID:at:position:arrival:)``
/// find it by that id, equal as JSON, whatever the reading decided.
///
/// Each edit is one patch on the document's `items`, tested first: the item at the index
/// found must still have its id there, or nothing changes. Nothing changes either when no
/// item has the key (it was dropped past `--keep`, or came before feedweb connected), when
/// the items have no key path yet (read from fewer than ``ItemReading/settlingItems``), or
/// when there is no document.
extension FeedStore {
    /// Puts `item` in place of the kept item with its key. Returns the change, or `nil` when
    /// nothing changed.
    @discardableResult
    public func replaceItem(_ item: JSONValue, position: String? = nil, arrival: UpstreamArrival? = nil)
        -> FeedChange?
    {
        guard let keyPath = itemReading.profile.keyPath, let id = item.value(at: keyPath), !id.isNull,
            let kept = keptItem(keyed: ItemKey.make(id: id, item: item), at: keyPath), kept.item != item
        else { return nil }
        return edit(
            [kept.test, .replace(path: kept.pointer, value: item)], position: position, arrival: arrival)
    }

    /// Takes the kept item whose key is `key` (an id as upstream sent it) out. Returns the
    /// change, or `nil` when nothing changed.
    @discardableResult
    public func removeItem(keyed key: String, position: String? = nil, arrival: UpstreamArrival? = nil)
        -> FeedChange?
    {
        guard let keyPath = itemReading.profile.keyPath, !key.isEmpty,
            let kept = keptItem(keyed: ItemKey.make(id: .string(key), item: .null), at: keyPath)
        else { return nil }
        return edit([kept.test, .remove(path: kept.pointer)], position: position, arrival: arrival)
    }

    /// Puts `item` in place of the kept item with the same id at `idAt`, or first (keeping
    /// the newest `keep`) when none has it or `item` has no id there: a Kubernetes watch's
    /// `ADDED` and `MODIFIED`, which a new watch sends again for every object. Returns the
    /// last change, or `nil` when the kept item is `item` already. See
    /// ``putItems(_:idAt:keep:position:arrival:)``.
    @discardableResult
    public func putItem(
        _ item: JSONValue, idAt idPath: JSONPointer, keep: Int, position: String? = nil,
        arrival: UpstreamArrival? = nil
    ) -> FeedChange? {
        putItems(CollectionOfOne(item), idAt: idPath, keep: keep, position: position, arrival: arrival).last
    }

    /// Puts each of `items` (oldest first, as they arrived) in place of the kept item with
    /// the same id at `idPath`, or first when none has it; an id that comes more than once is
    /// put once, as it came last, where it came first. At most two changes, in one pass over
    /// the kept items: the kept ones replaced (one patch, each tested), then the new ones put
    /// first and the newest `keep` kept (``prependItems(_:keep:position:arrival:)``). So a
    /// watch's first burst of thousands of objects is one change, not one each. Returns the
    /// changes made.
    ///
    /// When the new ones would make more than `keep`, the kept items put least recently
    /// (``ItemRecency``) go, wherever they are, in the first change (each tested, then
    /// removed), so the second only puts the new ones first.
    @discardableResult
    public func putItems(
        _ items: some Collection<JSONValue>, idAt idPath: JSONPointer, keep: Int, position: String? = nil,
        arrival: UpstreamArrival? = nil
    ) -> [FeedChange] {
        let keep = max(1, keep)
        let current = snapshot?.value(at: Self.itemsPointer)?.arrayValue ?? []
        var keptIDs: [JSONValue?] = []
        keptIDs.reserveCapacity(current.count)
        var keptIndex: [JSONValue: Int] = [:]
        for (index, item) in current.enumerated() {
            guard let id = item.value(at: idPath), !id.isNull else {
                keptIDs.append(nil)
                continue
            }
            keptIDs.append(id)
            if keptIndex[id] == nil { keptIndex[id] = index }
        }
        var replacements: [Int: JSONValue] = [:]
        var fresh: [JSONValue] = []
        var freshIndex: [JSONValue: Int] = [:]
        var putIDs: [JSONValue] = []
        for item in items {
            guard let id = item.value(at: idPath), !id.isNull else {
                fresh.append(item)
                continue
            }
            putIDs.append(id)
            if let index = keptIndex[id] {
                replacements[index] = item
            } else if let index = freshIndex[id] {
                fresh[index] = item
            } else {
                freshIndex[id] = fresh.count
                fresh.append(item)
            }
        }
        let overflow = current.count + fresh.count - keep
        let leaving =
            overflow > 0 && fresh.count < keep
            ? recency.withLockedValue {
                $0.leastRecent(overflow, of: keptIDs, sparing: Set(replacements.keys))
            } : []
        var changes: [FeedChange] = []
        var operations: [JSONPatch.Operation] = []
        for (index, item) in replacements.sorted(by: { $0.key < $1.key }) where current[index] != item {
            let kept = Self.keptItem(at: index, id: item.value(at: idPath) ?? .null, idPath: idPath)
            operations += [kept.test, .replace(path: kept.pointer, value: item)]
        }
        // From the last up, so that each index still names the item it was chosen for.
        for index in leaving.sorted(by: >) {
            let pointer = Self.itemsPointer.appending(index: index)
            let test =
                keptIDs[index].map { Self.keptItem(at: index, id: $0, idPath: idPath).test }
                ?? .test(path: pointer, value: current[index])
            operations += [test, .remove(path: pointer)]
        }
        // Each version put in place is one of upstream's changes (`/stats` counts them).
        if !operations.isEmpty,
            let change = try? apply(
                JSONPatch(operations: operations), carrying: items.count - fresh.count, position: position,
                arrival: arrival)
        {
            changes.append(change)
        }
        if !fresh.isEmpty { changes.append(prependItems(fresh, keep: keep, position: position, arrival: arrival)) }
        recency.withLockedValue { recency in
            recency.put(putIDs)
            recency.forget(keep: keep) {
                let left = Set(leaving)
                var kept = Set(freshIndex.keys)
                for (index, id) in keptIDs.enumerated() where !left.contains(index) {
                    if let id { kept.insert(id) }
                }
                return kept
            }
        }
        return changes
    }

    /// Makes a list of every object there is (a Kubernetes list) the kept items: the kept
    /// items with an id at `idPath` that is not in `listedIDs` are taken out (one change,
    /// each tested), then `items` are put (``putItems(_:idAt:keep:position:arrival:)``).
    /// `listedIDs` are the ids of every listed object; `items` may be fewer than the list
    /// (``KubernetesListing``: the ones putting can keep). Kept items without an id there
    /// stay. Returns the changes made.
    @discardableResult
    public func replaceItems(
        _ items: [JSONValue], listedIDs: Set<JSONValue>, idAt idPath: JSONPointer, keep: Int,
        position: String? = nil, arrival: UpstreamArrival? = nil
    ) -> [FeedChange] {
        let current = snapshot?.value(at: Self.itemsPointer)?.arrayValue ?? []
        var operations: [JSONPatch.Operation] = []
        // Last first, so that each removal leaves the indexes before it as they were.
        for (index, item) in current.enumerated().reversed() {
            guard let id = item.value(at: idPath), !id.isNull, !listedIDs.contains(id) else { continue }
            let kept = Self.keptItem(at: index, id: id, idPath: idPath)
            operations += [kept.test, .remove(path: kept.pointer)]
        }
        var changes: [FeedChange] = []
        if !operations.isEmpty, let change = edit(operations, position: position, arrival: arrival) {
            changes.append(change)
        }
        return changes + putItems(items, idAt: idPath, keep: keep, position: position, arrival: arrival)
    }

    /// The ids at `idPath` of the kept items.
    public func keptIDs(at idPath: JSONPointer) -> Set<JSONValue> {
        var ids = Set<JSONValue>()
        for item in snapshot?.value(at: Self.itemsPointer)?.arrayValue ?? [] {
            if let id = item.value(at: idPath), !id.isNull { ids.insert(id) }
        }
        return ids
    }

    /// Takes the kept item whose value at `idPath` is `id` out: a Kubernetes watch's
    /// `DELETED`. Returns the change, or `nil` when no kept item has it.
    @discardableResult
    public func removeItem(
        withID id: JSONValue, at idPath: JSONPointer, position: String? = nil, arrival: UpstreamArrival? = nil
    ) -> FeedChange? {
        guard !id.isNull, let kept = keptItem(at: idPath, where: { kept, _ in kept == id }) else { return nil }
        return edit([kept.test, .remove(path: kept.pointer)], position: position, arrival: arrival)
    }

    /// The kept item keyed `key`: where it is, what it is, and the test that it is still
    /// there with its id.
    private func keptItem(keyed key: String, at keyPath: JSONPointer)
        -> (pointer: JSONPointer, item: JSONValue, test: JSONPatch.Operation)?
    {
        keptItem(at: keyPath) { id, item in ItemKey.make(id: id, item: item) == key }
    }

    /// The first kept item whose id at `idPath` `matches` (given the id and the item): where
    /// it is, what it is, and the test that it is still there with its id.
    private func keptItem(at idPath: JSONPointer, where matches: (JSONValue, JSONValue) -> Bool)
        -> (pointer: JSONPointer, item: JSONValue, test: JSONPatch.Operation)?
    {
        guard let items = snapshot?.value(at: Self.itemsPointer)?.arrayValue else { return nil }
        for (index, item) in items.enumerated() {
            guard let id = item.value(at: idPath), !id.isNull, matches(id, item) else { continue }
            let kept = Self.keptItem(at: index, id: id, idPath: idPath)
            return (kept.pointer, item, kept.test)
        }
        return nil
    }

    /// Whether the document keeps any items now.
    var keepsItems: Bool {
        snapshot?.value(at: Self.itemsPointer)?.arrayValue?.isEmpty == false
    }

    /// Where the document keeps its items.
    private static let itemsPointer = JSONPointer(tokens: [MirrorDocument.itemsMember])

    /// The kept item at `index`: its pointer, and the test that it still has `id` at
    /// `idPath`, which each edit of it runs first.
    private static func keptItem(at index: Int, id: JSONValue, idPath: JSONPointer)
        -> (pointer: JSONPointer, test: JSONPatch.Operation)
    {
        let pointer = itemsPointer.appending(index: index)
        return (pointer, .test(path: JSONPointer(tokens: pointer.tokens + idPath.tokens), value: id))
    }

    /// Applies `operations` as one change; `nil` when they do not apply (the item moved
    /// meanwhile).
    private func edit(_ operations: [JSONPatch.Operation], position: String?, arrival: UpstreamArrival?)
        -> FeedChange?
    {
        try? apply(JSONPatch(operations: operations), position: position, arrival: arrival)
    }
}
