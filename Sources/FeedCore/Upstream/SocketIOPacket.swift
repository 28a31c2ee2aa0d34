/// One text message of a Socket.IO server (Socket.IO 4 over Engine.IO 4, a WebSocket at
/// `/socket.io/?EIO=4&transport=websocket`; Socket.IO 2 over Engine.IO 3 at `?EIO=3&…`,
/// whose packets are the same), as its first characters say: an Engine.IO packet
/// type, and in a `4` (message) a Socket.IO packet type, a namespace and an acknowledgement id
/// before the JSON payload. Pure: ``MessageProtocol`` reads it, the WebSocket transport
/// answers a ping with a pong (``pongText``) and joins the default namespace (``join``).
///
/// - `0{…}`: the Engine.IO handshake (its `sid` and ping timing);
/// - `1`: the server closes; `2`: its ping, which the client must answer with `3` within its
///   `pingTimeout`, or be dropped; `3`: a pong; `6`: a no-op. Engine.IO 3 turns the pings
///   round: the client pings every `pingInterval` of the handshake and the server answers;
///   its server also joins the client to the default namespace by itself (``isEngineIO3(query:)``);
/// - `40{…}`: a namespace joined; `41`: left (the server disconnected the client);
/// - `42["name",arg,…]`: an event, in any namespace (`42/prices,["tick",{…}]`), with an
///   acknowledgement id or not (`4217["tick",{…}]`);
/// - `43…`: an acknowledgement; `44{"message":…}`: a namespace refused;
/// - `451-["name",{"_placeholder":true,"num":0},…]`: an event with binary attachments, which
///   follow as binary messages: read as an event whose placeholders are ``attachmentText``
///   (a dashboard shows JSON, not the bytes); `46…`: an acknowledgement with attachments.
enum SocketIOPacket: Equatable {
    case handshake
    case close
    case ping
    case pong
    case noop
    case joined
    case left
    case event(name: String, arguments: [JSONValue])
    case acknowledgement
    case refused(String)
    /// Not a packet of either protocol (an unknown type, an event that is not a JSON array
    /// led by its name), in words.
    case malformed(String)

    /// The server's ping (Engine.IO's `2`), which ``pongText`` answers.
    static let pingText = "2"
    /// The answer to the server's ping.
    static let pongText = "3"
    /// What joins the default namespace, sent first once the socket opens.
    static let join = "40"
    /// What stands in an event's arguments for a binary attachment's placeholder.
    static let attachmentText = "(binary attachment)"

    /// Whether `url` asks a Socket.IO server for its WebSocket: its query names the
    /// Engine.IO protocol (`EIO=4`), as every Socket.IO client's URL does.
    static func isSocketIO(query: String?) -> Bool {
        guard let query else { return false }
        return query.split(separator: "&").contains { $0.hasPrefix("EIO=") }
    }

    /// Whether the server at `query` speaks Engine.IO 3 (Socket.IO 2): the client pings it
    /// (``pingText`` every ``pingInterval(handshake:)``) and must not join the default
    /// namespace itself, which the server joined it to (a second join is a second socket,
    /// and every event would come twice).
    static func isEngineIO3(query: String?) -> Bool {
        guard let query else { return false }
        return query.split(separator: "&").contains("EIO=3")
    }

    /// The ping interval of a handshake (`0{"sid":…,"pingInterval":25000,…}`), or `nil` when
    /// `text` is no handshake or names no positive interval. At least 100 ms.
    static func pingInterval(handshake text: String) -> Duration? {
        guard text.hasPrefix("0"), let value = try? JSONValue(parsing: String(text.dropFirst())),
            let milliseconds = value["pingInterval"]?.doubleValue, milliseconds > 0, milliseconds.isFinite
        else { return nil }
        return .milliseconds(max(100, Int64(min(milliseconds, 86_400_000))))
    }

    init(parsing text: String) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else {
            self = .malformed("an empty message")
            return
        }
        switch first {
        case UInt8(ascii: "0"): self = .handshake
        case UInt8(ascii: "1"): self = .close
        case UInt8(ascii: "2"): self = .ping
        case UInt8(ascii: "3"): self = .pong
        case UInt8(ascii: "6"): self = .noop
        case UInt8(ascii: "4"): self = Self.message(bytes.dropFirst())
        default: self = .malformed("an Engine.IO packet of unknown type \(Self.shown(first))")
        }
    }

    /// A Socket.IO packet: its type, then `/namespace,` and digits of an acknowledgement id
    /// when it has them, then its JSON.
    private static func message(_ bytes: ArraySlice<UInt8>) -> SocketIOPacket {
        guard let type = bytes.first else { return .malformed("an empty Socket.IO packet") }
        var rest = bytes.dropFirst()
        if type == UInt8(ascii: "5") || type == UInt8(ascii: "6") {
            // The count of attachments and its `-`.
            guard let dash = rest.firstIndex(of: UInt8(ascii: "-")),
                !rest[..<dash].isEmpty, rest[..<dash].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return .malformed("a Socket.IO packet with attachments that does not count them") }
            rest = rest[(dash + 1)...]
        }
        if rest.first == UInt8(ascii: "/") {
            guard let comma = rest.firstIndex(of: UInt8(ascii: ",")) else {
                // A namespace alone: `40/prices` joined, `41/prices` left.
                rest = rest[rest.endIndex...]
                return packet(type, payload: rest)
            }
            rest = rest[(comma + 1)...]
        }
        while let digit = rest.first, digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") { rest = rest.dropFirst() }
        return packet(type, payload: rest)
    }

    private static func packet(_ type: UInt8, payload: ArraySlice<UInt8>) -> SocketIOPacket {
        switch type {
        case UInt8(ascii: "0"): return .joined
        case UInt8(ascii: "1"): return .left
        case UInt8(ascii: "3"), UInt8(ascii: "6"): return .acknowledgement
        case UInt8(ascii: "4"):
            let value = try? JSONValue(parsing: String(decoding: payload, as: UTF8.self))
            let message = ItemExtractor.text(value?["message"]) ?? ItemExtractor.text(value) ?? "refused"
            return .refused(DocumentProtocol.oneLine(message))
        case UInt8(ascii: "2"), UInt8(ascii: "5"):
            guard let value = try? JSONValue(parsing: String(decoding: payload, as: UTF8.self)),
                let array = value.arrayValue, let name = array.first?.stringValue
            else { return .malformed("a Socket.IO event that is not a JSON array led by its name") }
            let arguments = Array(array.dropFirst())
            return .event(
                name: name, arguments: type == UInt8(ascii: "5") ? arguments.map(withoutPlaceholders) : arguments)
        default:
            return .malformed("a Socket.IO packet of unknown type \(shown(type))")
        }
    }

    /// `value` with each attachment's placeholder (`{"_placeholder":true,"num":N}`) as
    /// ``attachmentText``, however deep.
    private static func withoutPlaceholders(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            if members.count == 2, members["_placeholder"] == .bool(true), members["num"]?.int64Value != nil {
                return .string(attachmentText)
            }
            return .object(members.mapValues(withoutPlaceholders))
        case .array(let elements):
            return .array(elements.map(withoutPlaceholders))
        default:
            return value
        }
    }

    /// A packet type byte in words: the character, or its code when it is not printable.
    private static func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : "0x" + String(byte, radix: 16)
    }
}
