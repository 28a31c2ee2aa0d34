import Foundation

/// Carries out what a stream delivers, in two stages that overlap: the reader (a child
/// task the transport supplies) turns each read of the stream into events and their
/// commands and puts them in an ``UpstreamEventQueue``; the committer (the calling task)
/// takes everything parsed so far at once and commits it to the store, items that arrived
/// together as one change. Shared by the SSE and WebSocket transports.
///
/// Between the stages the queue is bounded at 4 MiB (or one maximal event). A failure of
/// the reader reaches the caller after every event parsed before it has been committed; a
/// resync (or an end of stream) decided by the committer ends the reader.
struct UpstreamCommitter: Sendable {
    let session: UpstreamSession

    /// Runs `reader` into a queue and commits what it puts there until the reader ends
    /// (then returns) or either stage throws (then rethrows).
    func run(reader: @escaping @Sendable (UpstreamEventQueue) async throws -> Void) async throws {
        let queue = UpstreamEventQueue(limitBytes: max(4 * 1024 * 1024, session.configuration.maxEventBytes))
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

    /// Carries out `reads` in order, the items among them as one change. The stream's
    /// position (last event id, retry) becomes theirs first; a resync clears the id again.
    private func commit(_ reads: [UpstreamEventQueue.Read]) throws(UpstreamError) {
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
        var items: [JSONValue] = []
        var keep = 0
        func commitItems() {
            guard !items.isEmpty else { return }
            session.store.prependItems(items, keep: keep)
            handled += items.count
            delivered = true
            items.removeAll(keepingCapacity: true)
        }
        for read in reads {
            for (event, command) in read.events {
                if case .prependItem(let item, let itemKeep) = command {
                    items.append(item)
                    keep = itemKeep
                    continue
                }
                commitItems()
                handled += 1  // a rejected event counts too: rejecting it is handling it
                try handle(command, of: event)
                delivered = true
            }
        }
        commitItems()
    }

    /// Carries out one event's command; throws ``UpstreamError/resync(_:)`` to end the
    /// connection when the state may have drifted, ``UpstreamError/endedByUpstream(_:)``
    /// when upstream ended the stream.
    private func handle(_ command: UpstreamCommand, of event: SSEEvent) throws(UpstreamError) {
        let logger = session.logger
        switch command {
        case .replaceDocument(let document):
            session.store.replaceDocument(document)
        case .applyPatch(let patch):
            do {
                try session.store.apply(patch)
            } catch {
                try rejectAndResync("\(error)")
            }
        case .prependItem(let item, let keep):
            session.store.prependItem(item, keep: keep)
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
                session.publish(.ignored)
            } else {
                logger.debug("upstream: \(event.type) \(event.data.prefix(200))")
            }
        case .reject(let reason):
            try rejectAndResync(reason)
        }
    }

    private func rejectAndResync(_ reason: String) throws(UpstreamError) {
        session.logger.error("upstream: \(reason); keeping the last good state and reconnecting for a snapshot")
        session.publish(.rejected(reason: reason))
        session.lastEventID = ""
        throw .resync(reason)
    }
}
