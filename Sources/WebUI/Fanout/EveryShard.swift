import Dispatch

/// Runs a piece of fan-out work for every shard at once: shard `i`'s broadcaster queues a
/// change to its own clients, with no lock shared with another shard, while the others do
/// the same on other cores. Returns once every shard is done.
enum EveryShard {
    /// Calls `body(i)` for each `i` in `0..<count`, in parallel when there is more than one.
    static func run(_ count: Int, _ body: @Sendable (Int) -> Void) {
        if count == 1 {
            body(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        }
    }
}
