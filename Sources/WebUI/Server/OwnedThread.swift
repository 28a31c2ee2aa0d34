import CMicroHTTPD
import Foundation

/// A thread that one server part starts and waits for: the part keeps its own running flag
/// and its own way of waking the thread's loop; this starts the loop on a thread of its own
/// and lets the part's `stop()` wait until the loop has returned: bounded, for a thread
/// whose late exit harms nothing, or not, for one that may still be inside libmicrohttpd.
///
/// Used by ``StreamSender``, ``HangupWatcher`` and ``ConnectionReaper``.
struct OwnedThread: Sendable {
    private let exited = DispatchSemaphore(value: 0)

    /// Runs `loop` on a new thread with `stackSize` bytes of stack, named `name` (15 bytes
    /// show in `top -H`, `perf` and `/proc/PID/task/*/comm`) unless `nil` (the loop names
    /// itself). Foundation's `Thread.name` does not reach the system's name on Linux.
    func start(name: String?, stackSize: Int, _ loop: @escaping @Sendable () -> Void) {
        let exited = self.exited
        let thread = Thread {
            if let name { _ = feedweb_current_thread_setup(name, 0) }
            loop()
            exited.signal()
        }
        thread.stackSize = stackSize
        thread.start()
    }

    /// Waits until the loop has returned, however long that takes: for a thread that may be
    /// inside a libmicrohttpd daemon, which must not be stopped under it.
    func waitForExit() {
        exited.wait()
    }

    /// Waits until the loop has returned, at most `timeout`; whether it had.
    @discardableResult
    func waitForExit(within timeout: DispatchTimeInterval) -> Bool {
        exited.wait(timeout: .now() + timeout) == .success
    }
}
