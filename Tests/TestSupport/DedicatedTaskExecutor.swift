import Foundation

/// A task executor with threads of its own, for work under test that must not wait for
/// Swift's cooperative pool: that pool has one thread per core, and the whole suite's
/// synchronous tests, run in parallel, can hold every one of its threads for seconds.
///
/// Jobs run in the order they were enqueued, on `threads` threads. ``shutdown()`` lets the
/// threads end once the queue is empty; a job that comes after the last thread has ended
/// (a task that outlived its test) goes to the global executor instead, so it still runs.
public final class DedicatedTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs`, `running` and `alive`; a leaf.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var running = true
    /// Threads that have not ended.
    private var alive: Int

    public init(threads: Int, name: String) {
        alive = threads
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        guard alive > 0 else {
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(UnownedJob(job))
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads end once the queue is empty.
    public func shutdown() {
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty && running { condition.wait() }
            if jobs.isEmpty {
                alive -= 1
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
