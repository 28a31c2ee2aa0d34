import FeedCore
import Foundation
import Glibc

/// Ending child processes without `Process.waitUntilExit()`, which spins a CPU core on
/// Linux while it waits, and without blocking a thread of Swift's cooperative pool.
public enum ChildProcess {
    /// Sends SIGTERM, waits up to `grace` seconds, then SIGKILL and waits up to 5 s more;
    /// returns once it is gone (or those waits passed).
    public static func terminate(_ process: Process, grace: Double = 2) async {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
        if await exited(process, within: grace) { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        _ = await exited(process, within: 5)
    }

    /// Sends SIGKILL and returns at once (for cleanup in `defer` and `deinit`, which
    /// cannot wait). The kernel frees the process's ports and files as it dies.
    public static func killNow(_ process: Process) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// What is left in `pipe` once its child has exited, without waiting for the pipe's end.
    ///
    /// A child that another test spawns at the same moment may inherit the pipe's write end
    /// and keep it open for as long as it runs, so a blocking `readToEnd()` here could wait
    /// for that child, on a thread of Swift's cooperative pool: with two such reads at once
    /// the whole pool was blocked, and with it the test that would have ended that child.
    public static func takeBuffered(_ pipe: Pipe) -> [UInt8] {
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return bytes }
            bytes += buffer.prefix(count)
        }
    }

    /// Waits until `process` has exited (`true`) or `seconds` pass (`false`).
    public static func exited(_ process: Process, within seconds: Double) async -> Bool {
        await exitStatus(process, within: seconds) != nil
    }

    /// The exit status of `process` once it has exited (for a signal, the signal's number,
    /// as `Process.terminationStatus` gives it), or `nil` if `seconds` pass first.
    ///
    /// Foundation's `Process` on Linux learns of an exit from `SIGCHLD`; a child that exits
    /// before Foundation has registered it (a wrong option exits at once) can be missed
    /// while many children start together, and then `isRunning` stays `true` for good
    /// (seen in CI: `feedweb --bogus` printed its error and exited, `isRunning` was still
    /// `true` 16 s later). So a child the kernel shows as a zombie for 200 ms that
    /// Foundation still calls running is taken as exited, with the status the kernel keeps
    /// for it (`/proc/PID/stat`); it is left for Foundation to reap.
    public static func exitStatus(_ process: Process, within seconds: Double) async -> Int32? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var zombieSince: ContinuousClock.Instant?
        while process.isRunning {
            let now = ContinuousClock.now
            if let waitStatus = zombieWaitStatus(process.processIdentifier) {
                let since = zombieSince ?? now
                zombieSince = since
                if now - since >= .milliseconds(200) {
                    let signal = waitStatus & 0x7f
                    return signal == 0 ? (waitStatus >> 8) & 0xff : signal
                }
            }
            guard now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }

    /// The wait status the kernel keeps for `pid` when it is a zombie (exited, not yet
    /// reaped), from `/proc/PID/stat` (field 3 the state, field 52 the exit code); else `nil`.
    private static func zombieWaitStatus(_ pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        // fields[0] is field 3 (the state); field 52 (the exit code) is fields[49].
        guard fields.count > 49, fields[0] == "Z" else { return nil }
        return Int32(fields[49].trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
