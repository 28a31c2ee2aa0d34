import Foundation

/// Carries out what a stream delivers, in two stages that overlap: the reader (a child
/// task the transport supplies) turns each read of the stream into events and their
/// commands and puts them in an ``UpstreamReadQueue``; the committer (the calling task)
/// takes everything parsed so far at once and commits it to the store, items that arrived
/// together as one change. Shared by the SSE and WebSocket transports.
///
/// Between the stages the queue is bounded at 4 MiB (or one maximal event). A failure of
/// the reader reaches the caller after every event parsed before it has been committed; a
/// resync (or an end of stream) decided by the committer ends the reader.
///
/// Each change carries upstream's position after it: the id of the event it came from (of
/// the last item, for items committed together), never one past it, so that a cluster
/// leader that stores it resumes upstream exactly after the change.
///
/// Relay mode (``UpstreamConfiguration/passesIDsThrough``): a `data` or `patch` event
/// whose id is feedweb's own `EPOCH-SEQ` is adopted with that id
/// (``FeedStore/adopt(_:)``): a `data` starts the state over at it, a `patch` must be the
/// next of its epoch (else the connection resynchronises for a fresh `data`). An event
/// without such an id while the store holds an adopted epoch would mint ids of that epoch
/// that its root may hand out for other changes: a `patch` resynchronises, a `data`
/// starts over under a new epoch of this process's own.
struct UpstreamCommitter: Sendable {
    let session: UpstreamSession

    /// Runs `reader` into a queue and commits what it puts there until the reader ends
    /// (then returns) or either stage throws (then rethrows).
    func run(reader: @escaping @Sendable (UpstreamReadQueue) async throws -> Void) async throws {
        let queue = UpstreamReadQueue(limitBytes: max(4 * 1024 * 1024, session.configuration.maxEventBytes))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { queue.finish() }
                try await reader(queue)
            }
            do {
                while let reads = await queue.takeAll() {
                    try commit(reads)
                }
            } catch {
                queue.finish()
                group.cancelAll()
                throw error
            }
            try await group.waitForAll()
        }
    }

    /// Carries out `reads` in order, the items among them that came one after another as
    /// one change (or two, for items put in place and first: ``FeedStore/putItems(_:idAt:keep:position:arrival:)``). The stream's
    /// position (last event id, retry) becomes theirs first; a resync clears the id again.
    private func commit(_ reads: [UpstreamReadQueue.Read]) throws(UpstreamError) {
        guard let last = reads.last else { return }
        session.advance(
            lastEventID: last.lastEventID, retry: reads.lazy.compactMap(\.reconnectionTime).last)
        // Counted once handled, so whoever sees the count also sees the events' effect.
        var handled = 0
        var delivered = false
        defer {
            if delivered { session.delivered() }
            if handled > 0 { session.publish(.eventHandled(count: handled, at: Date())) }
        }
        // Items that came one after another, put first or put in place, as one change.
        var items: [JSONValue] = []
        var batch: ItemBatch?
        var itemsPosition = ""
        var itemsArrival: UpstreamArrival?
        let putInPlaceAt = session.configuration.itemsPutInPlaceAt
        func commitItems() {
            guard let batch, !items.isEmpty else { return }
            let store = session.store
            let position = Self.position(itemsPosition)
            switch batch {
            case .prepend(let keep):
                store.prependItems(items, keep: keep, position: position, arrival: itemsArrival)
            case .put(let idPath, let keep):
                store.putItems(items, idAt: idPath, keep: keep, position: position, arrival: itemsArrival)
            }
            handled += items.count
            delivered = true
            items.removeAll(keepingCapacity: true)
        }
        for read in reads {
            for (event, command) in read.events {
                if let (item, kind) = ItemBatch.of(command, putInPlaceAt: putInPlaceAt) {
                    if kind != batch { commitItems() }
                    batch = kind
                    items.append(item)
                    itemsPosition = event.id
                    itemsArrival = read.arrival  // items committed together: the last one's
                    continue
                }
                commitItems()
                handled += 1  // a rejected event counts too: rejecting it is handling it
                try handle(command, of: event, arrival: read.arrival)
                delivered = true
            }
        }
        commitItems()
    }

    /// How items that arrive together are committed together.
    private enum ItemBatch: Equatable {
        /// Put first (``FeedStore/prependItems(_:keep:position:arrival:)``).
        case prepend(keep: Int)
        /// Put in place or first (``FeedStore/putItems(_:idAt:keep:position:arrival:)``).
        case put(idAt: JSONPointer, keep: Int)

        /// The item `command` carries and how it is batched, or `nil` for any other command.
        /// An item to put first is put in place instead when items say which they are at
        /// `putInPlaceAt` (``UpstreamConfiguration/itemsPutInPlaceAt``).
        static func of(_ command: UpstreamCommand, putInPlaceAt: JSONPointer?) -> (JSONValue, ItemBatch)? {
            switch command {
            case .prependItem(let item, let keep):
                (item, putInPlaceAt.map { .put(idAt: $0, keep: keep) } ?? .prepend(keep: keep))
            case .putItem(let item, let idPath, let keep): (item, .put(idAt: idPath, keep: keep))
            default: nil
            }
        }
    }

    /// Carries out one event's command; throws ``UpstreamError/resync(_:)`` to end the
    /// connection when the state may have drifted, ``UpstreamError/endedByUpstream(_:)``
    /// when upstream ended the stream.
    private func handle(
        _ command: UpstreamCommand, of event: SSEEvent, arrival: UpstreamArrival
    ) throws(UpstreamError) {
        let logger = session.logger
        let position = Self.position(event.id)
        switch command {
        case .replaceDocument(let document):
            if session.configuration.passesIDsThrough {
                try relay(.document(document, encoded: nil), of: event, arrival: arrival)
            } else {
                session.store.replaceDocument(document, position: position, arrival: arrival)
            }
        case .applyPatch(let patch):
            if session.configuration.passesIDsThrough {
                try relay(.patch(patch, encoded: Array(event.data.utf8)), of: event, arrival: arrival)
                return
            }
            do {
                try session.store.apply(patch, position: position, arrival: arrival)
            } catch {
                try rejectAndResync("\(error)")
            }
        case .prependItem(let item, let keep):
            session.store.prependItem(item, keep: keep, position: position, arrival: arrival)
        case .replaceItem(let item):
            if session.store.replaceItem(item, position: position, arrival: arrival) == nil {
                logger.debug("upstream: \(event.type) event: no kept item has its key")
            }
        case .removeItem(let key):
            if session.store.removeItem(keyed: key, position: position, arrival: arrival) == nil {
                logger.debug("upstream: \(event.type) event: no kept item has the key \(key.prefix(100))")
            }
        case .putItem(let item, let idPath, let keep):
            session.store.putItem(item, idAt: idPath, keep: keep, position: position, arrival: arrival)
        case .removeItemByID(let id, let idPath):
            if session.store.removeItem(withID: id, at: idPath, position: position, arrival: arrival) == nil {
                logger.debug("upstream: \(event.type) event: no kept item has its id")
            }
        case .reportError(let message):
            logger.warning("upstream sent an error: \(message)")
            session.publish(.upstreamError(message: message))
        case .endStream(let message):
            logger.warning("upstream ended the stream: \(message); keeping the state and reconnecting")
            session.publish(.upstreamError(message: message))
            throw .endedByUpstream(message)
        case .ignore(let reason, let counted):
            if counted {
                logger.debug("upstream: ignored \(event.type) event: \(reason)")
                session.publish(.ignored(reason: reason))
            } else {
                logger.debug("upstream: \(event.type) \(event.data.prefix(200))")
            }
        case .reject(let reason):
            try rejectAndResync(reason)
        }
    }

    /// Relay mode: publishes `body` with the id of `event` when it is feedweb's own (see
    /// the type's notes for events without one).
    private func relay(
        _ body: PublishedChange.Body, of event: SSEEvent, arrival: UpstreamArrival
    ) throws(UpstreamError) {
        let store = session.store
        let position = Self.position(event.id)
        guard let id = EventID(parsing: event.id) else {
            let relaying = session.adoptedEpoch.map { $0 == store.epoch } ?? false
            switch body {
            case .document where relaying:
                // Ids of the root's epoch must not be minted here: start over in one of ours.
                let own = EventID(epoch: EventID.randomEpoch(), seq: 1)
                do {
                    try store.adopt(PublishedChange(id: own, body: body, upstreamPosition: position), arrival: arrival)
                } catch {
                    try rejectAndResync("\(error)")
                }
                session.adoptedEpoch = nil
            case .document(let document, _):
                store.replaceDocument(document, position: position, arrival: arrival)
            case .patch where relaying:
                try rejectAndResync("a patch without an id of the upstream feedweb's epoch")
            case .patch(let patch, _):
                do {
                    try store.apply(patch, position: position, arrival: arrival)
                } catch {
                    try rejectAndResync("\(error)")
                }
            }
            return
        }
        do {
            try store.adopt(PublishedChange(id: id, body: body, upstreamPosition: position), arrival: arrival)
            session.adoptedEpoch = id.epoch
        } catch {
            try rejectAndResync("\(error)")
        }
    }

    /// An event id as a position (`nil` for none).
    private static func position(_ id: String) -> String? {
        id.isEmpty ? nil : id
    }

    private func rejectAndResync(_ reason: String) throws(UpstreamError) {
        session.logger.error("upstream: \(reason); keeping the last good state and reconnecting for a snapshot")
        session.publish(.rejected(reason: reason))
        session.lastEventID = ""
        throw .resync(reason)
    }
}
