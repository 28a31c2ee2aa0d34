import Foundation
import Logging
import NIOConcurrencyHelpers

/// Keeps the ``StateFile`` up to date with a ``FeedStore``: after a change it writes the
/// current mirror and id, at most once per ``minimumInterval`` (changes in between
/// coalesce into the next write), and ``flush(clean:)`` writes at once (at shutdown, marked
/// clean: the ids go on from it at the next start).
///
/// A write that fails is logged (once per distinct error, and again when writing works
/// again) and retried with the next change or flush; it is never fatal.
public final class StateFileWriter: Sendable {
    public let file: StateFile
    /// The least time between two writes.
    public let minimumInterval: Duration
    private let store: FeedStore
    private let source: String
    private let logger: Logger
    private let changes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let state: NIOLockedValueBox<State>
    private let writeLock = NIOLock()

    private struct State {
        /// The sequence number on disk (restored, or written last).
        var savedSeq: UInt64?
        /// Whether the file on disk is marked clean.
        var savedClean = false
        var lastFailure: String?
        var writes = 0
    }

    /// Writes `store`'s state after each ``changed()``. `savedSeq` is the sequence already on
    /// disk (the restored one), so that it is not written again until something changes.
    public init(
        file: StateFile, store: FeedStore, source: String, savedSeq: UInt64?, logger: Logger,
        minimumInterval: Duration = .seconds(1)
    ) {
        self.file = file
        self.store = store
        self.source = source
        self.logger = logger
        self.minimumInterval = minimumInterval
        self.state = NIOLockedValueBox(State(savedSeq: savedSeq))
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.changes = changes
        self.continuation = continuation
    }

    /// The store accepted a change: it is written soon (``run()``), at most once per
    /// ``minimumInterval``. Cheap; never blocks.
    public func changed() {
        continuation.yield()
    }

    /// The number of successful writes so far.
    public var writes: Int {
        state.withLockedValue { $0.writes }
    }

    /// Writes after each change, at most once per ``minimumInterval``, until the task is
    /// cancelled. Call ``flush()`` afterwards for the last changes.
    public func run() async {
        for await _ in changes {
            flush()
            do {
                try await Task.sleep(for: minimumInterval)
            } catch {
                return
            }
        }
    }

    /// Writes the current state now if it is not on disk yet; returns whether the file is
    /// up to date afterwards. Thread-safe; writes never overlap.
    ///
    /// `clean`: the state is final (every part that changes it has stopped), so the file is
    /// marked clean and the next start goes on with its ids. A file already on disk for
    /// this sequence is left as it is by a flush that is not clean: a clean mark stays
    /// true until the next change (nothing after it was sent).
    @discardableResult
    public func flush(clean: Bool = false) -> Bool {
        writeLock.withLock {
            guard let snapshot = store.snapshot else { return true }
            let seq = snapshot.id.seq
            let saved = state.withLockedValue { ($0.savedSeq, $0.savedClean) }
            if saved.0 == seq && (saved.1 || !clean) { return true }
            do {
                try file.save(
                    seq: seq, epoch: snapshot.id.epoch, clean: clean, source: source,
                    encodedDocument: snapshot.encodedDocument)
            } catch {
                let message = "\(error)"
                let isNew = state.withLockedValue { state -> Bool in
                    defer { state.lastFailure = message }
                    return state.lastFailure != message
                }
                if isNew {
                    logger.error("state file \(file.path): cannot write: \(message)")
                } else {
                    logger.debug("state file \(file.path): cannot write: \(message)")
                }
                return false
            }
            let recovered = state.withLockedValue { state -> Bool in
                defer {
                    state.savedSeq = seq
                    state.savedClean = clean
                    state.lastFailure = nil
                    state.writes += 1
                }
                return state.lastFailure != nil
            }
            if recovered { logger.notice("state file \(file.path): written again") }
            logger.trace("state file \(file.path): saved change \(seq)")
            return true
        }
    }
}
