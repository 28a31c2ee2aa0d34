import FeedCore
import Foundation
import Glibc

/// Ending and awaiting child processes (``Subprocess``) without blocking a thread of
/// Swift's cooperative pool.
public enum ChildProcess {
    /// Sends SIGTERM, waits up to `grace` seconds, then SIGKILL and waits up to 5 s more;
    /// returns once it is gone (or those waits passed).
    public static func terminate(_ process: Subprocess, grace: Double = 2) async {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
        if await exited(process, within: grace) { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        _ = await exited(process, within: 5)
    }

    /// SIGKILLs every process of ours whose command line contains `text` (a scratch
    /// directory only its own processes name): those a test started through another
    /// program that did not stop them (Chromium, left by chromedriver). Reads `/proc`.
    public static func killAll(mentioning text: String) {
        guard !text.isEmpty, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        let own = getpid()
        for entry in entries {
            guard let pid = pid_t(entry), pid != own,
                let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                String(decoding: line, as: UTF8.self).contains(text)
            else { continue }
            Glibc.kill(pid, SIGKILL)
        }
    }

    /// Sends SIGKILL and returns at once (for cleanup in `defer` and `deinit`, which
    /// cannot wait). The kernel frees the process's ports and files as it dies.
    public static func killNow(_ process: Subprocess) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// What is left in `pipe` once its child has exited, without waiting for the pipe's end.
    ///
    /// The pipe's write end may outlive the child (a grandchild it started, or, between
    /// another test's `pipe()` and its spawn's `closefrom`, a copy in flight), so a blocking
    /// `readToEnd()` here could wait for it on a thread of Swift's cooperative pool: with two
    /// such reads at once the whole pool was blocked (seen before ``Subprocess``).
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
    public static func exited(_ process: Subprocess, within seconds: Double) async -> Bool {
        await exitStatus(process, within: seconds) != nil
    }

    /// The exit status of `process` once it has exited (for a signal, the signal's number),
    /// or `nil` if `seconds` pass first.
    public static func exitStatus(_ process: Subprocess, within seconds: Double) async -> Int32? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while process.isRunning {
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }
}
