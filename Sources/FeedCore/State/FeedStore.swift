import NIOConcurrencyHelpers

/// The mirror, the published view, the sequence and the history: feedweb's one source of
/// truth, written by the upstream pipeline and read by everything that serves.
///
/// Invariants:
/// - Writes are serialised; each accepted change gets the next sequence number and is
///   delivered to every observer, in order, before the next write starts.
/// - A rejected patch changes nothing (patches apply atomically).
/// - The published view only advances when the mirror's version is greater than the
///   published one (when the profile has a version path), else on every change.
/// - Readers get immutable ``FeedSnapshot``s and never block a write for long.
public final class FeedStore: Sendable {
    /// How to read items and how much history to keep.
    public struct Configuration: Sendable {
        public var profile: ItemProfile
        /// The most changes kept for resuming clients (`--history`).
        public var historyCount: Int
        /// The most encoded patch bytes kept for resuming clients.
        public var historyBytes: Int

        public init(profile: ItemProfile, historyCount: Int = 1000, historyBytes: Int = 64 * 1024 * 1024) {
            self.profile = profile
            self.historyCount = historyCount
            self.historyBytes = historyBytes
        }
    }

    private struct State: Sendable {
        var snapshot: FeedSnapshot?
        var history: ChangeHistory
        var observers: [@Sendable (FeedChange) -> Void] = []
    }

    /// This process's epoch, the first half of every id it hands out.
    public let epoch: String
    public let configuration: Configuration
    private let extractor: ItemExtractor
    private let state: NIOLockedValueBox<State>
    private let writeLock = NIOLock()

    public init(configuration: Configuration, epoch: String = EventID.randomEpoch()) {
        self.epoch = epoch
        self.configuration = configuration
        self.extractor = ItemExtractor(profile: configuration.profile)
        self.state = NIOLockedValueBox(
            State(history: ChangeHistory(maxEntries: configuration.historyCount, maxBytes: configuration.historyBytes)))
    }

    /// The current state, or `nil` before the first document.
    public var snapshot: FeedSnapshot? {
        state.withLockedValue { $0.snapshot }
    }

    /// Calls `observer` with every change accepted from now on, on the writer's thread.
    /// Observers must be quick and must not write to the store.
    public func observe(_ observer: @escaping @Sendable (FeedChange) -> Void) {
        state.withLockedValue { $0.observers.append(observer) }
    }

    /// Takes a complete document (an upstream `data` event). The first one is a snapshot;
    /// later ones become the patch that leads from the mirror to them, so downstream
    /// clients and the history stay continuous. Returns `nil` when nothing changed.
    @discardableResult
    public func replaceDocument(_ document: JSONValue) -> FeedChange? {
        writeLock.withLock { () -> FeedChange? in
            guard let current = snapshot else {
                return commitLocked(document, kind: .snapshot)
            }
            let patch = JSONDiff.diff(from: current.document, to: document)
            guard !patch.operations.isEmpty else { return nil }
            return commitLocked(document, kind: .patch(patch, encoded: patch.serializedBytes()))
        }
    }

    /// Applies an upstream patch atomically. Throws without changing anything when there
    /// is no document yet or the patch does not apply. An empty patch is accepted and is
    /// not a change (`nil`).
    @discardableResult
    public func apply(_ patch: JSONPatch) throws(FeedStoreError) -> FeedChange? {
        // NIOLock.withLock erases typed throws, so the lock is taken by hand here.
        writeLock.lock()
        defer { writeLock.unlock() }
        guard let current = snapshot else { throw .noDocument }
        guard !patch.operations.isEmpty else { return nil }
        var document = current.document
        do {
            try patch.apply(to: &document)
        } catch {
            throw .patchRejected(error)
        }
        return commitLocked(document, kind: .patch(patch, encoded: patch.serializedBytes()))
    }

    /// Append mode: puts `item` first in the document's `items` array and keeps the newest
    /// `keep` (at least 1). The change is the patch `add /items/0` followed by one `remove`
    /// of the last index per item past `keep`, so downstream it is a patch like any other.
    ///
    /// Before any document, the first item makes the document `{"items":[item]}` (a
    /// snapshot). A document without an `items` array (restored from another mode, say) is
    /// replaced by `{"items":[item]}` through a diff. Returns the change.
    @discardableResult
    public func prependItem(_ item: JSONValue, keep: Int) -> FeedChange {
        writeLock.withLock { () -> FeedChange in
            let keep = max(1, keep)
            guard let current = snapshot else {
                return commitLocked(.object(["items": .array([item])]), kind: .snapshot)
            }
            guard case .object(var members) = current.document, case .array(var items)? = members["items"] else {
                let document = JSONValue.object(["items": .array([item])])
                let patch = JSONDiff.diff(from: current.document, to: document)
                return commitLocked(document, kind: .patch(patch, encoded: patch.serializedBytes()))
            }
            let itemsPointer = JSONPointer(tokens: ["items"])
            var operations: [JSONPatch.Operation] = [.add(path: itemsPointer.appending(index: 0), value: item)]
            items.insert(item, at: 0)
            while items.count > keep {
                operations.append(.remove(path: itemsPointer.appending(index: items.count - 1)))
                items.removeLast()
            }
            members["items"] = .array(items)
            let patch = JSONPatch(operations: operations)
            return commitLocked(.object(members), kind: .patch(patch, encoded: patch.serializedBytes()))
        }
    }

    /// Sets the state to a document and sequence restored from disk, before upstream
    /// answers. Observers are not called; it is the starting point, not a change.
    public func restore(document: JSONValue, seq: UInt64) {
        writeLock.withLock {
            let published = advancedView(from: nil, document: document, seq: seq)
            let snapshot = FeedSnapshot(id: EventID(epoch: epoch, seq: seq), document: document, published: published)
            state.withLockedValue {
                $0.snapshot = snapshot
                $0.history.removeAll()
            }
        }
    }

    /// What a client that last saw `id` needs to reach change `through`: the missed
    /// patches, or a fresh snapshot when the history does not cover the gap.
    public func resume(after id: EventID, through: UInt64) -> ChangeHistory.Resume {
        guard id.epoch == epoch else { return .needsSnapshot }
        return state.withLockedValue { $0.history.resume(after: id.seq, current: through) }
    }

    /// The number of changes and encoded bytes the history holds.
    public var historyUsage: (count: Int, bytes: Int) {
        state.withLockedValue { ($0.history.count, $0.history.byteCount) }
    }

    private func commitLocked(_ document: JSONValue, kind: FeedChange.Kind) -> FeedChange {
        let previous = snapshot
        let seq = (previous?.id.seq ?? 0) + 1
        let published = advancedView(from: previous?.published, document: document, seq: seq)
        let snapshot = FeedSnapshot(id: EventID(epoch: epoch, seq: seq), document: document, published: published)
        let observers = state.withLockedValue { state -> [@Sendable (FeedChange) -> Void] in
            state.snapshot = snapshot
            switch kind {
            case .snapshot: state.history.removeAll()
            case .patch(_, let encoded): state.history.append(seq: seq, encodedPatch: encoded)
            }
            return state.observers
        }
        let change = FeedChange(kind: kind, snapshot: snapshot, previousPublished: previous?.published)
        for observer in observers { observer(change) }
        return change
    }

    /// The version guard: the published view moves to `document` only when its version is
    /// greater than the published one, or when there is no version to compare.
    private func advancedView(from previous: PublishedView?, document: JSONValue, seq: UInt64) -> PublishedView {
        let version = configuration.profile.versionPath.flatMap { document.value(at: $0)?.doubleValue }
        if let previous, let publishedVersion = previous.version {
            guard let version, version > publishedVersion else { return previous }
        }
        return PublishedView(seq: seq, document: document, version: version, items: extractor.items(in: document))
    }
}

/// Why the store refused a change.
public enum FeedStoreError: Error, CustomStringConvertible {
    /// A patch arrived before any document.
    case noDocument
    /// The patch does not apply to the mirror; nothing changed.
    case patchRejected(JSONPatchError)

    public var description: String {
        switch self {
        case .noDocument: return "a patch arrived before any document"
        case .patchRejected(let error): return "patch rejected: \(error)"
        }
    }
}
