import Foundation

/// Bounded waiting for a condition that becomes true through another process or thread.
public enum AsyncEventually {
    /// Why a wait failed.
    public struct TimedOut: Error, CustomStringConvertible {
        public let what: String
        public let last: String
        public var description: String { "timed out waiting for \(what)\(last.isEmpty ? "" : "; last seen: \(last)")" }
    }

    /// Calls `condition` every `poll` until it returns a value (then returns it) or
    /// `seconds` pass (then throws ``TimedOut``). Errors thrown by `condition` count as
    /// "not yet"; the last one is reported.
    public static func value<T>(
        _ what: String, within seconds: Double = 10, poll: Duration = .milliseconds(50),
        _ condition: () throws -> T?
    ) async throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while true {
            do {
                if let value = try condition() { return value }
            } catch {
                last = "\(error)"
            }
            guard Date() < deadline else { throw TimedOut(what: what, last: last) }
            try await Task.sleep(for: poll)
        }
    }

    /// Waits until `condition` is true; see ``value(_:within:poll:_:)``.
    public static func check(
        _ what: String, within seconds: Double = 10, poll: Duration = .milliseconds(50), _ condition: () throws -> Bool
    ) async throws {
        _ = try await value(what, within: seconds, poll: poll) { try condition() ? true : nil }
    }
}
