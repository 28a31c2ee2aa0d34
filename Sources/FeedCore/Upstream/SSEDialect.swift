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
}

/// A dialect without state: a function of the event alone.
public struct StatelessDialect: SSEDialect {
    private let function: @Sendable (SSEEvent) -> UpstreamCommand

    public init(_ function: @escaping @Sendable (SSEEvent) -> UpstreamCommand) {
        self.function = function
    }

    public func interpret(_ event: SSEEvent) -> UpstreamCommand {
        function(event)
    }
}

extension AppendProtocol: SSEDialect {}
