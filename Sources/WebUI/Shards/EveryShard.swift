import Dispatch

/// Runs a piece of fan-out work for every shard at once: each shard's broadcaster queues a
/// change to its own clients, with no lock shared with another shard, while the others do
/// the same on other cores. Returns once every shard is done.
enum EveryShard {
    /// Calls `body` for each of `shards`, in parallel when there is more than one.
    static func run(_ shards: [Shard], _ body: @Sendable (Shard) -> Void) {
        if shards.count == 1 {
            body(shards[0])
        } else {
            DispatchQueue.concurrentPerform(iterations: shards.count) { body(shards[$0]) }
        }
    }
}
