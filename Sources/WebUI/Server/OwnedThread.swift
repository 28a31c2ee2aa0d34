import Foundation

/// A thread that one server part starts and waits for: the part keeps its own running flag
/// and its own way of waking the thread's loop; this starts the loop on a thread of its own
/// and lets the part's `stop()` wait, bounded, until the loop has returned.
///
/// Used by ``StreamSender``, ``HangupWatcher`` and ``ConnectionReaper``.
struct OwnedThread: Sendable {
    private let exited = DispatchSemaphore(value: 0)

    /// Runs `loop` on a new thread with `stackSize` bytes of stack, named `name` (15 bytes
    /// show in `top -H`) unless `nil` (the loop names itself).
    func start(name: String?, stackSize: Int, _ loop: @escaping @Sendable () -> Void) {
        let exited = self.exited
        let thread = Thread {
            loop()
            exited.signal()
        }
        if let name { thread.name = name }
        thread.stackSize = stackSize
        thread.start()
    }

    /// Waits until the loop has returned, at most `timeout`; whether it had.
    @discardableResult
    func waitForExit(within timeout: DispatchTimeInterval) -> Bool {
        exited.wait(timeout: .now() + timeout) == .success
    }
}
