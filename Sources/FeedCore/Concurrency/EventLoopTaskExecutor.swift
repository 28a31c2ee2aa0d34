import NIOCore

/// Runs the jobs of the tasks that prefer it (`withTaskExecutorPreference`,
/// `addTask(executorPreference:)`) on one NIO event loop: the loop whose channel delivers
/// what they read. A job resumed from that loop (a body part handed to a waiting reader, a
/// read handed to the waiting committer) is queued on the loop and runs on the same thread
/// after the loop's current I/O, so a read of the upstream's stream goes from the socket to
/// the store without waking a thread of Swift's pool (measured: two of an event's ~5
/// context switches, a fifth of its CPU; BENCHMARKS.md).
///
/// A job holds the loop while it runs: the loop's other channels wait meanwhile. The
/// upstream's HTTP client is the loop's one regular user; what waits behind a commit is the
/// next read of the same stream, which would wait for that commit anyway.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
