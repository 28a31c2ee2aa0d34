import Testing

@testable import FeedCore

/// A Pusher Channels server's messages (Pusher, Laravel Reverb, Soketi), and what the message
/// protocol makes of each.
@Suite("Pusher messages")
struct PusherMessageTests {
    static let append = MessageProtocol(mode: .append(keep: 5))

    static func event(_ name: String, data: String) -> String {
        JSONValue.object(["event": .string(name), "channel": .string("prices"), "data": .string(data)])
            .serializedString()
    }

    @Test("the server's own messages, its ping, its errors and an application's event")
    func messages() throws {
        func message(_ text: String) throws -> PusherMessage? { PusherMessage(try JSONValue(parsing: text)) }
        #expect(
            try message(
                #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"1.2\",\"activity_timeout\":30}"}"#)
                == .own)
        #expect(
            try message(#"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"prices"}"#) == .own)
        #expect(try message(#"{"event":"pusher:pong","data":"{}"}"#) == .own)
        #expect(try message(#"{"event":"pusher:ping","data":{}}"#) == .ping)
        #expect(
            try message(#"{"event":"pusher:error","data":{"code":4001,"message":"App key x not in this cluster"}}"#)
                == .error("4001: App key x not in this cluster"))
        #expect(
            try message(
                #"{"event":"pusher:subscription_error","channel":"private-a","data":"{\"type\":\"AuthError\",\"error\":\"x\",\"status\":403}"}"#
            )
                == .error("403: x"))
        let tick = try JSONValue(parsing: #"{"symbol":"BTC","price":97000.5}"#)
        #expect(
            try message(Self.event("App\\Events\\PriceUpdated", data: tick.serializedString()))
                == .event(name: "App\\Events\\PriceUpdated", channel: "prices", value: tick))
        // Data that is not JSON stays the text.
        #expect(
            try message(Self.event("note", data: "plain words"))
                == .event(name: "note", channel: "prices", value: .string("plain words")))
        // Not Pusher's: a Mastodon envelope, a Bitstamp message (an object in data), no event.
        #expect(try message(#"{"event":"update","payload":"{}","stream":["public"]}"#) == nil)
        #expect(try message(#"{"event":"trade","channel":"live_trades_btcusd","data":{"price":1}}"#) == nil)
        #expect(try message(#"{"event":"trade","channel":"c","data":"{}","extra":1}"#) == nil)
        #expect(try message(#"{"channel":"c","data":"{}"}"#) == nil)
    }

    @Test("its ping answered with a pong; its own messages no items; an event's data the item; errors shown")
    func reading() throws {
        let ping = Self.append.read(.text(#"{"event":"pusher:ping","data":{}}"#))
        #expect(ping.reply == PusherMessage.pongText)
        #expect(try JSONValue(parsing: PusherMessage.pongText)["event"] == .string("pusher:pong"))
        guard case .ignore(_, false)? = ping.commands.first else {
            Issue.record("a ping is an item: \(ping.commands)")
            return
        }
        for own in [
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"1.2\"}"}"#,
            #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"prices"}"#,
        ] {
            let reading = Self.append.read(.text(own))
            guard case .ignore(_, false)? = reading.commands.first, reading.reply == nil else {
                Issue.record("\(own) is read as \(reading.commands)")
                continue
            }
        }
        let tick = try JSONValue(parsing: #"{"symbol":"BTC","price":97000.5}"#)
        guard
            case .prependItem(let item, keep: 5)? = Self.append.interpret(
                .text(Self.event("App\\Events\\PriceUpdated", data: tick.serializedString()))
            ).first
        else {
            Issue.record("an event is not an item")
            return
        }
        #expect(item == tick)
        // A list broadcast: each object one item.
        let list = Self.append.interpret(.text(Self.event("prices", data: #"[{"symbol":"A"},{"symbol":"B"}]"#)))
        #expect(list.count == 2)
        guard
            case .reportError(let problem)? = Self.append.interpret(
                .text(#"{"event":"pusher:error","data":{"code":4201,"message":"Pong reply not received"}}"#)
            ).first
        else {
            Issue.record("an error is not shown")
            return
        }
        #expect(problem == "Pusher: 4201: Pong reply not received")
        // Document mode: the data is the whole document.
        guard
            case .replaceDocument(let document)? = MessageProtocol(mode: .document).interpret(
                .text(Self.event("state", data: #"{"quotes":[{"s":"A"}]}"#))
            ).first
        else {
            Issue.record("an event is not a document")
            return
        }
        #expect(document["quotes"]?.arrayValue?.count == 1)
    }

    @Test("--event names an event by its whole name or, for a Laravel event class, by the class's own name")
    func chosenEvents() throws {
        let chosen = MessageProtocol(mode: .append(keep: 5), chosenEvents: ["PriceUpdated", "news"])
        for name in ["App\\Events\\PriceUpdated", "PriceUpdated", "news"] {
            guard case .prependItem? = chosen.interpret(.text(Self.event(name, data: #"{"a":1}"#))).first else {
                Issue.record("\(name) is not chosen")
                continue
            }
        }
        for name in ["App\\Events\\OrderShipped", "App\\PriceUpdatedLater", "price"] {
            guard case .ignore(_, false)? = chosen.interpret(.text(Self.event(name, data: #"{"a":1}"#))).first else {
                Issue.record("\(name) is chosen")
                continue
            }
        }
    }
}
