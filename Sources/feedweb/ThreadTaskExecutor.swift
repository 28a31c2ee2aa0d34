import Foundation

/// A task executor with one thread of its own, for work that must run even while every
/// thread of Swift's cooperative pool is busy or blocked (a fan-out to thousands of
/// clients, the HTTP server draining its streams): the handling of SIGTERM and SIGINT,
/// which arms the shutdown watchdog.
///
/// Jobs run in the order they were enqueued. The lock (an `NSCondition`) guards the queue
/// only; jobs run after it is released.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(name: String) {
        let thread = Thread { [self] in work() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
