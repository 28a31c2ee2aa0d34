import Testing

@testable import FeedCore

/// An Action Cable server's messages (a Rails app's `/cable`), and what the message protocol
/// makes of each.
@Suite("Action Cable messages")
struct ActionCableMessageTests {
    static let append = MessageProtocol(mode: .append(keep: 5))
    static let prices = #"{\"channel\":\"PricesChannel\",\"room\":\"nasdaq\"}"#

    @Test("the server's own messages, a refusal, a disconnect and a broadcast; anything else is not Action Cable's")
    func messages() throws {
        func message(_ text: String) throws -> ActionCableMessage? { ActionCableMessage(try JSONValue(parsing: text)) }
        #expect(try message(#"{"type":"welcome"}"#) == .own)
        #expect(try message(#"{"type":"welcome","sid":"abc"}"#) == .own)
        #expect(try message(#"{"type":"ping","message":1733360000}"#) == .own)
        #expect(try message(#"{"identifier":"\#(Self.prices)","type":"confirm_subscription"}"#) == .own)
        #expect(
            try message(#"{"identifier":"\#(Self.prices)","type":"reject_subscription"}"#)
                == .rejected("Action Cable refused the subscription to PricesChannel"))
        #expect(
            try message(#"{"type":"disconnect","reason":"unauthorized","reconnect":false}"#)
                == .disconnected("Action Cable: the server disconnected feedweb: unauthorized"))
        let quote = try JSONValue(parsing: #"{"symbol":"AAPL","price":230.5}"#)
        #expect(
            try message(#"{"identifier":"\#(Self.prices)","message":{"symbol":"AAPL","price":230.5}}"#)
                == .broadcast(channel: "PricesChannel", value: quote))
        for other in [
            #"{"type":"welcome","items":[1]}"#, #"{"type":"ticker","price":1}"#,
            #"{"identifier":"not json","message":{}}"#, #"{"identifier":"{}","message":{},"extra":1}"#,
            #"{"identifier":7,"message":{}}"#,
        ] {
            #expect(try message(other) == nil, "\(other)")
        }
    }

    @Test("a broadcast's message is the item; the server's own no items; a refusal shown; a disconnect ends it")
    func reading() throws {
        guard
            case .prependItem(let item, keep: 5)? = Self.append.interpret(
                .text(#"{"identifier":"\#(Self.prices)","message":{"symbol":"AAPL","price":230.5}}"#)
            ).first
        else {
            Issue.record("a broadcast is not an item")
            return
        }
        #expect(item == (try JSONValue(parsing: #"{"symbol":"AAPL","price":230.5}"#)))
        for own in [#"{"type":"welcome"}"#, #"{"identifier":"\#(Self.prices)","type":"confirm_subscription"}"#] {
            guard case .ignore(_, false)? = Self.append.interpret(.text(own)).first else {
                Issue.record("\(own) is an item")
                continue
            }
        }
        guard
            case .reportError? = Self.append.interpret(
                .text(#"{"identifier":"\#(Self.prices)","type":"reject_subscription"}"#)
            ).first,
            case .endStream? = Self.append.interpret(
                .text(#"{"type":"disconnect","reason":"server_restart","reconnect":true}"#)
            )
            .first
        else {
            Issue.record("a refusal or a disconnect")
            return
        }
        // --event names a channel, or a kind of the message's own.
        let chosen = MessageProtocol(mode: .append(keep: 5), chosenEvents: ["PricesChannel", "trade"])
        let other = #"{\"channel\":\"NewsChannel\"}"#
        guard
            case .prependItem? = chosen.interpret(.text(#"{"identifier":"\#(Self.prices)","message":{"s":"A"}}"#)).first,
            case .prependItem? = chosen.interpret(
                .text(#"{"identifier":"\#(other)","message":{"type":"trade","s":"A"}}"#)
            ).first,
            case .ignore(_, false)? = chosen.interpret(.text(#"{"identifier":"\#(other)","message":{"s":"A"}}"#)).first
        else {
            Issue.record("--event on Action Cable's channels")
            return
        }
    }
}
