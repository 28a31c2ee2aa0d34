import Foundation

/// The one way tests wait for a condition that becomes true elsewhere (another process,
/// a server thread, a socket): poll it, sleeping between polls without holding a thread,
/// until it holds or a deadline passes. Every wait is bounded.
public enum Eventually {
    /// Why a wait failed: what was awaited, and the last error the condition threw.
    public struct TimedOut: Error, CustomStringConvertible {
        public let what: String
        public let last: String
        public init(what: String, last: String = "") {
            self.what = what
            self.last = last
        }
        public var description: String { "timed out waiting for \(what)\(last.isEmpty ? "" : "; last error: \(last)")" }
    }

    /// Calls `condition` every `poll` until it returns a value (then returns it) or
    /// `seconds` pass (then throws ``TimedOut``). An error thrown by `condition` counts as
    /// "not yet"; the last one is reported.
    @discardableResult
    public static func value<T>(
        _ what: String, within seconds: Double = 10, poll: Duration = .milliseconds(20),
        _ condition: () async throws -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var last = ""
        while true {
            do {
                if let value = try await condition() { return value }
            } catch {
                last = "\(error)"
            }
            guard ContinuousClock.now < deadline else { throw TimedOut(what: what, last: last) }
            try await Task.sleep(for: poll)
        }
    }

    /// Waits until `condition` is true; see ``value(_:within:poll:_:)``.
    public static func check(
        _ what: String, within seconds: Double = 10, poll: Duration = .milliseconds(20),
        _ condition: () async throws -> Bool
    ) async throws {
        try await value(what, within: seconds, poll: poll) { try await condition() ? true : nil }
    }
}
