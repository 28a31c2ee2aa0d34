import Testing

@testable import FeedCore

/// A Socket.IO server's messages over its WebSocket: Engine.IO's packets, Socket.IO's in
/// them, and what the message protocol makes of each.
@Suite("Socket.IO packets")
struct SocketIOPacketTests {
    static let append = MessageProtocol(mode: .append(keep: 5), framing: .socketIO)

    @Test("Engine.IO's and Socket.IO's packet types, namespaces and acknowledgement ids")
    func packets() throws {
        #expect(
            SocketIOPacket(parsing: #"0{"sid":"a","upgrades":[],"pingInterval":25000,"pingTimeout":20000}"#)
                == .handshake)
        #expect(SocketIOPacket(parsing: "2") == .ping)
        #expect(SocketIOPacket(parsing: "3") == .pong)
        #expect(SocketIOPacket(parsing: "1") == .close)
        #expect(SocketIOPacket(parsing: "6") == .noop)
        #expect(SocketIOPacket(parsing: #"40{"sid":"b"}"#) == .joined)
        #expect(SocketIOPacket(parsing: "40/prices,") == .joined)
        #expect(SocketIOPacket(parsing: "41") == .left)
        let tick = SocketIOPacket.event(
            name: "tick", arguments: [try JSONValue(parsing: #"{"symbol":"BTC","price":1.5}"#)])
        #expect(SocketIOPacket(parsing: #"42["tick",{"symbol":"BTC","price":1.5}]"#) == tick)
        #expect(SocketIOPacket(parsing: #"42/prices,["tick",{"symbol":"BTC","price":1.5}]"#) == tick)
        #expect(SocketIOPacket(parsing: #"4217["tick",{"symbol":"BTC","price":1.5}]"#) == tick)
        #expect(SocketIOPacket(parsing: #"42/prices,17["tick",{"symbol":"BTC","price":1.5}]"#) == tick)
        #expect(SocketIOPacket(parsing: #"4317[]"#) == .acknowledgement)
        #expect(SocketIOPacket(parsing: #"44{"message":"Not authorized"}"#) == .refused("Not authorized"))
        // Attachments: placeholders named, however deep; a count is required.
        let frame = SocketIOPacket.event(
            name: "frame",
            arguments: [
                try JSONValue(
                    parsing: #"{"camera":"door","image":"(binary attachment)","more":["(binary attachment)"]}"#)
            ])
        #expect(
            SocketIOPacket(
                parsing:
                    #"452-["frame",{"camera":"door","image":{"_placeholder":true,"num":0},"more":[{"_placeholder":true,"num":1}]}]"#
            ) == frame)
        #expect(
            SocketIOPacket(parsing: #"451-/cams,7["frame",{"_placeholder":true,"num":0}]"#)
                == .event(name: "frame", arguments: [.string(SocketIOPacket.attachmentText)]))
        #expect(SocketIOPacket(parsing: #"461-17[{"_placeholder":true,"num":0}]"#) == .acknowledgement)
        for broken in [
            "", "9", "42", #"42{"a":1}"#, "42[1,2]", "42/prices", "4x", #"45["frame"]"#, #"45x-["frame"]"#,
        ] {
            guard case .malformed = SocketIOPacket(parsing: broken) else {
                Issue.record("\(broken) is not malformed: \(SocketIOPacket(parsing: broken))")
                continue
            }
        }
    }

    @Test("a Socket.IO URL is known by its EIO query; any other WebSocket is plain")
    func framingOfURL() {
        #expect(MessageProtocol.Framing.of(url: "wss://feed.example/socket.io/?EIO=4&transport=websocket") == .socketIO)
        #expect(MessageProtocol.Framing.of(url: "ws://127.0.0.1:3000/live/?transport=websocket&EIO=4") == .socketIO)
        #expect(MessageProtocol.Framing.of(url: "wss://ws-feed.exchange.coinbase.com") == .plain)
        #expect(MessageProtocol.Framing.of(url: "wss://feed.example/socket.io/?NEIO=4") == .plain)
    }

    @Test("an event's one argument is the item; its own packets no items; a refusal an error; a close ends it")
    func commands() throws {
        func commands(_ text: String) -> [UpstreamCommand] { Self.append.interpret(.text(text)) }
        guard case .prependItem(let item, keep: 5)? = commands(#"42["tick",{"symbol":"BTC","price":1.5}]"#).first
        else {
            Issue.record("an event is not an item")
            return
        }
        #expect(item == (try JSONValue(parsing: #"{"symbol":"BTC","price":1.5}"#)))
        // An argument that is a list of items: each one (as a bare message's list is).
        #expect(commands(#"42["ticks",[{"symbol":"BTC"},{"symbol":"ETH"}]]"#).count == 2)
        // Several arguments: the event's name and its arguments.
        guard case .prependItem(let several, _)? = commands(#"42["trade","BTC",43000]"#).first else {
            Issue.record("an event of several arguments is not an item")
            return
        }
        #expect(several == (try JSONValue(parsing: #"{"event":"trade","arguments":["BTC",43000]}"#)))
        for quiet in [#"0{"sid":"a"}"#, "2", "3", "6", #"40{"sid":"b"}"#, "43[]", #"42["ping",1]"#] {
            guard case .ignore(_, counted: false)? = commands(quiet).first else {
                Issue.record("\(quiet) is not quietly ignored: \(commands(quiet))")
                continue
            }
        }
        guard case .reportError("Socket.IO: Not authorized")? = commands(#"44{"message":"Not authorized"}"#).first
        else {
            Issue.record("a refusal is not an error")
            return
        }
        for closing in ["1", "41"] {
            guard case .endStream? = commands(closing).first else {
                Issue.record("\(closing) does not end the stream")
                continue
            }
        }
        guard case .reportError(let error)? = commands(#"{"symbol":"BTC"}"#).first else {
            Issue.record("plain JSON on a Socket.IO socket is not an error")
            return
        }
        #expect(error.contains("not Socket.IO's"), "\(error)")
        // In document mode an event's argument is the document.
        let document = MessageProtocol(mode: .document, framing: .socketIO)
        guard case .replaceDocument(let value)? = document.interpret(.text(#"42["state",{"quotes":[]}]"#)).first else {
            Issue.record("an event's argument is not the document")
            return
        }
        #expect(value == (try JSONValue(parsing: #"{"quotes":[]}"#)))
    }

    @Test("an event with attachments is an item, its placeholders named; the binary messages after it are no errors")
    func attachments() throws {
        let commands = Self.append.interpret(
            .text(#"451-["frame",{"camera":"door","image":{"_placeholder":true,"num":0}}]"#))
        guard case .prependItem(let item, 5)? = commands.first else {
            Issue.record("an event with an attachment is not an item: \(commands)")
            return
        }
        #expect(item["image"] == .string("(binary attachment)") && item["camera"] == .string("door"))
        guard case .ignore(_, false)? = Self.append.interpret(.binary(byteCount: 2048)).first else {
            Issue.record("an attachment is an error or counted")
            return
        }
        // On a plain WebSocket a binary message is still an error.
        guard case .reportError? = MessageProtocol(mode: .append(keep: 5)).interpret(.binary(byteCount: 3)).first else {
            Issue.record("a plain socket's binary message is not an error")
            return
        }
    }

    @Test("Engine.IO 3: told by the URL's EIO=3; its handshake's ping interval, at least 100 ms")
    func engineIO3() throws {
        #expect(SocketIOPacket.isEngineIO3(query: "EIO=3&transport=websocket"))
        #expect(SocketIOPacket.isEngineIO3(query: "transport=websocket&EIO=3"))
        #expect(!SocketIOPacket.isEngineIO3(query: "EIO=4&transport=websocket"))
        #expect(!SocketIOPacket.isEngineIO3(query: "EIO=33"))
        #expect(!SocketIOPacket.isEngineIO3(query: nil))
        let handshake = #"0{"sid":"x","upgrades":[],"pingInterval":25000,"pingTimeout":5000}"#
        #expect(SocketIOPacket.pingInterval(handshake: handshake) == .milliseconds(25_000))
        #expect(SocketIOPacket.pingInterval(handshake: #"0{"pingInterval":5}"#) == .milliseconds(100))
        #expect(SocketIOPacket.pingInterval(handshake: #"0{"sid":"x"}"#) == nil)
        #expect(SocketIOPacket.pingInterval(handshake: #"0{"pingInterval":-1}"#) == nil)
        #expect(SocketIOPacket.pingInterval(handshake: #"42["tick",{"pingInterval":1000}]"#) == nil)
    }

    @Test("--event in append mode: only the events so named are items; liveness and the rest ignored, not counted")
    func chosenEvents() throws {
        let chosen = MessageProtocol(mode: .append(keep: 5), framing: .socketIO, chosenEvents: ["tick"])
        guard case .prependItem(let item, 5)? = chosen.interpret(.text(#"42["tick",{"symbol":"BTC"}]"#)).first,
            case .ignore(let reason, false)? = chosen.interpret(.text(#"42["news",{"title":"hi"}]"#)).first
        else {
            Issue.record("tick is not the item, or news is")
            return
        }
        #expect(item["symbol"] == .string("BTC"))
        #expect(reason.contains("news") && reason.contains("--event"), "\(reason)")
        guard case .prependItem? = Self.append.interpret(.text(#"42["news",{"title":"hi"}]"#)).first else {
            Issue.record("without --event, every event is an item")
            return
        }
        // The chosen event's argument is an item whatever its own type says.
        guard case .prependItem? = chosen.interpret(.text(#"42["tick",{"type":"quote","symbol":"BTC"}]"#)).first
        else {
            Issue.record("a chosen event's argument was asked its kind")
            return
        }
    }
}
