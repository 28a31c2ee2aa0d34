import Testing

@testable import FeedCore

/// An ASP.NET Core SignalR hub's records (its JSON protocol), how feedweb knows a hub, and
/// what the message protocol makes of each record.
@Suite("SignalR records")
struct SignalRMessageTests {
    static let append = MessageProtocol(mode: .append(keep: 5), framing: .signalR)
    static let separator = "\u{1E}"

    @Test("a hub is known by the handshake among the messages sent; what is sent is framed as records")
    func framing() {
        let handshake = #"{"protocol":"json","version":1}"#
        #expect(MessageProtocol.Framing.of(url: "ws://127.0.0.1:5000/hubs/prices", sends: [handshake]) == .signalR)
        #expect(
            MessageProtocol.Framing.of(url: "ws://127.0.0.1:5000/hubs/prices", sends: [handshake + Self.separator])
                == .signalR)
        #expect(MessageProtocol.Framing.of(url: "ws://127.0.0.1:5000/hubs/prices") == .plain)
        for other in [
            #"{"protocol":"json"}"#, #"{"protocol":"json","version":1,"x":2}"#, #"{"type":"subscribe"}"#, "x",
        ] {
            #expect(MessageProtocol.Framing.of(url: "ws://h/hub", sends: [other]) == .plain, "\(other)")
        }
        // A Socket.IO URL wins.
        #expect(MessageProtocol.Framing.of(url: "ws://h/socket.io/?EIO=4", sends: [handshake]) == .socketIO)
        #expect(SignalRMessage.framed(handshake) == handshake + Self.separator)
        #expect(SignalRMessage.framed(handshake + Self.separator) == handshake + Self.separator)
    }

    @Test("each record's type: invocations, stream items, completions, pings, closes, the handshake's answer")
    func records() throws {
        func record(_ text: String) throws -> Result<SignalRMessage, SignalRRecordError> {
            SignalRMessage.reading(try JSONValue(parsing: text))
        }
        let price = try JSONValue(parsing: #"{"symbol":"BTC","price":1.5}"#)
        #expect(
            try record(#"{"type":1,"target":"ReceivePrice","arguments":[{"symbol":"BTC","price":1.5}]}"#)
                == .success(.invocation(name: "ReceivePrice", arguments: [price])))
        #expect(
            try record(#"{"type":2,"invocationId":"1","item":{"symbol":"BTC","price":1.5}}"#)
                == .success(.streamItem(price)))
        #expect(try record(#"{"type":3,"invocationId":"1","result":null}"#) == .success(.own))
        #expect(
            try record(#"{"type":3,"invocationId":"1","error":"Method does not exist."}"#)
                == .success(.error("SignalR: an invocation failed: Method does not exist.")))
        #expect(try record(#"{"type":6}"#) == .success(.own))
        #expect(try record("{}") == .success(.own))
        #expect(
            try record(#"{"error":"The protocol 'x' is not supported."}"#)
                == .success(.error("SignalR: the hub refused the handshake: The protocol 'x' is not supported.")))
        #expect(
            try record(#"{"type":7,"error":"Server timeout elapsed.","allowReconnect":true}"#)
                == .success(.close("SignalR: the hub closed the connection: Server timeout elapsed.")))
        #expect(try record(#"{"type":7}"#) == .success(.close("SignalR: the hub closed the connection")))
        #expect(try record("[1]") == .failure(.notAnObject))
        #expect(try record(#"{"a":1}"#) == .failure(.noType))
        #expect(try record(#"{"type":1,"arguments":[]}"#) == .failure(.noTarget))
        #expect(try record(#"{"type":99}"#) == .failure(.unknownType))
    }

    @Test("a message of several records; an invocation's one argument the item; pings asked for every 15 s at most")
    func reading() throws {
        let text =
            #"{"type":1,"target":"ReceivePrice","arguments":[{"symbol":"BTC"}]}"# + Self.separator + #"{"type":6}"#
            + Self.separator + #"{"type":1,"target":"ReceivePrice","arguments":[{"symbol":"ETH"}]}"# + Self.separator
        let reading = Self.append.read(.text(text))
        #expect(reading.heartbeat == .init(text: #"{"type":6}"# + Self.separator, longestInterval: .seconds(15)))
        let symbols = reading.commands.compactMap { command -> String? in
            guard case .prependItem(let item, 5) = command else { return nil }
            return item["symbol"]?.stringValue
        }
        #expect(symbols == ["BTC", "ETH"] && reading.commands.count == 3)
        // Several arguments: one item naming the method; --event names methods.
        guard
            case .prependItem(let both, 5)? = Self.append.interpret(
                .text(#"{"type":1,"target":"Both","arguments":["BTC",2]}"# + Self.separator)
            ).first
        else {
            Issue.record("an invocation of two arguments is no item")
            return
        }
        #expect(both["event"] == .string("Both") && both["arguments"]?.arrayValue?.count == 2)
        let chosen = MessageProtocol(mode: .append(keep: 5), framing: .signalR, chosenEvents: ["ReceivePrice"])
        guard
            case .ignore(_, false)? = chosen.interpret(
                .text(#"{"type":1,"target":"ReceiveNews","arguments":[{"a":1}]}"# + Self.separator)
            ).first,
            case .endStream? = Self.append.interpret(.text(#"{"type":7,"error":"bye"}"# + Self.separator)).first,
            case .reportError? = Self.append.interpret(.text("not json" + Self.separator)).first,
            case .reportError? = Self.append.interpret(.text(Self.separator)).first
        else {
            Issue.record("--event, a close, a broken record, an empty message")
            return
        }
    }
}
