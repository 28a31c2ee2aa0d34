/// The MQTT 3.1.1 packets feedweb sends and reads as a subscriber (OASIS MQTT Version 3.1.1,
/// §2–3), without I/O: the bytes of what it sends, and what one packet read is. Every packet
/// is a fixed header (its type in the high four bits of the first byte, flags in the low
/// four), the length of the rest in 1 to 4 bytes of seven bits each (least significant
/// first, the high bit saying another follows), then the rest.
///
/// feedweb sends CONNECT (a clean session, a keep-alive, a user name and password when the
/// URL has them), SUBSCRIBE (its topic filters at QoS 0), PINGREQ and DISCONNECT; it reads
/// CONNACK, SUBACK, PUBLISH, PINGRESP, and answers a PUBLISH of QoS 1 with PUBACK.
enum MQTTPacket: Equatable {
    /// CONNACK: the connection accepted (`0`) or refused with `returnCode`.
    case connectAcknowledged(returnCode: UInt8)
    /// PUBLISH: a message on `topic`; `packetID` when its QoS is above 0.
    case publish(topic: String, payload: [UInt8], qos: UInt8, packetID: UInt16?, retain: Bool)
    /// SUBACK: the QoS granted to each filter, or `0x80` where it was refused.
    case subscribeAcknowledged(packetID: UInt16, returnCodes: [UInt8])
    case pingResponse
    /// Any other packet type a client may be sent (PUBREL, UNSUBACK, …): nothing to do.
    case other(type: UInt8)

    /// The protocol level of MQTT 3.1.1.
    static let protocolLevel: UInt8 = 4
    /// PINGREQ.
    static let pingRequest: [UInt8] = [0xC0, 0x00]
    /// DISCONNECT.
    static let disconnect: [UInt8] = [0xE0, 0x00]
    /// What a refused subscription's return code is.
    static let refused: UInt8 = 0x80

    /// A CONNECT with a clean session.
    static func connect(clientID: String, keepAliveSeconds: UInt16, username: String?, password: String?) -> [UInt8] {
        var flags: UInt8 = 0x02  // clean session
        if username != nil { flags |= 0x80 }
        if password != nil { flags |= 0x40 }
        var body = text("MQTT") + [protocolLevel, flags] + bigEndian(keepAliveSeconds) + text(clientID)
        if let username { body += text(username) }
        if let password { body += text(password) }
        return packet(0x10, body)
    }

    /// A SUBSCRIBE of `filters`, each at QoS 0.
    static func subscribe(packetID: UInt16, filters: [String]) -> [UInt8] {
        packet(0x82, bigEndian(packetID) + filters.flatMap { text($0) + [0] })
    }

    /// The PUBACK of a QoS 1 PUBLISH.
    static func publishAcknowledgement(_ packetID: UInt16) -> [UInt8] {
        [0x40, 0x02] + bigEndian(packetID)
    }

    /// What a CONNACK's return code means, in words.
    static func refusal(_ returnCode: UInt8) -> String {
        switch returnCode {
        case 1: return "the broker does not speak MQTT 3.1.1"
        case 2: return "the broker refused the client id"
        case 3: return "the broker is unavailable"
        case 4: return "bad user name or password"
        case 5: return "not authorized"
        default: return "refused (return code \(returnCode))"
        }
    }

    /// The packet read from `type` (the first byte) and `body` (the rest after the length).
    init(type byte: UInt8, body: ArraySlice<UInt8>) throws(MQTTProtocolError) {
        var reader = Reader(bytes: body)
        switch byte >> 4 {
        case 2:
            guard body.count == 2 else { throw .malformed("a CONNACK of \(body.count) bytes") }
            self = .connectAcknowledged(returnCode: body[body.startIndex + 1])
        case 3:
            let qos = (byte >> 1) & 0x03
            guard qos < 3 else { throw .malformed("a PUBLISH of QoS 3") }
            let topic = try reader.text()
            var packetID: UInt16?
            if qos > 0 { packetID = try reader.number() }
            self = .publish(
                topic: topic, payload: Array(reader.rest), qos: qos, packetID: packetID, retain: byte & 0x01 == 1)
        case 9:
            let packetID = try reader.number()
            self = .subscribeAcknowledged(packetID: packetID, returnCodes: Array(reader.rest))
        case 13:
            self = .pingResponse
        case 1, 8, 10, 12, 14:
            throw .malformed("a packet a broker does not send (type \(byte >> 4))")
        case 0, 15:
            throw .malformed("a packet of a reserved type (\(byte >> 4))")
        default:
            self = .other(type: byte >> 4)
        }
    }

    /// A packet: its first byte, the length of `body`, `body`.
    private static func packet(_ first: UInt8, _ body: [UInt8]) -> [UInt8] {
        var bytes = [first]
        var length = body.count
        repeat {
            var digit = UInt8(length & 0x7F)
            length >>= 7
            if length > 0 { digit |= 0x80 }
            bytes.append(digit)
        } while length > 0
        return bytes + body
    }

    /// A UTF-8 string as MQTT writes one: its length in two bytes, then its bytes.
    private static func text(_ string: String) -> [UInt8] {
        let utf8 = Array(string.utf8.prefix(Int(UInt16.max)))
        return bigEndian(UInt16(utf8.count)) + utf8
    }

    private static func bigEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    /// Reads a packet's body from the front.
    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func number() throws(MQTTProtocolError) -> UInt16 {
            guard bytes.count >= 2 else { throw .malformed("a packet cut short") }
            let value = UInt16(bytes[bytes.startIndex]) << 8 | UInt16(bytes[bytes.startIndex + 1])
            bytes = bytes.dropFirst(2)
            return value
        }

        mutating func text() throws(MQTTProtocolError) -> String {
            let count = Int(try number())
            guard bytes.count >= count else { throw .malformed("a packet cut short") }
            let text = String(decoding: bytes.prefix(count), as: UTF8.self)
            bytes = bytes.dropFirst(count)
            return text
        }

        var rest: ArraySlice<UInt8> { bytes }
    }
}

/// Why bytes from a broker are not MQTT.
enum MQTTProtocolError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    /// A packet longer than `--max-event-bytes`.
    case tooLarge(limit: Int)

    var description: String {
        switch self {
        case .malformed(let what): return "the broker sent \(what)"
        case .tooLarge(let limit): return "a message exceeded \(limit) bytes"
        }
    }
}

/// Splits the bytes a broker sends into packets, however they arrive: a packet across
/// reads, or several in one. Holds at most one packet's bytes, and refuses one longer than
/// `limit` before reading it.
struct MQTTPacketReader {
    let limit: Int
    private var buffer: [UInt8] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes more bytes.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole packet, or `nil` until more bytes come.
    mutating func next() throws(MQTTProtocolError) -> MQTTPacket? {
        guard let first = buffer.first else { return nil }
        var length = 0
        var index = 1
        var shift = 0
        while true {
            guard index < buffer.count else { return nil }
            let digit = buffer[index]
            length |= Int(digit & 0x7F) << shift
            index += 1
            if digit & 0x80 == 0 { break }
            shift += 7
            guard shift < 28 else { throw .malformed("a packet length of more than four bytes") }
        }
        guard length <= limit else { throw .tooLarge(limit: limit) }
        guard buffer.count - index >= length else { return nil }
        let packet = try MQTTPacket(type: first, body: buffer[index..<(index + length)])
        buffer.removeFirst(index + length)
        return packet
    }
}
