import Foundation
import Glibc

/// The write end of the signal pipe, for the C signal handler (set once, before the
/// handler is installed, so the handler only reads an initialised global).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The signal handler: writes the signal number to the pipe (`write` is
/// async-signal-safe) and does nothing else.
private func forwardSignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    let saved = errno
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Turns SIGINT/SIGTERM into a callback on a thread of its own instead of killing the
/// process, reliably: a real handler forwards each signal through a pipe (the self-pipe
/// pattern), so a signal is never lost, whichever thread the kernel delivers it to and
/// however early it comes. (A dispatch signal source is not enough on Linux: it sets the
/// signal to be ignored and registers its signalfd later on another thread, so a signal
/// in between, or one delivered to a thread that does not block it, is discarded.)
///
/// One per process.
final class SignalWatcher: @unchecked Sendable {
    private let readEnd: Int32
    private let lock = NSLock()
    private var cancelled = false

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // Without a pipe, signals keep their default action (the process ends).
            readEnd = -1
            return
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        for number in signals { signal(number, forwardSignal) }
        let readEnd = self.readEnd
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                if !lock.withLock({ cancelled }) { handler(Int32(byte)) }
            }
        }
        thread.name = "feedweb-signals"
        thread.start()
    }

    /// Stops calling the handler (the signals stay caught, so a late one cannot kill the
    /// process while it exits).
    func cancel() {
        lock.withLock { cancelled = true }
    }
}
