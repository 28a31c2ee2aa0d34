import Foundation

/// Everything observable about the upstream subscription, for `/readyz`, the status badge
/// on every page, and `/metrics`. A value; ``UpstreamConnection`` publishes a new one on
/// every transition.
public struct UpstreamStatus: Sendable, Equatable {
    /// Where the connection is in its cycle.
    public enum Phase: Sendable, Equatable {
        /// Not started yet.
        case idle
        /// Opening the connection (TCP, TLS, request, response head).
        case connecting
        /// Receiving the event stream.
        case open
        /// Waiting before the next attempt.
        case backingOff(until: Date)
        /// Upstream answered 204 (stop); retrying at the maximum backoff.
        case stoppedByUpstream(until: Date)
        /// Shut down.
        case stopped
    }

    /// The source URL (or a label like `demo`).
    public var source: String
    public var phase: Phase = .idle
    /// The last connection or protocol error, in words.
    public var lastError: String?
    public var lastErrorAt: Date?
    /// The last `event: error` upstream sent, in words.
    public var lastUpstreamError: String?
    /// When the current connection opened.
    public var connectedSince: Date?
    /// When the last event arrived.
    public var lastEventAt: Date?
    /// Events received (of every type), counted once each has been handled.
    public var eventsReceived: UInt64 = 0
    /// Body bytes received.
    public var bytesReceived: UInt64 = 0
    /// Connection attempts after the first.
    public var reconnects: UInt64 = 0
    /// Patches (or documents) that could not be applied.
    public var rejectedPatches: UInt64 = 0
    /// `event: error` events received.
    public var upstreamErrors: UInt64 = 0
    /// Events of unknown type, ignored.
    public var ignoredEvents: UInt64 = 0

    public init(source: String) {
        self.source = source
    }

    /// Whether events are flowing now.
    public var isConnected: Bool {
        phase == .open
    }
}
