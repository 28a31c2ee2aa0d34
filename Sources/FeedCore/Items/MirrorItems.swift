/// The items of the mirror, kept in step with each accepted patch: only the elements a
/// patch touches are extracted again, and the item-level changes are derived from the
/// patch's paths (where they touch the items array) instead of comparing every item.
///
/// Invariants, after every ``apply(_:to:extractor:)``:
/// - ``items`` equals `extractor.items(in: document)` (feed order, objects only, the first
///   of repeated keys);
/// - the returned changes equal `ItemChange.between(itemsBefore, items)`.
/// A patch the incremental path does not follow (one that replaces the array itself or an
/// ancestor, or moves or copies into or out of it) falls back to a full extraction and
/// diff, with the same results.
///
/// Owned by ``FeedStore`` and only touched under its write lock.
struct MirrorItems: Sendable {
    /// One entry per element of the document's items array: its item, or `nil` when the
    /// element is not an object.
    private var elements: [FeedItem?]
    /// The items in feed order, without repeated keys.
    private(set) var items: [FeedItem]
    /// `items` by key: the position of each.
    private(set) var indexByKey: [String: Int]

    /// How many changes were derived from the patch, and how many needed a full
    /// extraction and diff (for tests and the benchmarks).
    private(set) var incrementalCount = 0
    private(set) var fullCount = 0

    /// The items of `document`, extracted in full.
    init(document: JSONValue, extractor: ItemExtractor) {
        elements = []
        items = []
        indexByKey = [:]
        rebuild(from: document, extractor: extractor)
    }

    /// Takes `document` as a whole new state (a snapshot): extracts everything again.
    /// Returns every item as added.
    mutating func replaceAll(with document: JSONValue, extractor: ItemExtractor) -> [ItemChange] {
        let before = items
        rebuild(from: document, extractor: extractor)
        fullCount += 1
        return ItemChange.between(before, items)
    }

    /// Follows `patch`, which turned the previous document into `document`; returns the
    /// item changes it made.
    mutating func apply(_ patch: JSONPatch, to document: JSONValue, extractor: ItemExtractor) -> [ItemChange] {
        let before = (items: items, indexByKey: indexByKey)
        if let changes = applyIncrementally(patch, to: document, extractor: extractor, before: before) {
            incrementalCount += 1
            return changes
        }
        rebuild(from: document, extractor: extractor)
        fullCount += 1
        return ItemChange.between(before.items, items)
    }

    private mutating func rebuild(from document: JSONValue, extractor: ItemExtractor) {
        let array = document.value(at: extractor.profile.itemsPath)?.arrayValue ?? []
        elements = array.map { element in
            guard case .object = element else { return nil }
            return extractor.item(from: element)
        }
        dedupe()
    }

    /// Makes `items` and `indexByKey` from `elements`.
    private mutating func dedupe() {
        var items: [FeedItem] = []
        items.reserveCapacity(elements.count)
        var index: [String: Int] = [:]
        index.reserveCapacity(elements.count)
        for case let item? in elements where index[item.key] == nil {
            index[item.key] = items.count
            items.append(item)
        }
        self.items = items
        self.indexByKey = index
    }

    /// `nil` when the patch does something this path does not follow; `self` is then
    /// left for the caller to rebuild.
    private mutating func applyIncrementally(
        _ patch: JSONPatch, to document: JSONValue, extractor: ItemExtractor,
        before: (items: [FeedItem], indexByKey: [String: Int])
    ) -> [ItemChange]? {
        let base = extractor.profile.itemsPath.tokens
        /// Whether `path` is the items array, an ancestor of it, or inside it.
        func relates(_ path: JSONPointer) -> Bool {
            let tokens = path.tokens
            return tokens.count <= base.count ? base.starts(with: tokens) : tokens.starts(with: base)
        }
        // Per current element: whether the patch touched it (so it is extracted again at
        // the end), and the item it was before the patch (`nil`: inserted by the patch).
        var touched: [Bool]?
        var origin: [FeedItem?] = []
        var replaced: [FeedItem] = []
        for operation in patch.operations {
            let path: JSONPointer
            switch operation {
            case .test:
                continue
            case .move(let from, let to), .copy(let from, let to):
                if relates(from) || relates(to) { return nil }
                continue
            case .add(let to, _), .remove(let to), .replace(let to, _):
                path = to
            }
            let tokens = path.tokens
            guard tokens.count > base.count else {
                if base.starts(with: tokens) { return nil }  // the array or an ancestor
                continue
            }
            guard tokens.starts(with: base) else { continue }
            if touched == nil {
                touched = Array(repeating: false, count: elements.count)
                origin = elements
            }
            let token = tokens[base.count]
            if tokens.count > base.count + 1 {
                // Inside one element: extract it again at the end.
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                touched?[index] = true
                continue
            }
            switch operation {
            case .add:
                let index = token == "-" ? elements.count : JSONPointer.arrayIndex(token) ?? -1
                guard index >= 0, index <= elements.count else { return nil }
                elements.insert(nil, at: index)
                origin.insert(nil, at: index)
                touched?.insert(true, at: index)
            case .remove:
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                if let old = origin[index] { replaced.append(old) }
                elements.remove(at: index)
                origin.remove(at: index)
                touched?.remove(at: index)
            case .replace:
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                if let old = origin[index] { replaced.append(old) }
                origin[index] = nil
                touched?[index] = true
            default:
                continue
            }
        }
        guard let touched else { return [] }  // the items array was not touched
        guard let array = document.value(at: extractor.profile.itemsPath)?.arrayValue, array.count == elements.count
        else { return nil }

        // Extract the touched elements from the document as it is now.
        var touchedKeys = Set<String>()
        for (index, isTouched) in touched.enumerated() where isTouched {
            if case .object = array[index] {
                let item = extractor.item(from: array[index])
                elements[index] = item
                touchedKeys.insert(item.key)
            } else {
                elements[index] = nil
            }
            if let old = origin[index] { replaced.append(old) }
        }
        for old in replaced { touchedKeys.insert(old.key) }
        dedupe()

        // The changes, as `ItemChange.between` orders them: the new items in feed order,
        // then the removed ones in their old order. Untouched elements are unchanged, so
        // only touched keys need comparing.
        var changes: [ItemChange] = []
        for item in items where touchedKeys.contains(item.key) {
            if let position = before.indexByKey[item.key] {
                let old = before.items[position]
                if old != item { changes.append(ItemChange(kind: .updated, item: item, previous: old)) }
            } else {
                changes.append(ItemChange(kind: .added, item: item))
            }
        }
        let gone = touchedKeys.filter { indexByKey[$0] == nil }.compactMap { before.indexByKey[$0] }.sorted()
        for position in gone {
            changes.append(ItemChange(kind: .removed, item: before.items[position]))
        }
        return changes
    }
}
