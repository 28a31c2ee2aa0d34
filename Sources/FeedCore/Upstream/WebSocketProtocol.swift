/// How the messages of a WebSocket upstream (`--upstream ws://…` or `wss://…`) become
/// ``UpstreamCommand``s, without I/O.
///
/// - `append` (`--mode append`): each text message is one JSON item, put first; the newest
///   `keep` are the document `{"items":[…]}` (seed 003's Wikipedia edits,
///   `{"type":…,"content":…,"time":…}`).
/// - `document` (`--mode document`): each text message is a whole JSON document; the store
///   diffs it against the last one into a patch, as it does a poll.
///
/// A text message that is not JSON, and a binary message, are counted and shown as
/// upstream errors; the state and the connection are kept (there is no snapshot to
/// resynchronise from). A WebSocket has no event id: a reconnect starts a new stream, and
/// the gap shows downstream as the patch from the old state to the new one.
public struct WebSocketProtocol: Sendable, Equatable {
    /// What one text message is.
    public enum Mode: Sendable, Equatable {
        /// One item; the newest `keep` (at least 1) are kept.
        case append(keep: Int)
        /// A whole document.
        case document
    }

    /// One whole message, as the WebSocket delivered it (fragments joined).
    public enum Message: Sendable, Equatable {
        case text(String)
        case binary(byteCount: Int)
    }

    public let mode: Mode

    public init(mode: Mode) {
        if case .append(let keep) = mode {
            self.mode = .append(keep: max(1, keep))
        } else {
            self.mode = mode
        }
    }

    public func interpret(_ message: Message) -> UpstreamCommand {
        switch message {
        case .binary(let byteCount):
            return .reportError("a binary message (\(byteCount) bytes); feedweb reads text messages of JSON")
        case .text(let text):
            let value: JSONValue
            do {
                value = try JSONValue(parsing: text)
            } catch {
                return .reportError("a message is not JSON: \(error)")
            }
            switch mode {
            case .append(let keep): return .prependItem(value, keep: keep)
            case .document: return .replaceDocument(value)
            }
        }
    }
}
