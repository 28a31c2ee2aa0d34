/// Why ``SSEParser`` refused its input.
///
/// Both cases are final for the parser that threw them: every later `parse` call
/// throws again. ``SSEParser/lastEventID`` and ``SSEParser/reconnectionTime`` stay
/// valid, so a caller can still reconnect with them (see
/// ``SSEParser/parserForReconnection()``).
public enum SSEParserError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The current line plus the data of the event being built went past
    /// `limit` bytes (``SSEParser/maxEventBytes``). The stream is misbehaving or
    /// hostile: drop the connection. The parser released its buffers when it threw.
    case eventTooLarge(limit: Int)
    /// `parse` was called after ``SSEParser/finish()``. A parser reads one stream;
    /// a new connection needs a new parser.
    case parseAfterFinish

    public var description: String {
        switch self {
        case .eventTooLarge(let limit):
            return "SSE event larger than the limit of \(limit) bytes"
        case .parseAfterFinish:
            return "SSE parser used after finish()"
        }
    }
}
