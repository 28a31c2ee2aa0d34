/// The clients a fan-out made ready, gathered per ``StreamSender`` and handed over in
/// batches: one sender lock and at most one wake per batch, not one per client. Batches
/// are small enough that a sender starts writing to the first clients while the rest are
/// still being queued. Used holding no lock: a hand-over takes the sender's lock and may
/// write to its wake-up descriptor.
struct SenderWakes {
    /// The most clients handed over at once.
    static let batchSize = 256

    private var pending: [ObjectIdentifier: (sender: StreamSender, streams: [StreamConnection])] = [:]

    /// Notes that `stream` is ready for `sender`; hands over a full batch at once.
    mutating func add(_ stream: StreamConnection, for sender: StreamSender) {
        let key = ObjectIdentifier(sender)
        pending[key, default: (sender, [])].streams.append(stream)
        if (pending[key]?.streams.count ?? 0) >= Self.batchSize, let batch = pending.removeValue(forKey: key) {
            batch.sender.markReady(contentsOf: batch.streams)
        }
    }

    /// Hands over what is left.
    mutating func flush() {
        for batch in pending.values { batch.sender.markReady(contentsOf: batch.streams) }
        pending.removeAll()
    }
}
