import Foundation

/// Changes pushed to an upstream one after another with a short pause between them, on a
/// thread of its own (so that a busy cooperative pool cannot slow the flood): how many
/// were sent, and when each began and was written.
public struct UpstreamFlood: Sendable {
    public let start: Date
    public private(set) var sent = 0
    /// When change `k` began to be pushed.
    public private(set) var startedAt: [Int: Date] = [:]
    /// When change `k` had been written to the subscriber's socket.
    public private(set) var sentAt: [Int: Date] = [:]

    private init(start: Date) {
        self.start = start
    }

    /// Pushes changes `k` = 1, 2, … with `push`, pausing `pause` after each, until `count`
    /// are sent or `done(k)`, asked after each pause, says the flood has done its work.
    public static func run(
        upTo count: Int, pause: Duration, push: @escaping @Sendable (_ k: Int) async throws -> Void,
        until done: @escaping @Sendable (_ k: Int) async throws -> Bool = { _ in false }
    ) async throws -> UpstreamFlood {
        let executor = DedicatedTaskExecutor(threads: 1, name: "flood")
        defer { executor.shutdown() }
        return try await Task(executorPreference: executor) { () async throws -> UpstreamFlood in
            var flood = UpstreamFlood(start: Date())
            while flood.sent < count {
                let k = flood.sent + 1
                flood.startedAt[k] = Date()
                try await push(k)
                flood.sentAt[k] = Date()
                flood.sent = k
                try await Task.sleep(for: pause)
                if try await done(k) { break }
            }
            return flood
        }.value
    }
}
