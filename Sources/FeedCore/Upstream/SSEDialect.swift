/// How the events of one SSE stream become ``UpstreamCommand``s: the I/O-free part of an
/// SSE source. ``UpstreamConnection`` makes a fresh value for every connection, so a
/// dialect that keeps state (``FirebaseProtocol`` keeps the document it patches) starts
/// afresh with the snapshot each connection begins with.
///
/// The dialects: ``DocumentProtocol`` (Streamdata `data`/`patch`), ``AppendProtocol`` (one
/// item per event), ``FirebaseProtocol`` (`put`/`patch` at a path).
public protocol SSEDialect: Sendable {
    /// The command for `event`, the next event of the stream.
    mutating func interpret(_ event: SSEEvent) -> UpstreamCommand

    /// What the dialect learned of this stream's own event names, in words, for the log
    /// (`events named prices carry the document`); `nil` while it learned nothing.
    var learned: String? { get }
}

extension SSEDialect {
    public var learned: String? { nil }
}

extension AppendProtocol: SSEDialect {
    public var learned: String? { itemEvents.map { "events named \($0) carry the items" } }
}
