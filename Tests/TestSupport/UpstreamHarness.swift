import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers

/// One ``FeedCore/UpstreamConnection`` of any kind running against a test server (a
/// ``ScriptedSSEServer``, a ``ScriptedWebSocketServer``), with everything it does recorded: every event it publishes with the status it led to (and
/// the time), every document the store accepts. Logging is off.
///
/// `start()`, then drive the server and wait with ``waitUntil(_:timeout:_:)`` or
/// ``waitForStatus(_:timeout:_:)`` (both bounded), then `stop(within:)`.
///
/// The connection runs on threads of its own (``DedicatedTaskExecutor``), not on Swift's
/// cooperative pool, which the rest of the suite's tests can hold for seconds: a
/// reconnect then comes when the connection's clock says, not when a pool thread is free.
public final class UpstreamHarness: Sendable {
    /// The SSE server it was made for, if any.
    public let server: ScriptedSSEServer?
    public let store: FeedStore
    public let connection: UpstreamConnection
    private let statusLog = NIOLockedValueBox<[(at: Date, event: UpstreamEvent, status: UpstreamStatus)]>([])
    private let documents = NIOLockedValueBox<[JSONValue]>([])
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)
    private let finished = NIOLockedValueBox(false)
    private let executor = DedicatedTaskExecutor(threads: 2, name: "upstream-harness")

    /// An SSE connection in the document protocol to `server`.
    public convenience init(
        server: ScriptedSSEServer, configuration: UpstreamConfiguration, profile: ItemProfile = .nytNewswire
    ) throws {
        try self.init(server: server, configuration: configuration, kind: .document, profile: profile)
    }

    /// A connection of `kind` (to whatever server `configuration.url` names).
    public init(
        server: ScriptedSSEServer? = nil, configuration: UpstreamConfiguration, kind: UpstreamKind,
        profile: ItemProfile = .nytNewswire
    ) throws {
        self.server = server
        store = FeedStore(configuration: .init(profile: profile), epoch: "test")
        connection = try UpstreamConnection(
            configuration: configuration, kind: kind, store: store,
            logger: Logger(label: "upstream-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        connection.observe { [statusLog] event, status in
            statusLog.withLockedValue { $0.append((Date(), event, status)) }
        }
        store.observe { [documents] change in documents.withLockedValue { $0.append(change.snapshot.document) } }
    }

    public func start() {
        let connection = self.connection
        let finished = self.finished
        task.withLockedValue {
            $0 = Task(executorPreference: executor) {
                await connection.run()
                finished.withLockedValue { $0 = true }
            }
        }
    }

    /// Cancels the connection's task; returns how long `run()` took to return, or `nil`
    /// when it did not return within `limit` (its threads are then left to it).
    public func stop(within limit: Duration = .seconds(3)) async -> Duration? {
        let start = ContinuousClock.now
        task.withLockedValue { $0?.cancel() }
        do {
            let took = try await Eventually.value("run() to return", within: limit.timeInterval, poll: .milliseconds(5))
            {
                finished.withLockedValue { $0 } ? ContinuousClock.now - start : nil
            }
            executor.shutdown()
            return took
        } catch {
            return nil
        }
    }

    public var status: UpstreamStatus { connection.status }
    /// Every status published, in order, with when the harness saw it.
    public var statuses: [(at: Date, status: UpstreamStatus)] {
        statusLog.withLockedValue { $0.map { ($0.at, $0.status) } }
    }
    /// Every event published, in order.
    public var events: [UpstreamEvent] { statusLog.withLockedValue { $0.map(\.event) } }
    /// Every document the store accepted, in order, as its observer saw them: on the
    /// store's delivery, a moment after ``document`` shows one. Wait on these to assert on them.
    public var acceptedDocuments: [JSONValue] { documents.withLockedValue { $0 } }
    /// The store's document now (committed; maybe not yet delivered to its observer).
    public var document: JSONValue? { store.snapshot?.document }

    /// The delays the connection announced, in order: `(delay, stoppedByUpstream)`. Exact:
    /// the time of the next attempt less the time of the error it follows (both set by the
    /// connection in the same step), not less when this harness saw the status.
    public var announcedDelays: [(delay: TimeInterval, stopped: Bool)] {
        var out: [(TimeInterval, Bool)] = []
        var previous: UpstreamStatus.Phase?
        for (at, status) in statuses where status.phase != previous {
            previous = status.phase
            let since = status.lastErrorAt ?? at
            switch status.phase {
            case .backingOff(let until): out.append((until.timeIntervalSince(since), false))
            case .stoppedByUpstream(let until): out.append((until.timeIntervalSince(since), true))
            default: break
            }
        }
        return out
    }

    /// The phases in order, consecutive repeats folded, backoff times dropped.
    public var phaseNames: [String] {
        var names: [String] = []
        for (_, status) in statuses {
            let name: String
            switch status.phase {
            case .idle: name = "idle"
            case .connecting: name = "connecting"
            case .open: name = "open"
            case .backingOff: name = "backingOff"
            case .stoppedByUpstream: name = "stoppedByUpstream"
            case .stopped: name = "stopped"
            }
            if names.last != name { names.append(name) }
        }
        return names
    }

    /// Waits (at most `timeout`) until `condition` holds.
    public func waitUntil(_ what: String, timeout: Duration = .seconds(15), _ condition: () -> Bool) async throws {
        _ = try await Eventually.value(what, within: timeout.timeInterval, poll: .milliseconds(5)) {
            condition() ? true : nil
        }
    }

    /// Waits until the status satisfies `condition`; returns that status.
    @discardableResult
    public func waitForStatus(
        _ what: String, timeout: Duration = .seconds(5), _ condition: (UpstreamStatus) -> Bool
    ) async throws -> UpstreamStatus {
        try await Eventually.value(what, within: timeout.timeInterval, poll: .milliseconds(5)) {
            let status = connection.status
            return condition(status) ? status : nil
        }
    }
}
