import NIOConcurrencyHelpers

/// The mirror, the published view, the sequence and the history: feedweb's one source of
/// truth, written by the upstream pipeline and read by everything that serves.
///
/// Invariants:
/// - A change is worked out outside every lock (the new document, the patch and its
///   encoding), then committed under the write lock if the state it was worked out from is
///   still the state (else worked out again). Under the write lock only the commit runs:
///   the mirror's items and their changes, the published view, the history entry.
/// - Commits are serialised; each accepted change gets the next sequence number and is
///   delivered to the store's one observer, in order. It runs after the write lock is
///   released (nothing renders or encodes under it), holding the delivery lock, so the
///   next write can commit while a change is being fanned out but is delivered after it.
/// - A rejected patch changes nothing (patches apply atomically).
/// - The published view only advances when the mirror's version is greater than the
///   published one (when the profile has a version path), else on every change.
/// - Readers get immutable ``FeedSnapshot``s and never block a write for long.
/// - Every id is `EPOCH-SEQ` of the store's current epoch: random per store, or taken over
///   from another feedweb with ``adopt(_:)`` (a relay's upstream, the cluster log), which
///   starts the state over (a `.snapshot` change) whenever the epoch changes.
public final class FeedStore: Sendable {
    /// How to read items and how much history to keep.
    public struct Configuration: Sendable {
        /// How items are read, unless ``detection`` is set.
        public var profile: ItemProfile
        /// When set, the profile is not ``profile`` but worked out from the first document
        /// that holds items (``ItemShapeDetector``), with these options over it; until then
        /// the published view has no items and says what the document holds instead.
        public var detection: ItemProfile.Overrides?
        /// The most changes kept for resuming clients (`--history`).
        public var historyCount: Int
        /// The most encoded patch bytes kept for resuming clients.
        public var historyBytes: Int
        /// Whether each item is an event of its own (append mode): an item with the key of
        /// one before it (newer) is an earlier version of that item, a build's `running`
        /// before its `passed`. The pages leave it out, as always, but say nothing of it:
        /// it is no problem of the feed's.
        public var itemsAreEvents: Bool

        /// Changes kept for resuming clients unless told otherwise.
        public static let defaultHistoryCount = 1000

        public init(
            profile: ItemProfile, historyCount: Int = defaultHistoryCount, historyBytes: Int = 64 * 1024 * 1024,
            detection: ItemProfile.Overrides? = nil, itemsAreEvents: Bool = false
        ) {
            self.detection = detection
            self.itemsAreEvents = itemsAreEvents
            self.profile = profile
            self.historyCount = historyCount
            self.historyBytes = historyBytes
        }
    }

    private struct State: Sendable {
        /// The epoch of the ids handed out from now on.
        var epoch: String
        var snapshot: FeedSnapshot?
        var history: ChangeHistory
        /// The state after each of the last changes, for `?at=` and `/api/changes`.
        var past: FeedPast
        /// The one observer (feedweb's fan-out stage), set once.
        var observer: (@Sendable (FeedChange) -> Void)?
    }

    /// The first half of every id the store hands out: random per store, unless taken over
    /// from another feedweb (``adopt(_:)``).
    public var epoch: String {
        state.withLockedValue { $0.epoch }
    }
    public let configuration: Configuration
    private let state: NIOLockedValueBox<State>
    /// Serialises writers: held for the commit only (the new state, its item changes, the
    /// history entry).
    ///
    /// Lock order: `writeLock` → `deliveryLock` (taken before `writeLock` is released, so
    /// changes are delivered in commit order) → `reader` → `state`. `reader` and `state`
    /// are never held while another lock is taken; `recency` is taken with none held and
    /// takes none. The observer is called holding
    /// `deliveryLock` only; it must not write to the store.
    private let writeLock = NIOLock()
    /// Serialises deliveries to the observer, in commit order.
    private let deliveryLock = NIOLock()
    /// The encodings of append mode's item chunks, shared by the states it makes (the
    /// current one and those of the past); its lock is a leaf, taken with none of these held.
    private let chunkEncodings = EncodedChunks()
    /// How items are read and the mirror's items, kept in step with each change; written
    /// only under `writeLock` (read alone for ``itemReading``).
    private let reader: NIOLockedValueBox<ItemsReader>
    /// When each item put in place was last put, for the items a full `--keep` lets go of
    /// first (``putItems(_:idAt:keep:position:arrival:)``). A leaf, taken with no other
    /// lock held.
    let recency = NIOLockedValueBox(ItemRecency())

    /// The mirror's items and what reads them from the document.
    private struct ItemsReader: Sendable {
        var reading: ItemReading
        var extractor: ItemExtractor
        var mirror: MirrorItems
        /// The members the items have shown, while the reading is a found one that can
        /// still gain columns; `nil` otherwise.
        var memberWatch: ItemMemberWatch?
        /// How many items the found reading was worked out from (``ItemReading/settlingItems``
        /// once it was read again from fewer: see ``changesSinceReading``); `nil` for a given
        /// reading. Below ``ItemReading/settlingItems``, the reading is read again once the
        /// items are that many (``ItemReading/settled(by:items:)``).
        var readFrom: Int?
        /// Upstream's changes committed since the found reading was worked out (each
        /// change's ``FeedChange/upstreamChanges``: versions that came together count one
        /// each). Versions of a few items put in place (an append stream keyed by
        /// `--key-path`: a ticker's five products) may never make
        /// ``ItemReading/settlingItems`` items; that many changes to three or more settle the
        /// reading too.
        var changesSinceReading = 0

        init(reading: ItemReading) {
            self.reading = reading
            extractor = ItemExtractor(profile: reading.profile)
            mirror = MirrorItems(document: .value(.null), extractor: extractor)
        }
    }

    public init(configuration: Configuration, epoch: String = EventID.randomEpoch()) {
        self.configuration = configuration
        let reading =
            configuration.detection.map {
                ItemReading(
                    profile: $0.applied(to: .table), origin: .undecided, notes: ["No document from upstream yet."])
            } ?? .given(configuration.profile)
        self.reader = NIOLockedValueBox(ItemsReader(reading: reading))
        self.state = NIOLockedValueBox(
            State(
                epoch: epoch,
                history: ChangeHistory(maxEntries: configuration.historyCount, maxBytes: configuration.historyBytes),
                past: FeedPast(maxEntries: configuration.historyCount, maxBytes: configuration.historyBytes)))
    }

    /// The current state, or `nil` before the first document.
    public var snapshot: FeedSnapshot? {
        state.withLockedValue { $0.snapshot }
    }

    /// How items are read now: the profile given, or found in the first document with
    /// items, or still undecided (``Configuration/detection``).
    public var itemReading: ItemReading {
        reader.withLockedValue { $0.reading }
    }

    /// How the pages show the items now (news or a table): the published view's layout,
    /// else, before the first document, the reading's.
    public var layout: ItemProfile.Layout {
        snapshot?.published.profile.layout ?? itemReading.profile.layout
    }

    /// Makes `observer` the store's one observer, called with every change accepted from now
    /// on, in order, on the writer's thread after the write lock is released; set once (a
    /// second call is a programming error). It must not write to the store; work that may
    /// be slow (rendering) belongs behind a queue of its own, as feedweb's fan-out stage has.
    public func observe(_ observer: @escaping @Sendable (FeedChange) -> Void) {
        state.withLockedValue { state in
            precondition(state.observer == nil, "a FeedStore has one observer, set once")
            state.observer = observer
        }
    }

    /// Takes a complete document (an upstream `data` event). The first one is a snapshot;
    /// later ones become the patch that leads from the mirror to them, so downstream
    /// clients and the history stay continuous. Returns `nil` when nothing changed.
    /// `position` is upstream's position after it (see ``FeedChange/upstreamPosition``).
    @discardableResult
    public func replaceDocument(
        _ document: JSONValue, position: String? = nil, arrival: UpstreamArrival? = nil
    ) -> FeedChange? {
        commit(arrival: arrival) { base in
            guard let base else {
                return Prepared(
                    base: nil, document: .value(document), patch: nil, byteCount: JSONByteCount.of(document),
                    position: position)
            }
            let patch = JSONDiff.diff(from: base.document, to: document)
            guard !patch.operations.isEmpty else { return nil }
            return Prepared(
                base: base, document: .value(document), patch: patch, byteCount: JSONByteCount.of(document),
                position: position)
        }
    }

    /// Applies an upstream patch atomically. Throws without changing anything when there
    /// is no document yet or the patch does not apply. An empty patch is accepted and is
    /// not a change (`nil`). `position` is upstream's position after it.
    @discardableResult
    public func apply(
        _ patch: JSONPatch, position: String? = nil, arrival: UpstreamArrival? = nil
    ) throws(FeedStoreError) -> FeedChange? {
        try apply(patch, carrying: 1, position: position, arrival: arrival)
    }

    /// ``apply(_:position:arrival:)`` for a patch that carries `upstreamChanges` of
    /// upstream's changes (``FeedChange/upstreamChanges``): versions of items put in place
    /// together (``putItems(_:idAt:keep:position:arrival:)``).
    func apply(
        _ patch: JSONPatch, carrying upstreamChanges: Int, position: String?, arrival: UpstreamArrival?
    ) throws(FeedStoreError) -> FeedChange? {
        try commit(arrival: arrival) { base throws(FeedStoreError) in
            guard let base else { throw .noDocument }
            guard !patch.operations.isEmpty else { return nil }
            let (document, byteCount) = try Self.patched(base, with: patch)
            return Prepared(
                base: base, document: .value(document), patch: patch, byteCount: byteCount,
                upstreamChanges: upstreamChanges, position: position)
        }
    }

    /// `base`'s document with `patch` applied, and its encoded length; throws without
    /// changing anything when an operation does not apply.
    private static func patched(
        _ base: FeedSnapshot, with patch: JSONPatch
    ) throws(FeedStoreError) -> (document: JSONValue, byteCount: Int) {
        // One operation at a time, so that the encoded length follows each step (the
        // document is a copy: nothing is committed unless every operation applies).
        var document = base.document
        var byteCount = base.encodedByteCount
        for operation in patch.operations {
            let delta = JSONByteCount.delta(of: operation, before: document)
            do throws(JSONPatchError) {
                try JSONPatch(operations: [operation]).apply(to: &document)
            } catch {
                // Reported as the whole patch reports it (with the operation's index).
                var copy = base.document
                do throws(JSONPatchError) {
                    try patch.apply(to: &copy)
                } catch let whole {
                    throw .patchRejected(whole)
                }
                throw .patchRejected(error)
            }
            // `delta` is `nil` only for an operation that does not apply; should one ever
            // apply all the same, count the document instead of guessing.
            byteCount = delta.map { byteCount + $0 } ?? JSONByteCount.of(document)
        }
        return (document, byteCount)
    }

    /// Takes a change exactly as another feedweb published it (a relay's upstream, the
    /// cluster log): the same id, the same bytes, so that this store's clients get what
    /// that feedweb's clients got.
    ///
    /// - A document starts the state over at `change.id` (its epoch becomes the store's):
    ///   a `.snapshot` change, the history cleared, the published view made afresh.
    /// - A patch must follow the current state: the same epoch and the next sequence
    ///   number, else ``FeedStoreError/outOfSequence(expected:got:)``; it applies
    ///   atomically (``FeedStoreError/patchRejected(_:)``), and its `encoded` bytes are
    ///   what the history and every client get.
    @discardableResult
    public func adopt(_ change: PublishedChange, arrival: UpstreamArrival? = nil) throws(FeedStoreError) -> FeedChange {
        let id = change.id
        let made = try commit(arrival: arrival, time: change.time) { base throws(FeedStoreError) -> Prepared? in
            switch change.body {
            case .document(let document, let encoded):
                return Prepared(
                    base: base, document: .value(document), patch: nil,
                    byteCount: encoded?.count ?? JSONByteCount.of(document), upstreamChanges: change.upstreamChanges,
                    position: change.upstreamPosition, id: id, encodedDocument: encoded, startsOver: true)
            case .patch(let patch, let encoded):
                guard let base, base.id.epoch == id.epoch, base.id.seq &+ 1 == id.seq else {
                    throw .outOfSequence(
                        expected: base.map { EventID(epoch: $0.id.epoch, seq: $0.id.seq &+ 1) }, got: id)
                }
                let (document, byteCount) = try Self.patched(base, with: patch)
                return Prepared(
                    base: base, document: .value(document), patch: patch, byteCount: byteCount,
                    upstreamChanges: change.upstreamChanges, position: change.upstreamPosition, id: id,
                    encodedPatch: encoded)
            }
        }
        // A document or a patch is always a change (`commit` is `nil` only for none).
        guard let made else { preconditionFailure("an adopted change made no change") }
        return made
    }

    /// Append mode: puts `item` first in the document's `items` array and keeps the newest
    /// `keep` (at least 1). See ``prependItems(_:keep:)``.
    @discardableResult
    public func prependItem(
        _ item: JSONValue, keep: Int, position: String? = nil, arrival: UpstreamArrival? = nil
    ) -> FeedChange {
        prependItems(CollectionOfOne(item), keep: keep, position: position, arrival: arrival)
    }

    /// Append mode: puts `items` (oldest first, as they arrived) first in the document's
    /// `items` array, newest first, and keeps the newest `keep` (at least 1), in ONE
    /// change: the patch is one `add /items/0` per item, in arrival order, followed by one
    /// `remove` of the last index per item past `keep`, so downstream it is a patch like
    /// any other. Items of the batch that would be dropped by the same change (more than
    /// `keep` of them) are left out of the patch; the change still counts them
    /// (``FeedChange/upstreamChanges``).
    ///
    /// Before any document, the items make the document `{"items":[…]}` (a snapshot). A
    /// document without an `items` array (restored from another mode, say) is replaced by
    /// one through a diff. Returns the change. `items` must not be empty. `position` is
    /// upstream's position after the last of them.
    @discardableResult
    public func prependItems(
        _ items: some Collection<JSONValue>, keep: Int, position: String? = nil, arrival: UpstreamArrival? = nil
    ) -> FeedChange {
        precondition(!items.isEmpty, "prependItems needs at least one item")
        let keep = max(1, keep)
        let arrived = items.count
        let newestFirst = Array(items.suffix(keep).reversed())
        let change = commit(arrival: arrival) { base in
            Self.prepend(newestFirst, to: base, keep: keep, arrived: arrived, position: position)
        }
        // A batch always changes the document; `commit` returns `nil` only for no change.
        guard let change else { preconditionFailure("a batch of items was not a change") }
        return change
    }

    /// The change that puts `newestFirst` first in `base`'s items and keeps `keep`. The
    /// new document is an item list (``MirrorDocument/itemList(_:)``) sharing every chunk
    /// of `base`'s items it does not change.
    private static func prepend(
        _ newestFirst: [JSONValue], to base: FeedSnapshot?, keep: Int, arrived: Int, position: String?
    ) -> Prepared {
        guard let base else {
            let document = MirrorDocument.itemList(ChunkedArray(newestFirst))
            return Prepared(
                base: nil, document: document, patch: nil, byteCount: JSONByteCount.of(document.json),
                upstreamChanges: arrived, position: position)
        }
        var items: ChunkedArray<JSONValue>
        /// The document's other members, kept beside the items (a document restored from
        /// another mode, say); `nil` when it has none, so the result is an item list.
        var otherMembers: JSONObject?
        switch base.mirror {
        case .itemList(let list):
            items = list
        case .value(.object(let members)) where members[MirrorDocument.itemsMember]?.arrayValue != nil:
            items = ChunkedArray(members[MirrorDocument.itemsMember]?.arrayValue ?? [])
            if members.count > 1 { otherMembers = members }
        case .value:
            // No items array: the document is replaced through a diff.
            let document = MirrorDocument.itemList(ChunkedArray(newestFirst))
            return Prepared(
                base: base, document: document, patch: JSONDiff.diff(from: base.document, to: document.json),
                byteCount: JSONByteCount.of(document.json), upstreamChanges: arrived, position: position)
        }
        let first = JSONPointer(tokens: [MirrorDocument.itemsMember, "0"])
        var operations: [JSONPatch.Operation] = []
        operations.reserveCapacity(2 * newestFirst.count)
        // The encoded length: each new item and its comma in, each dropped one and its out.
        var byteCount = base.encodedByteCount
        for item in newestFirst.reversed() {
            operations.append(.add(path: first, value: item))
            byteCount += JSONByteCount.of(item) + (items.isEmpty && operations.count == 1 ? 0 : 1)
        }
        for (offset, item) in newestFirst.enumerated() { items.insert(item, at: offset) }
        let itemsPointer = JSONPointer(tokens: [MirrorDocument.itemsMember])
        while items.count > keep {
            operations.append(.remove(path: itemsPointer.appending(index: items.count - 1)))
            byteCount -= JSONByteCount.of(items.removeLast()) + 1
        }
        var document = MirrorDocument.itemList(items)
        if var members = otherMembers {
            members[MirrorDocument.itemsMember] = .array(Array(items))
            document = .value(.object(members))
        }
        return Prepared(
            base: base, document: document, patch: JSONPatch(operations: operations), byteCount: byteCount,
            upstreamChanges: arrived, position: position)
    }

    /// Sets the state to a document and sequence restored from disk, before upstream
    /// answers (and the epoch to `epoch`, when given). The observer is not called; it is the
    /// starting point, not a change.
    public func restore(document: JSONValue, seq: UInt64, epoch: String? = nil) {
        let detected = configuration.detection.flatMap { overrides in
            itemReading.isDecided ? nil : ItemShapeDetector.reading(of: document, overrides: overrides)
        }
        writeLock.withLock {
            let (items, reading, hidden) = reader.withLockedValue { reader in
                if let detected, !reader.reading.isDecided {
                    reader = ItemsReader(reading: detected)
                    if detected.origin == .found {
                        reader.memberWatch = ItemMemberWatch(
                            itemsOf: document.value(at: detected.profile.itemsPath), form: detected.profile.itemsForm)
                    }
                }
                reader.mirror = MirrorItems(document: .value(document), extractor: reader.extractor)
                return (reader.mirror.items, reader.reading, reader.mirror.hiddenItems)
            }
            let epoch = epoch ?? self.epoch
            let published = PublishedView(
                epoch: epoch, seq: seq, version: Self.version(of: .value(document), reading: reading), items: items,
                previousSeq: nil, itemChanges: [], reading: reading,
                itemsProblem: reading.problem(in: .value(document), hidden: configuration.itemsAreEvents ? 0 : hidden),
                hiddenItems: hidden)
            let snapshot = FeedSnapshot(id: EventID(epoch: epoch, seq: seq), document: document, published: published)
            state.withLockedValue {
                $0.epoch = epoch
                $0.snapshot = snapshot
                $0.history.removeAll()
                // What a client held after the restored change: the restored document.
                $0.past.append(snapshot, change: .document, at: Self.commitTime(after: $0.past.latest?.time))
            }
        }
    }

    /// What a client that last saw `id` needs to reach change `through`: the missed
    /// patches (all of `id`'s epoch), or a fresh snapshot when the history does not cover
    /// the gap (another epoch, too old, from the future).
    public func resume(after id: EventID, through: UInt64) -> ChangeHistory.Resume {
        state.withLockedValue { state in
            guard id.epoch == state.epoch else { return .needsSnapshot }
            return state.history.resume(after: id.seq, current: through)
        }
    }

    /// What an `/events/items` client that last saw the published view `id` needs to reach
    /// the published view `through`: the item changes of each published step, or `nil`
    /// when the history does not cover the gap (the client then gets a fresh snapshot).
    public func resumeItems(after id: EventID, through: UInt64) -> [(seq: UInt64, itemChanges: [ItemChange])]? {
        state.withLockedValue { state -> [(seq: UInt64, step: ChangeHistory.PublishedStep)]? in
            guard id.epoch == state.epoch else { return nil }
            return state.history.publishedSteps(after: id.seq, current: through)
        }?
        .map { ($0.seq, $0.step.itemChanges) }
    }

    /// How the items of `new` differ from those of `old` (two published views of this
    /// store, `old` the earlier): for views several changes apart (a page frame that
    /// coalesced them), composed from the item changes the history keeps for each step
    /// between them, so the work follows the changes, not the document; when the history
    /// does not cover the gap, a full diff. Added and updated items in the order they
    /// last changed, then the removed ones.
    public func itemChanges(from old: PublishedView?, to new: PublishedView) -> [ItemChange] {
        guard let old, old !== new, old.seq != new.previousSeq,
            old.epoch == new.epoch,
            let steps = resumeItems(after: old.id, through: new.seq)
        else { return new.itemChanges(since: old) }
        // Per key, the item before the first step that touched it and after the last one.
        var keys: [String] = []
        var span: [String: (before: FeedItem?, after: FeedItem?)] = [:]
        for step in steps {
            for change in step.itemChanges {
                let after = change.kind == .removed ? nil : change.item
                if let known = span[change.item.key] {
                    span[change.item.key] = (known.before, after)
                } else {
                    let before = change.kind == .added ? nil : (change.previous ?? change.item)
                    span[change.item.key] = (before, after)
                    keys.append(change.item.key)
                }
            }
        }
        var changes: [ItemChange] = []
        var removed: [ItemChange] = []
        for key in keys {
            guard let (before, after) = span[key] else { continue }
            switch (before, after) {
            case (nil, let after?): changes.append(ItemChange(kind: .added, item: after))
            case (let before?, let after?) where before != after:
                changes.append(ItemChange(kind: .updated, item: after, previous: before))
            case (let before?, nil): removed.append(ItemChange(kind: .removed, item: before))
            default: continue
            }
        }
        return changes + removed
    }

    /// The state after change `id`, if the past still holds it.
    public func past(at id: EventID) -> FeedPast.Lookup {
        state.withLockedValue { $0.past.entry(for: id) }
    }

    /// The state after the last change committed at or before `time`.
    public func past(atOrBefore time: WallTime) -> FeedPast.Lookup {
        state.withLockedValue { $0.past.entry(atOrBefore: time) }
    }

    /// The changes after `id` (see ``FeedPast/changes(after:maxCount:maxBytes:)``).
    public func changes(after id: EventID, maxCount: Int, maxBytes: Int) -> FeedPast.Changes {
        state.withLockedValue { $0.past.changes(after: id, maxCount: maxCount, maxBytes: maxBytes) }
    }

    /// The number of changes and the bytes the past holds.
    public var pastUsage: (count: Int, bytes: Int) {
        state.withLockedValue { ($0.past.count, $0.past.byteCount) }
    }

    /// The number of changes and encoded bytes the history holds.
    public var historyUsage: (count: Int, bytes: Int) {
        state.withLockedValue { ($0.history.count, $0.history.byteCount) }
    }

    /// A change worked out from the state `base`, outside every lock of the store: the new
    /// document, the patch that leads there (`nil`: a snapshot, a first document) and its
    /// compact JSON encoding, the new document's encoded length. Committed only while
    /// `base` is still the state.
    /// The wall time of a change committed now (or `given`, an adopted change's), never
    /// before `previous`: the past's times do not go backwards, whatever the clock does.
    private static func commitTime(after previous: WallTime?, given: WallTime? = nil) -> WallTime {
        let time = given ?? .now()
        guard let previous else { return time }
        return max(time, previous)
    }

    private struct Prepared {
        let base: FeedSnapshot?
        let document: MirrorDocument
        let patch: JSONPatch?
        let encodedPatch: [UInt8]?
        /// The length of `document`'s compact JSON text, in bytes.
        let byteCount: Int
        /// How many upstream changes it carries.
        let upstreamChanges: Int
        /// Upstream's position after it.
        let position: String?
        /// The id it must have (an adopted change); `nil`: the next of the current epoch.
        let id: EventID?
        /// `document`'s encoding as published elsewhere (an adopted document), if known.
        let encodedDocument: [UInt8]?
        /// Whether the state starts over: the history cleared, the published view made
        /// afresh (no version guard, no previous view), as for a restored state.
        let startsOver: Bool
        /// How items are read from `document` from now on: worked out while the store's
        /// reading is undecided (``Configuration/detection``), or a found reading widened
        /// by members the items gained (``ItemReading/widened(by:gaining:)``); `nil`: as now.
        var reading: ItemReading?
        /// What the store's member watch becomes with this change; `nil`: as it is.
        var memberWatch: ItemMemberWatch?
        /// How many items the change's ``reading`` was worked out from.
        var readFrom: Int?

        init(
            base: FeedSnapshot?, document: MirrorDocument, patch: JSONPatch?, byteCount: Int, upstreamChanges: Int = 1,
            position: String? = nil, id: EventID? = nil, encodedPatch: [UInt8]? = nil,
            encodedDocument: [UInt8]? = nil, startsOver: Bool = false
        ) {
            self.base = base
            self.document = document
            self.patch = patch
            self.encodedPatch = encodedPatch ?? patch?.serializedBytes()
            self.byteCount = byteCount
            self.upstreamChanges = upstreamChanges
            self.position = position
            self.id = id
            self.encodedDocument = encodedDocument
            self.startsOver = startsOver
        }
    }

    /// Works out a change with `prepare` from the current state, outside the locks (the new
    /// document, the patch and its encoding: nothing is encoded under a lock), then commits
    /// it under the write lock if no other write came first, else works it out again.
    /// `prepare` returns `nil` when there is nothing to change; so does this.
    private func commit<Failure: Error>(
        arrival: UpstreamArrival?, time: WallTime? = nil, _ prepare: (FeedSnapshot?) throws(Failure) -> Prepared?
    ) throws(Failure) -> FeedChange? {
        while true {
            guard var prepared = try prepare(snapshot) else { return nil }
            if let overrides = configuration.detection { readItems(of: &prepared, overrides: overrides) }
            let committed = write { () -> (result: FeedChange?, change: FeedChange?) in
                guard snapshot === prepared.base else { return (nil, nil) }  // another write came first
                let change = commitLocked(prepared, arrival: arrival, time: time)
                return (change, change)
            }
            if let committed { return committed }
        }
    }

    /// Works out, outside the locks, how `prepared`'s items are read when the store finds
    /// the profile itself: until a document with items decides it, each change is looked
    /// at for them; once found, a change that brings a number with more decimals than its
    /// column shows raises the column's (``ColumnDecimalsWatch``), and a change that gives
    /// the items members they had not shown is read again, and the reading taken when it
    /// only adds columns.
    private func readItems(of prepared: inout Prepared, overrides: ItemProfile.Overrides) {
        // Per change, only what the watches need; the whole reading when the items gained a member.
        let (current, watch, readFrom, changes) = reader.withLockedValue {
            ($0.reading, $0.memberWatch, $0.readFrom, $0.changesSinceReading)
        }
        let (itemsPath, form) = (current.profile.itemsPath, current.profile.itemsForm)
        let document = prepared.document
        func itemCount(at path: JSONPointer, _ form: ItemsForm) -> Int {
            ItemExtractor.elements(of: document.value(at: path), form: form)?.count ?? 0
        }
        guard current.isDecided else {
            let found = ItemShapeDetector.reading(of: document.json, overrides: overrides)
            prepared.reading = found
            if found.origin == .found {
                prepared.memberWatch = ItemMemberWatch(
                    itemsOf: document.value(at: found.profile.itemsPath), form: found.profile.itemsForm)
                prepared.readFrom = itemCount(at: found.profile.itemsPath, found.profile.itemsForm)
            }
            return
        }
        if current.origin == .found {
            let raised =
                if let patch = prepared.patch {
                    ColumnDecimalsWatch.widened(
                        current.profile.columns, by: patch, itemsPath: itemsPath, form: form
                    ) { document.value(at: $0) }
                } else {
                    ColumnDecimalsWatch.widened(
                        current.profile.columns, byItemsOf: document.value(at: itemsPath), form: form)
                }
            if let raised { prepared.reading = current.raisingDecimals(to: raised) }
        }
        // Found from a few items (an append stream's first event): read again, once, from
        // enough of them, or from three or more once enough versions of them came.
        if let readFrom, readFrom < ItemReading.settlingItems {
            let count = itemCount(at: itemsPath, form)
            let settling = ItemReading.settlingItems
            if count >= settling || (changes + prepared.upstreamChanges >= settling && count >= 3) {
                let again = ItemShapeDetector.reading(of: document.json, overrides: overrides)
                prepared.readFrom = max(count, settling)
                if let settled = (prepared.reading ?? current).settled(by: again, items: count) {
                    prepared.reading = settled
                    return
                }
            }
        }
        guard var watch else { return }
        let gained =
            if let patch = prepared.patch {
                watch.newMembers(in: patch, itemsPath: itemsPath, form: form) { document.value(at: $0) }
            } else {
                watch.newMembers(inItemsOf: document.value(at: itemsPath), form: form)
            }
        guard !gained.isEmpty else { return }
        watch.learn(gained)
        prepared.memberWatch = watch
        let again = ItemShapeDetector.reading(of: document.json, overrides: overrides)
        // Read under the same base as the watch: a write in between fails the commit's base
        // check, and the change is worked out again.
        if let widened = (prepared.reading ?? current).widened(by: again, gaining: gained) {
            prepared.reading = widened
        }
    }

    /// Makes a prepared change the new state: the item changes (from the patch where it
    /// can), the published view, the history entry. The caller holds the write lock and
    /// delivers the change.
    private func commitLocked(_ prepared: Prepared, arrival: UpstreamArrival?, time given: WallTime?) -> FeedChange {
        let (document, patch) = (prepared.document, prepared.patch)
        let previous = snapshot
        let id = prepared.id ?? EventID(epoch: epoch, seq: (previous?.id.seq ?? 0) + 1)
        let seq = id.seq
        let (items, mirrorChanges, reading, hidden) = reader.withLockedValue { reader in
            if let watch = prepared.memberWatch { reader.memberWatch = watch }
            if let readFrom = prepared.readFrom {
                reader.readFrom = readFrom
                reader.changesSinceReading = 0
            } else {
                reader.changesSinceReading += prepared.upstreamChanges
            }
            if let detected = prepared.reading {
                // Decided (or still not, with what this document holds instead), or widened:
                // read every item afresh with the profile found.
                let widened = reader.reading.isDecided
                let before = reader.mirror.items
                reader.reading = detected
                reader.extractor = ItemExtractor(profile: detected.profile)
                let changes = reader.mirror.replaceAll(with: document, extractor: reader.extractor)
                // Items read again are the same items: only those read differently changed.
                return (
                    reader.mirror.items, widened ? ItemChange.between(before, reader.mirror.items) : changes,
                    reader.reading, reader.mirror.hiddenItems
                )
            }
            let changes =
                patch.map { reader.mirror.apply($0, to: document, extractor: reader.extractor) }
                ?? reader.mirror.replaceAll(with: document, extractor: reader.extractor)
            return (reader.mirror.items, changes, reader.reading, reader.mirror.hiddenItems)
        }
        // Starting over: no view before this one, as for a first document.
        let previousView = prepared.startsOver ? nil : previous?.published
        let published = advancedView(
            from: previousView, mirrorSeq: prepared.startsOver ? nil : previous?.id.seq, document: document, id: id,
            items: items, hidden: hidden, mirrorChanges: mirrorChanges, reading: reading)
        let snapshot = FeedSnapshot(
            id: id, mirror: document, published: published, encodedByteCount: prepared.byteCount,
            encodedDocument: prepared.encodedDocument, chunks: chunkEncodings)
        let kind: FeedChange.Kind =
            if let patch, let encoded = prepared.encodedPatch { .patch(patch, encoded: encoded) } else { .snapshot }
        let committedAt = MonotonicTime.now()
        let time = state.withLockedValue { state -> WallTime in
            state.epoch = id.epoch
            state.snapshot = snapshot
            // The past: the state after this change, at a wall time that never goes back.
            let time = Self.commitTime(after: state.past.latest?.time, given: given)
            switch kind {
            case .snapshot: state.past.append(snapshot, change: .document, at: time)
            case .patch(_, let encoded): state.past.append(snapshot, change: .patch(encoded), at: time)
            }
            switch kind {
            case .snapshot: state.history.removeAll()
            case .patch(_, let encoded):
                // A change that advanced the published view remembers its item changes too.
                var step: ChangeHistory.PublishedStep?
                if let previous, published.seq == seq {
                    step = ChangeHistory.PublishedStep(
                        after: previous.published.seq, itemChanges: published.itemChanges)
                }
                state.history.append(seq: seq, encodedPatch: encoded, published: step)
            }
            return time
        }
        // The state before is in the past now: it keeps what it shares, not its copies.
        previous?.forgetMadeCopies()
        return FeedChange(
            kind: kind, snapshot: snapshot, previousPublished: previousView,
            upstreamChanges: prepared.upstreamChanges, upstreamPosition: prepared.position, arrival: arrival,
            committedAt: committedAt, time: time)
    }

    /// Runs `commit` under the write lock, then delivers the change it made (if any) to
    /// the observer under the delivery lock alone, in commit order; returns what
    /// `commit` returned.
    private func write<Result>(_ commit: () -> (result: Result, change: FeedChange?)) -> Result {
        writeLock.lock()
        let made = commit()
        guard let change = made.change else {
            writeLock.unlock()
            return made.result
        }
        deliveryLock.lock()
        writeLock.unlock()
        defer { deliveryLock.unlock() }
        state.withLockedValue({ $0.observer })?(change)
        return made.result
    }

    /// The number at the profile's version path, if any.
    private static func version(of document: MirrorDocument, reading: ItemReading) -> Double? {
        reading.profile.versionPath.flatMap { document.value(at: $0)?.doubleValue }
    }

    /// The version guard: the published view moves to `document` only when its version is
    /// greater than the published one, or when there is no version to compare. Its item
    /// changes are the mirror's for this change when the published view was the mirror
    /// before it (`mirrorSeq`), else a diff against the published items. `hidden` items
    /// share their key with one before them (``MirrorItems/hiddenItems``): the view says so.
    private func advancedView(
        from previous: PublishedView?, mirrorSeq: UInt64?, document: MirrorDocument, id: EventID,
        items: ChunkedArray<FeedItem>, hidden: Int,
        mirrorChanges: [ItemChange], reading: ItemReading
    ) -> PublishedView {
        let version = Self.version(of: document, reading: reading)
        // A newly decided reading always publishes (the view before it had no items).
        if let previous, let publishedVersion = previous.version, previous.reading?.origin == reading.origin {
            guard let version, version > publishedVersion else { return previous }
        }
        let changes =
            previous == nil || previous?.seq == mirrorSeq
            ? mirrorChanges : ItemChange.between(previous?.items ?? [], items)
        return PublishedView(
            epoch: id.epoch, seq: id.seq, version: version, items: items, previousSeq: previous?.seq,
            itemChanges: changes, reading: reading,
            itemsProblem: reading.problem(in: document, hidden: configuration.itemsAreEvents ? 0 : hidden),
            hiddenItems: hidden)
    }
}

/// Why the store refused a change.
public enum FeedStoreError: Error, CustomStringConvertible {
    /// A patch arrived before any document.
    case noDocument
    /// The patch does not apply to the mirror; nothing changed.
    case patchRejected(JSONPatchError)
    /// An adopted patch (``FeedStore/adopt(_:)``) does not follow the current state: it
    /// is `got`, the next would be `expected` (`nil`: there is no state yet).
    case outOfSequence(expected: EventID?, got: EventID)

    public var description: String {
        switch self {
        case .noDocument: return "a patch arrived before any document"
        case .patchRejected(let error): return "patch rejected: \(error)"
        case .outOfSequence(let expected, let got):
            return "change \(got) does not follow the state (next: \(expected.map(\.description) ?? "a document"))"
        }
    }
}
