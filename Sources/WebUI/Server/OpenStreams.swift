/// The SSE streams a server holds open, and the rule that admits one more: at most
/// ``limit`` at once, and none once the server is stopping.
///
/// A plain value: ``HTTPServer`` keeps it under its state lock and decides there; the
/// stream is subscribed, or refused, after the lock is released.
struct OpenStreams {
    /// The most streams open at once (`--max-clients`).
    let limit: Int
    /// The open streams, by identity.
    private(set) var streams: [ObjectIdentifier: StreamConnection] = [:]
    /// Set once by ``stop()``; no stream is admitted after it.
    private(set) var stopping = false

    init(limit: Int) {
        self.limit = limit
    }

    /// The number of streams open.
    var count: Int { streams.count }

    /// Admits `stream` and returns `true`, or returns `false` when at ``limit`` or stopping.
    mutating func admit(_ stream: StreamConnection) -> Bool {
        guard !stopping, streams.count < limit else { return false }
        streams[ObjectIdentifier(stream)] = stream
        return true
    }

    /// Forgets `stream` (its request is complete), freeing its place.
    mutating func remove(_ stream: StreamConnection) {
        streams.removeValue(forKey: ObjectIdentifier(stream))
    }

    /// Stops admitting streams; returns those open now.
    mutating func stop() -> [StreamConnection] {
        stopping = true
        return Array(streams.values)
    }
}
