/// The items of the mirror, kept in step with each accepted patch: only the elements a
/// patch touches are extracted again, and the item-level changes are derived from the
/// patch's paths (where they touch the items array) instead of comparing every item.
///
/// Invariants, after every ``apply(_:to:extractor:)``:
/// - ``items`` equals `extractor.items(in: document)` (feed order, objects only, the first
///   of repeated keys), and ``itemsByKey`` holds exactly those items by key;
/// - the returned changes equal `ItemChange.between(itemsBefore, items)`;
/// - `nonObjects` is the number of `nil` entries of `elements`; while it is 0, `items`
///   and `elements` hold the same items at the same positions.
///
/// Work per patch: hashing and extraction only for the keys and elements the patch
/// touched; the rest is one pass over flags (a few microseconds for 1,000 items). While
/// every element is an object, the items follow the patch's inserts and removals in
/// place (chunked: only the chunks touched are copied from the published view's items);
/// otherwise they are gathered from the elements again. A patch the incremental path does not follow (one that replaces the
/// array itself or an ancestor, moves or copies into or out of it, or an items array with
/// repeated keys before or after) falls back to a full extraction and diff, with the same
/// results. Items that are an object's members (``ItemsForm/members(nameMember:)``) are
/// followed in place while a patch only changes or replaces members; a member added or
/// removed gathers them again. A series' rows, rows of values and an object's values
/// (``ItemsForm/series``, ``ItemsForm/rows(names:header:)``,
/// ``ItemsForm/values(nameMember:valueMember:)``) are gathered again whenever a patch
/// touches them.
///
/// Owned by ``FeedStore`` and only touched under its write lock.
struct MirrorItems: Sendable {
    /// One entry per element of the document's items array: its item, or `nil` when the
    /// element is not an object.
    private var elements: ChunkedArray<FeedItem?>
    /// How many of `elements` are `nil`.
    private var nonObjects = 0
    /// The items in feed order, without repeated keys.
    private(set) var items: ChunkedArray<FeedItem>
    /// `items` by key.
    private(set) var itemsByKey: [String: FeedItem]
    /// How many elements carry each key; a key is in ``itemsByKey`` exactly when it is here.
    private var keyCounts: [String: Int]
    /// How many keys more than one element carries (then the first one is the item).
    private var repeatedKeys = 0

    /// How many elements are objects whose key an element before them carries: not items,
    /// so not shown (what a page says, so that none is lost unsaid).
    var hiddenItems: Int { elements.count - nonObjects - items.count }

    /// The items of `document`, extracted in full.
    init(document: MirrorDocument, extractor: ItemExtractor) {
        elements = []
        items = []
        itemsByKey = [:]
        keyCounts = [:]
        rebuild(from: document, extractor: extractor)
    }

    /// Takes `document` as a whole new state (a snapshot): extracts everything again.
    /// Returns every item as added.
    mutating func replaceAll(with document: MirrorDocument, extractor: ItemExtractor) -> [ItemChange] {
        let before = items
        rebuild(from: document, extractor: extractor)
        return ItemChange.between(before, items)
    }

    /// Follows `patch`, which turned the previous document into `document`; returns the
    /// item changes it made.
    mutating func apply(_ patch: JSONPatch, to document: MirrorDocument, extractor: ItemExtractor) -> [ItemChange] {
        let before = items
        if let changes = applyIncrementally(patch, to: document, extractor: extractor) { return changes }
        rebuild(from: document, extractor: extractor)
        return ItemChange.between(before, items)
    }

    private mutating func rebuild(from document: MirrorDocument, extractor: ItemExtractor) {
        func item(_ element: JSONValue) -> FeedItem? {
            guard case .object = element else { return nil }
            return extractor.item(from: element)
        }
        let path = extractor.profile.itemsPath
        let elements =
            extractor.profile.itemsForm.isElements
            ? document.elements(at: path)?.map(item) ?? []
            : extractor.elements(of: document.value(at: path))?.map(item) ?? []
        var items: [FeedItem] = []
        items.reserveCapacity(elements.count)
        var byKey: [String: FeedItem] = [:]
        byKey.reserveCapacity(elements.count)
        var counts: [String: Int] = [:]
        counts.reserveCapacity(elements.count)
        var repeated = 0
        for case let item? in elements {
            counts[item.key, default: 0] += 1
            if counts[item.key] == 2 { repeated += 1 }
            if byKey[item.key] == nil {
                byKey[item.key] = item
                items.append(item)
            }
        }
        self.elements = ChunkedArray(elements)
        self.nonObjects = elements.count(where: { $0 == nil })
        self.items = ChunkedArray(items)
        self.itemsByKey = byKey
        self.keyCounts = counts
        self.repeatedKeys = repeated
    }

    /// Where the elements of the array come from while a patch is followed: for each
    /// current position, whether the patch touched it (so it is extracted again at the
    /// end) and the position it had before the patch (`-1`: inserted by the patch).
    private struct Trace {
        var touched: [Bool]
        var origin: [Int]
        /// The elements the patch removed or replaced whole, by their position before the
        /// patch.
        var displaced: [(position: Int, item: FeedItem?)] = []

        init(count: Int) {
            touched = Array(repeating: false, count: count)
            origin = Array(0..<count)
        }
    }

    /// The item changes `patch` made, derived from its paths; `nil` when the patch does
    /// something this path does not follow (`self` is then left for the caller to rebuild).
    /// Internal, not private, so that tests can tell which path a patch takes.
    mutating func applyIncrementally(
        _ patch: JSONPatch, to document: MirrorDocument, extractor: ItemExtractor
    ) -> [ItemChange]? {
        switch extractor.profile.itemsForm {
        case .elements:
            break
        case .members(let nameMember):
            return applyToMembers(patch, to: document, extractor: extractor, nameMember: nameMember)
        case .series, .rows, .values, .texts:
            // Made by the extractor from plain values: a patch inside them gathers the
            // items again (a series, a sheet, an object of values or a list of texts is
            // short), one elsewhere changes no item.
            let base = extractor.profile.itemsPath.tokens
            let touches = patch.operations.contains { operation in
                switch operation {
                case .test: false
                case .move(let from, let to), .copy(let from, let to):
                    Self.relates(from, to: base) || Self.relates(to, to: base)
                case .add(let path, _), .remove(let path), .replace(let path, _): Self.relates(path, to: base)
                }
            }
            return touches ? nil : []
        }
        guard repeatedKeys == 0 else { return nil }
        // While every element is an object, `items` takes the same inserts and removals
        // (a placeholder where an element is inserted or replaced, set at the end).
        let inStep = nonObjects == 0
        let placeholder = FeedItem(key: "")
        let base = extractor.profile.itemsPath.tokens
        func relates(_ path: JSONPointer) -> Bool { Self.relates(path, to: base) }
        // `elements` keeps the items from before the patch at every position the patch did
        // not insert until the end, where the touched ones are extracted again; so the
        // old item of a displaced position is read from it when it is displaced.
        var trace: Trace?
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
            if trace == nil { trace = Trace(count: elements.count) }
            let token = tokens[base.count]
            if tokens.count > base.count + 1 {
                // Inside one element: extract it again at the end.
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                trace?.touched[index] = true
                continue
            }
            switch operation {
            case .add:
                let index = token == "-" ? elements.count : JSONPointer.arrayIndex(token) ?? -1
                guard index >= 0, index <= elements.count else { return nil }
                elements.insert(nil, at: index)
                if inStep { items.insert(placeholder, at: index) }
                trace?.origin.insert(-1, at: index)
                trace?.touched.insert(true, at: index)
            case .remove:
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                if let old = trace?.origin[index], old >= 0 { trace?.displaced.append((old, elements[index])) }
                elements.remove(at: index)
                if inStep { items.remove(at: index) }
                trace?.origin.remove(at: index)
                trace?.touched.remove(at: index)
            case .replace:
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                if let old = trace?.origin[index], old >= 0 { trace?.displaced.append((old, elements[index])) }
                trace?.origin[index] = -1
                elements[index] = nil
                trace?.touched[index] = true
            default:
                continue
            }
        }
        guard var trace else { return [] }  // the items array was not touched
        guard let array = document.elements(at: extractor.profile.itemsPath), array.count == elements.count
        else { return nil }

        // Extract the touched elements from the document as it is now; count keys out
        // (the old items at touched or displaced positions) and in (the new ones).
        var fresh: [FeedItem] = []
        for (index, isTouched) in trace.touched.enumerated() where isTouched {
            if trace.origin[index] >= 0 { trace.displaced.append((trace.origin[index], elements[index])) }
            let element = array[index]
            if case .object = element {
                let item = extractor.item(from: element)
                elements[index] = item
                if inStep { items[index] = item }
                fresh.append(item)
            } else {
                elements[index] = nil
                nonObjects += 1
            }
        }
        trace.displaced.sort { $0.position < $1.position }  // feed order before the patch
        nonObjects -= trace.displaced.count(where: { $0.item == nil })
        let gone = trace.displaced.compactMap(\.item)
        for item in gone { count(item.key, by: -1) }
        for item in fresh { count(item.key, by: 1) }
        guard repeatedKeys == 0 else { return nil }

        // No key repeats, before or after: the items are the elements that are objects,
        // and only the keys counted above can have changed. The changes, as
        // `ItemChange.between` orders them: the new items in feed order (the touched
        // positions are in feed order), then the removed ones in their old order;
        // `itemsByKey` is still the index before the patch here.
        var changes: [ItemChange] = []
        for item in fresh {
            if let old = itemsByKey[item.key] {
                if old != item { changes.append(ItemChange(kind: .updated, item: item, previous: old)) }
            } else {
                changes.append(ItemChange(kind: .added, item: item))
            }
        }
        for item in gone where keyCounts[item.key] == nil {
            changes.append(ItemChange(kind: .removed, item: item))
        }
        if !inStep || nonObjects > 0 { items = ChunkedArray(elements.lazy.compactMap { $0 }) }
        for item in gone where keyCounts[item.key] == nil { itemsByKey[item.key] = nil }
        for item in fresh { itemsByKey[item.key] = item }
        return changes
    }

    /// ``applyIncrementally(_:to:extractor:)`` for items that are an object's members: a
    /// patch that changes values inside members, or replaces members whole, has only those
    /// members extracted again, in place (a member keeps its place in the object when it is
    /// replaced). `nil`, for a rebuild, when the patch adds, removes, moves or copies a
    /// member, touches the object or an ancestor, when a member is not an object, or when an
    /// item's key changes (a `--key-path` inside the items).
    private mutating func applyToMembers(
        _ patch: JSONPatch, to document: MirrorDocument, extractor: ItemExtractor, nameMember: String
    ) -> [ItemChange]? {
        guard repeatedKeys == 0, nonObjects == 0 else { return nil }
        let base = extractor.profile.itemsPath.tokens
        var touched: [String] = []
        for operation in patch.operations {
            let path: JSONPointer
            switch operation {
            case .test:
                continue
            case .move(let from, let to), .copy(let from, let to):
                if Self.relates(from, to: base) || Self.relates(to, to: base) { return nil }
                continue
            case .add(let to, _), .remove(let to):
                // A member added or removed moves the items after it: gathered again.
                if to.tokens.count <= base.count + 1, Self.relates(to, to: base) { return nil }
                path = to
            case .replace(let to, _):
                path = to
            }
            let tokens = path.tokens
            guard tokens.count > base.count else {
                if base.starts(with: tokens) { return nil }  // the object or an ancestor
                continue
            }
            if tokens.starts(with: base) { touched.append(tokens[base.count]) }
        }
        guard !touched.isEmpty else { return [] }
        // Every member an object, none added or removed: the items are the members, in place.
        guard case .object(let members)? = document.value(at: extractor.profile.itemsPath),
            members.count == elements.count
        else { return nil }
        var updates: [(index: Int, item: FeedItem, previous: FeedItem)] = []
        var seen = Set<String>()
        for name in touched where seen.insert(name).inserted {
            guard let index = members.index(forKey: name),
                let element = ItemExtractor.memberItem(named: name, members.values[index], nameMember: nameMember),
                let old = elements[index]
            else { return nil }
            let item = extractor.item(from: element)
            guard item.key == old.key else { return nil }
            if item != old { updates.append((index, item, old)) }
        }
        updates.sort { $0.index < $1.index }  // feed order, as `ItemChange.between` has it
        for update in updates {
            elements[update.index] = update.item
            items[update.index] = update.item
            itemsByKey[update.item.key] = update.item
        }
        return updates.map { ItemChange(kind: .updated, item: $0.item, previous: $0.previous) }
    }

    /// Whether `path` is the items' array or object (at `base`), an ancestor of it, or
    /// inside it.
    private static func relates(_ path: JSONPointer, to base: [String]) -> Bool {
        let tokens = path.tokens
        return tokens.count <= base.count ? base.starts(with: tokens) : tokens.starts(with: base)
    }

    /// Adds `delta` to the number of elements carrying `key`, keeping ``repeatedKeys``.
    private mutating func count(_ key: String, by delta: Int) {
        let old = keyCounts[key] ?? 0
        let new = old + delta
        keyCounts[key] = new > 0 ? new : nil
        if old <= 1 && new > 1 { repeatedKeys += 1 }
        if old > 1 && new <= 1 { repeatedKeys -= 1 }
    }
}
