import Dispatch

/// Runs a piece of fan-out work for every shard at once: each shard's broadcaster queues a
/// change to its own clients, with no lock shared with another shard, while the others do
/// the same on other cores. Returns once every shard is done.
///
/// Only shards with many clients (``inParallelFrom``) are worth a core each: the work of
/// the others (a few clients, or none: the broadcaster's state still moves) is done here,
/// one shard after another, without waking a worker thread for it.
enum EveryShard {
    /// The fewest clients for which a shard's work gets a thread of its own (one
    /// submission of writes, ``SocketWrites/entries``): waking a worker costs more than
    /// queuing to fewer.
    static let inParallelFrom = 64

    /// Calls `body` for each of `shards`, in parallel for those with at least
    /// ``inParallelFrom`` clients, when there are two or more. `clients` counts each shard's
    /// clients, in the order of `shards`.
    static func run(_ shards: [Shard], clients: [Int], _ body: @Sendable (Shard) -> Void) {
        precondition(clients.count == shards.count, "a count of clients for each shard")
        var large: [Shard] = []
        for (shard, count) in zip(shards, clients) {
            if count >= inParallelFrom {
                large.append(shard)
            } else {
                body(shard)
            }
        }
        if large.count == 1 {
            body(large[0])
        } else if large.count > 1 {
            let parallel = large
            DispatchQueue.concurrentPerform(iterations: parallel.count) { body(parallel[$0]) }
        }
    }
}
