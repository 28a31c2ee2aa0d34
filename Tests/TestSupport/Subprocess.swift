import Foundation
import Glibc
import NIOConcurrencyHelpers

/// A child process started with `posix_spawn`, in place of Foundation's `Process`.
///
/// Foundation's `Process.run()` on Linux (Swift 6.3.1) lists `/proc/self/fd` copying each
/// `dirent`'s whole 256-byte name field, which reads past the end of glibc's `readdir`
/// buffer; when that buffer ends a mapping, the test process dies (SIGSEGV in `memcpy`
/// under `Process.run()`, seen in CI; swift-corelibs-foundation#5472). Foundation also
/// learns of an exit from `SIGCHLD` and can miss a child that exits at once. So the tests
/// start their children (feedweb, PostgreSQL, nginx, chromedriver, checkers) with this:
/// `posix_spawn` with the standard streams given and every other descriptor of the test
/// process closed in the child (`closefrom(3)`), in a process group of its own, with the
/// default signal dispositions and an empty signal mask; its exit is learnt with
/// `waitpid(WNOHANG)` whenever ``isRunning`` is asked.
///
/// The shape is `Process`'s: set the properties, then ``run()``. A standard stream is a
/// `Pipe` (the child gets its write end, or read end for input, which the parent then
/// closes), a `FileHandle`, or `nil` for `/dev/null`.
public final class Subprocess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public var executableURL: URL?
    public var arguments: [String] = []
    /// The child's whole environment; `nil`: the test process's.
    public var environment: [String: String]?
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    /// The child's pid once ``run()`` returned; guards `exitStatus`.
    private let state = NIOLockedValueBox<(pid: pid_t, exitStatus: Int32?)>((0, nil))

    public init() {}

    public var processIdentifier: pid_t { state.withLockedValue { $0.pid } }

    /// Whether the child has been started and has not exited. Reaps it when it has.
    public var isRunning: Bool {
        state.withLockedValue { state in
            guard state.pid > 0, state.exitStatus == nil else { return false }
            var waitStatus: Int32 = 0
            let result = waitpid(state.pid, &waitStatus, WNOHANG)
            if result == state.pid {
                let signal = waitStatus & 0x7f
                state.exitStatus = signal == 0 ? (waitStatus >> 8) & 0xff : signal
                return false
            }
            return result == 0
        }
    }

    /// The exit code, or for a child ended by a signal the signal's number (as
    /// `Process.terminationStatus`); -1 while it runs or if it was never started.
    public var terminationStatus: Int32 {
        _ = isRunning
        return state.withLockedValue { $0.exitStatus ?? -1 }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the
    /// Glibc module does not export.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    /// Starts the child.
    public func run() throws {
        guard let path = executableURL?.path else { throw Failure(description: "no executable to run") }
        guard let addCloseFrom = Self.addCloseFrom else {
            throw Failure(description: "glibc has no posix_spawn_file_actions_addclosefrom_np")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // The parent's ends to close once the child has its copies.
        var childEnds: [FileHandle] = []
        func give(_ stream: Any?, as target: Int32, input: Bool) throws {
            switch stream {
            case nil:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", input ? O_RDONLY : O_WRONLY, 0)
            case let pipe as Pipe:
                let end = input ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target)
                if !childEnds.contains(where: { $0 === end }) { childEnds.append(end) }
            case let handle as FileHandle:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                throw Failure(description: "a standard stream must be a Pipe, a FileHandle or nil")
            }
        }
        try give(standardInput, as: 0, input: true)
        try give(standardOutput, as: 1, input: false)
        try give(standardError, as: 2, input: false)
        _ = addCloseFrom(&actions, 3)

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for string in argv + envp { free(string) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "posix_spawn \(path): \(String(cString: strerror(result)))")
        }
        state.withLockedValue { $0 = (pid, nil) }
        for end in childEnds { try? end.close() }
    }
}
