/// The clients a fan-out made ready, gathered per ``StreamSender`` and handed over in
/// batches: one sender lock and at most one wake per batch, not one per client. Batches
/// are small enough that a sender starts writing to the first clients while the rest are
/// still being queued. Used holding no lock: a hand-over takes the sender's lock and may
/// write to its wake-up descriptor.
///
/// A shard's clients share one sender, so the sender of the client before is kept apart
/// from the others: a fan-out gathers client after client without a hash look-up.
struct SenderWakes {
    /// The most clients handed over at once.
    static let batchSize = 256

    /// The batch of the sender seen last.
    private var current: (sender: StreamSender, streams: [StreamConnection])?
    /// The batches of the other senders.
    private var others: [ObjectIdentifier: (sender: StreamSender, streams: [StreamConnection])] = [:]

    /// Notes that `stream` is ready for `sender`; hands over a full batch at once.
    mutating func add(_ stream: StreamConnection, for sender: StreamSender) {
        if current?.sender !== sender {
            if let previous = current { others[ObjectIdentifier(previous.sender)] = previous }
            current = others.removeValue(forKey: ObjectIdentifier(sender)) ?? (sender, [])
        }
        current?.streams.append(stream)
        // The batch is read (copied) only when it is full.
        if let count = current?.streams.count, count >= Self.batchSize, let batch = current {
            current = (sender, [])
            batch.sender.markReady(contentsOf: batch.streams)
        }
    }

    /// Hands over what is left.
    mutating func flush() {
        if let batch = current { batch.sender.markReady(contentsOf: batch.streams) }
        for batch in others.values { batch.sender.markReady(contentsOf: batch.streams) }
        current = nil
        others.removeAll()
    }
}
