import Foundation

/// Everything observable about the upstream subscription, for `/readyz`, the status badge
/// on every page, and `/metrics`: the fold of the source's ``UpstreamEvent``s.
///
/// A value. The sources never set its fields by hand: each publishes events through an
/// ``UpstreamStatusPublisher``, which folds them in with ``apply(_:)``, the one place that
/// says how an event changes the status.
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
    /// Events counted and ignored (of unknown type, or data a dialect cannot read).
    public var ignoredEvents: UInt64 = 0
    /// Why the last of ``ignoredEvents`` was ignored, in words.
    public var lastIgnored: String?

    public init(source: String) {
        self.source = source
    }

    /// Whether events are flowing now.
    public var isConnected: Bool {
        phase == .open
    }

    /// Folds `event` in. Pure: reads no clock (times come in the events) and does no I/O.
    ///
    /// Invariants kept: ``connectedSince`` is set exactly while the phase is
    /// ``Phase/open``; the counters only grow, each by one per event of its kind
    /// (``bytesReceived`` by the bytes received).
    public mutating func apply(_ event: UpstreamEvent) {
        switch event {
        case .connecting:
            phase = .connecting
            connectedSince = nil
        case .reconnecting:
            reconnects += 1
            phase = .connecting
            connectedSince = nil
        case .opened(let time):
            phase = .open
            connectedSince = time
        case .received(let bytes):
            bytesReceived += bytes
        case .eventHandled(let count, let time):
            eventsReceived += UInt64(max(0, count))
            lastEventAt = time
        case .rejected:
            rejectedPatches += 1
        case .upstreamError(let message):
            upstreamErrors += 1
            lastUpstreamError = message
        case .ignored(let reason):
            ignoredEvents += 1
            lastIgnored = reason
        case .backingOff(let until, let error, let time):
            phase = .backingOff(until: until)
            lastError = error
            lastErrorAt = time
            connectedSince = nil
        case .stoppedByUpstream(let until, let error, let time):
            phase = .stoppedByUpstream(until: until)
            lastError = error
            lastErrorAt = time
            connectedSince = nil
        case .stopped:
            phase = .stopped
            connectedSince = nil
        case .leaderChanged, .answered, .polled:
            break
        }
    }
}
