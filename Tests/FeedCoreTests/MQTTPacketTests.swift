import Foundation
import Testing

@testable import FeedCore

/// MQTT 3.1.1's packets as feedweb writes and reads them, without a broker, and what a
/// broker's message becomes.
@Suite("MQTT packets")
struct MQTTPacketTests {
    @Test("CONNECT, SUBSCRIBE, PINGREQ, PUBACK as the standard lays them out")
    func written() {
        let connect = MQTTPacket.connect(clientID: "fw", keepAliveSeconds: 30, username: nil, password: nil)
        #expect(connect == [0x10, 14, 0, 4, 77, 81, 84, 84, 4, 0x02, 0, 30, 0, 2, 102, 119])
        let withUser = MQTTPacket.connect(clientID: "fw", keepAliveSeconds: 30, username: "u", password: "p")
        #expect(withUser[9] == 0xC2 && withUser.suffix(6) == [0, 1, 117, 0, 1, 112])
        #expect(MQTTPacket.subscribe(packetID: 1, filters: ["a/#"]) == [0x82, 8, 0, 1, 0, 3, 97, 47, 35, 0])
        #expect(MQTTPacket.pingRequest == [0xC0, 0])
        #expect(MQTTPacket.publishAcknowledgement(0x1234) == [0x40, 2, 0x12, 0x34])
        // A length of two bytes: 200 = 0xC8 0x01.
        let long = MQTTPacket.subscribe(packetID: 1, filters: [String(repeating: "t", count: 195)])
        #expect(long[1] == 0xC8 && long[2] == 0x01 && long.count == 203)
    }

    @Test("packets read however the bytes arrive: one across reads, several in one; too long refused unread")
    func read() throws {
        var reader = MQTTPacketReader(limit: 1024)
        let bytes: [UInt8] = [0x20, 2, 0, 0] + [0x31, 7, 0, 3, 97, 47, 98] + Array("{}".utf8) + [0xD0, 0]
        for byte in bytes.prefix(5) { reader.append([byte]) }
        #expect(try reader.next() == .connectAcknowledged(returnCode: 0))
        #expect(try reader.next() == nil, "a PUBLISH cut short")
        reader.append(bytes.dropFirst(5))
        #expect(
            try reader.next() == .publish(topic: "a/b", payload: Array("{}".utf8), qos: 0, packetID: nil, retain: true))
        #expect(try reader.next() == .pingResponse)
        #expect(try reader.next() == nil)
        // QoS 1 carries its packet id; SUBACK its codes.
        var qos = MQTTPacketReader(limit: 1024)
        qos.append([0x32, 8, 0, 1, 116, 0, 7] + Array("123".utf8) + [0x90, 3, 0, 1, 0x80])
        #expect(try qos.next() == .publish(topic: "t", payload: Array("123".utf8), qos: 1, packetID: 7, retain: false))
        #expect(try qos.next() == .subscribeAcknowledged(packetID: 1, returnCodes: [0x80]))
        // Over the limit: refused from its length alone.
        var small = MQTTPacketReader(limit: 100)
        small.append([0x30, 0xC8, 0x01, 0, 1])
        #expect(throws: MQTTProtocolError.tooLarge(limit: 100)) { try small.next() }
        for broken: [UInt8] in [
            [0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], [0x10, 0], [0x00, 0], [0x20, 1, 0], [0x36, 0],
        ] {
            var reader = MQTTPacketReader(limit: 1 << 20)
            reader.append(broken)
            #expect(throws: MQTTProtocolError.self, "\(broken)") { try reader.next() }
        }
        #expect(MQTTPacket.refusal(4) == "bad user name or password" && MQTTPacket.refusal(5) == "not authorized")
    }

    @Test("append: a topic is a row, JSON objects with the topic first, other values as value; empty clears it")
    func messages() throws {
        let append = MQTTMessages(mode: .append(keep: 50))
        func item(_ payload: String) -> JSONValue? {
            guard
                case .putItem(let item, let idAt, 50) = append.command(
                    topic: "home/kitchen", payload: Array(payload.utf8))
            else { return nil }
            #expect(idAt == MQTTMessages.topicPath)
            return item
        }
        #expect(item(#"{"t":21.5}"#) == .object(["topic": .string("home/kitchen"), "t": .double(21.5)]))
        #expect(item(#"{"t":21.5}"#)?.objectValue?.keys.first == "topic")
        #expect(item("21.5") == .object(["topic": .string("home/kitchen"), "value": .double(21.5)]))
        #expect(item("ON") == .object(["topic": .string("home/kitchen"), "value": .string("ON")]))
        #expect(item(#"{"topic":"own","t":1}"#)?["value"]?["topic"] == .string("own"), "its own topic kept")
        guard case .putItem(let binary, _, _) = append.command(topic: "cam", payload: [0xFF, 0xD8, 0xFF]) else {
            Issue.record("a binary message is no item")
            return
        }
        #expect(binary["value"] == .string("(3 bytes)"))
        guard case .removeItemByID(.string("home/kitchen"), _) = append.command(topic: "home/kitchen", payload: [])
        else {
            Issue.record("an empty message does not clear the topic")
            return
        }
        let document = MQTTMessages(mode: .document)
        guard case .replaceDocument = document.command(topic: "s", payload: Array(#"{"a":1}"#.utf8)),
            case .reportError = document.command(topic: "s", payload: Array("nope".utf8))
        else {
            Issue.record("document mode")
            return
        }
    }

    @Test("the topic filter of a URL: its path, a # that the URL took for a fragment, every topic when none")
    func filters() throws {
        func filter(_ text: String) throws -> String { MQTTMessages.topicFilter(of: try #require(URL(string: text))) }
        #expect(try filter("mqtt://broker/home/#") == "home/#")
        #expect(try filter("mqtt://broker:1883/zigbee2mqtt/+") == "zigbee2mqtt/+")
        #expect(try filter("mqtt://broker/home/%23") == "home/#")
        #expect(try filter("mqtt://broker/a%20b/c") == "a b/c")
        #expect(try filter("mqtt://broker") == "#")
        #expect(try filter("mqtt://broker/") == "#")
        #expect(UpstreamEndpoint.transport(of: "MQTTS://broker/x") == .mqtt)
        #expect(UpstreamEndpoint.transport(of: "https://broker/x") == .http)
    }
}
