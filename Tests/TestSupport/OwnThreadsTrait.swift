import Testing

/// Runs each test case on a thread of its own (a ``DedicatedTaskExecutor``) instead of
/// Swift's cooperative pool.
///
/// The pool has one thread per core, and the suite runs its tests in parallel: a test that
/// computes for a second holds a pool thread for that second, and a test that waits gets
/// its turn again only when a pool thread is free. Every `Task.sleep` in the process ends
/// on a pool thread too, whatever executor its task prefers. Under the whole suite on two
/// cores that was seconds (a request that a test sent 3 s late, a close seen 5 s after it
/// came, an upstream's reconnect 10 s late). Two kinds of test take this trait:
/// - those that compute for long (over ~0.2 s) without awaiting, so that they do not hold
///   the pool;
/// - those that do I/O or time what they see (a deadline, a heartbeat's arrival), so that
///   what they measure is the server's timing, not the pool's.
/// Quick pure tests stay on the pool. `make test` bounds how many tests run at once, so the
/// threads of their own do not crowd the servers' threads out instead.
/// Tasks a test starts inherit its executor; one that outlives the test goes on on the
/// global executor.
public struct OwnThreadsTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope holds no test code: only its test cases move.
        guard testCase != nil else { return try await function() }
        let executor = DedicatedTaskExecutor(threads: 1, name: "test-case")
        defer { executor.shutdown() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// Each test case runs on a thread of its own, not on Swift's cooperative pool.
    public static var onThreadsOfItsOwn: Self { Self() }
}
