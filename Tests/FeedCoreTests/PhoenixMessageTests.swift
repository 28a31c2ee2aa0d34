import Testing

@testable import FeedCore

/// A Phoenix Channels server's messages in either serializer (an Elixir Phoenix app, Supabase
/// Realtime), Supabase's row changes, and what the message protocol makes of each.
@Suite("Phoenix messages")
struct PhoenixMessageTests {
    static let append = MessageProtocol(mode: .append(keep: 5))

    @Test("2.0.0's arrays and 1.0.0's objects; anything else is not Phoenix's")
    func serializers() throws {
        func message(_ text: String) throws -> PhoenixMessage? { PhoenixMessage(try JSONValue(parsing: text)) }
        let array = try #require(try message(#"["3",null,"room:lobby","new_msg",{"body":"hi"}]"#))
        #expect(array.serializer == .array && array.topic == "room:lobby" && array.event == "new_msg")
        #expect(array.meaning == .event(name: "new_msg", value: try JSONValue(parsing: #"{"body":"hi"}"#)))
        let object = try #require(
            try message(#"{"topic":"room:lobby","event":"new_msg","payload":{"body":"hi"},"ref":null,"join_ref":"3"}"#))
        #expect(object.serializer == .object && object.meaning == array.meaning)
        for other in [
            #"[1,null,"room:lobby","new_msg",{}]"#, #"[null,null,"room:lobby","new_msg"]"#,
            #"[null,null,"","new_msg",{}]"#, #"[{"a":1},{"a":2},{"a":3},{"a":4},{"a":5}]"#,
            #"{"topic":"t","event":"e","payload":{},"extra":1}"#, #"{"topic":"t","event":"e"}"#,
            #"{"type":"ticker","product_id":"BTC-USD"}"#,
        ] {
            #expect(try message(other) == nil, "\(other)")
        }
    }

    @Test("replies, refusals, a channel gone, Supabase's broadcasts and system messages")
    func meanings() throws {
        func meaning(_ text: String) throws -> PhoenixMessage.Meaning? {
            PhoenixMessage(try JSONValue(parsing: text))?.meaning
        }
        #expect(try meaning(#"["1","1","room:lobby","phx_reply",{"status":"ok","response":{}}]"#) == .own)
        #expect(try meaning(#"[null,"7","phoenix","phx_reply",{"status":"ok","response":{}}]"#) == .own)
        #expect(
            try meaning(#"["1","1","room:x","phx_reply",{"status":"error","response":{"reason":"unmatched topic"}}]"#)
                == .error("Phoenix: room:x: unmatched topic"))
        #expect(
            try meaning(#"["1",null,"room:lobby","phx_error",{}]"#)
                == .channelEnded("Phoenix: the channel room:lobby failed on the server"))
        #expect(
            try meaning(#"["1",null,"room:lobby","phx_close",{}]"#)
                == .channelEnded("Phoenix: the server closed the channel room:lobby"))
        #expect(
            try meaning(
                #"{"topic":"realtime:a","event":"system","payload":{"status":"ok","message":"Subscribed to PostgreSQL"},"ref":null}"#
            )
                == .own)
        #expect(
            try meaning(
                #"{"topic":"realtime:a","event":"system","payload":{"status":"error","message":"Unable to subscribe"},"ref":null}"#
            )
                == .error("Phoenix: realtime:a: Unable to subscribe"))
        #expect(
            try meaning(
                #"{"topic":"realtime:a","event":"broadcast","payload":{"type":"broadcast","event":"price","payload":{"s":"BTC"}},"ref":null}"#
            )
                == .event(name: "price", value: try JSONValue(parsing: #"{"s":"BTC"}"#)))
    }

    @Test("every message asks for heartbeats in its serializer's form; events are items, presence only when named")
    func reading() throws {
        let joined = Self.append.read(.text(#"["1","1","room:lobby","phx_reply",{"status":"ok","response":{}}]"#))
        #expect(joined.heartbeat?.text == PhoenixMessage.heartbeat(.array))
        #expect(try JSONValue(parsing: PhoenixMessage.heartbeat(.array)).arrayValue?[2] == .string("phoenix"))
        #expect(try JSONValue(parsing: PhoenixMessage.heartbeat(.object))["event"] == .string("heartbeat"))
        guard case .ignore(_, false)? = joined.commands.first else {
            Issue.record("a join's reply is an item: \(joined.commands)")
            return
        }
        let message = Self.append.read(
            .text(#"{"topic":"room:lobby","event":"new_msg","payload":{"body":"hi"},"ref":null}"#))
        #expect(message.heartbeat?.text == PhoenixMessage.heartbeat(.object))
        guard case .prependItem(let item, keep: 5)? = message.commands.first else {
            Issue.record("an event is not an item: \(message.commands)")
            return
        }
        #expect(item == (try JSONValue(parsing: #"{"body":"hi"}"#)))
        let presence = #"["1",null,"room:lobby","presence_diff",{"joins":{},"leaves":{}}]"#
        guard case .ignore(_, false)? = Self.append.interpret(.text(presence)).first else {
            Issue.record("presence is an item")
            return
        }
        guard case .ignore(_, false)? = MessageProtocol(mode: .document).interpret(.text(presence)).first else {
            Issue.record("presence is a document")
            return
        }
        let named = MessageProtocol(mode: .append(keep: 5), chosenEvents: ["presence_diff"])
        guard case .prependItem? = named.interpret(.text(presence)).first else {
            Issue.record("presence named by --event is no item")
            return
        }
        guard case .ignore(_, false)? = named.interpret(.text(#"["1",null,"room:lobby","new_msg",{"a":1}]"#)).first
        else {
            Issue.record("an event --event does not name is an item")
            return
        }
        guard case .endStream? = Self.append.interpret(.text(#"["1",null,"room:lobby","phx_close",{}]"#)).first else {
            Issue.record("a closed channel does not end the connection")
            return
        }
    }

    /// A `postgres_changes` message of Supabase Realtime.
    static func change(_ type: String, record: String, old: String = "{}") -> String {
        #"{"topic":"realtime:public:orders","event":"postgres_changes","payload":{"ids":[1],"data":{"schema":"public","table":"orders","commit_timestamp":"2026-12-05T01:00:00Z","type":"\#(type)","record":\#(record),"old_record":\#(old),"errors":null}},"ref":null}"#
    }

    @Test("Supabase's row changes put rows by their id and take deleted ones out; in document mode, an error")
    func rowChanges() throws {
        guard
            case .putItem(let row, let idAt, keep: 5)? = Self.append.interpret(
                .text(Self.change("INSERT", record: #"{"id":7,"total":10.5}"#))
            ).first
        else {
            Issue.record("an insert is not put")
            return
        }
        #expect(row == (try JSONValue(parsing: #"{"id":7,"total":10.5}"#)) && idAt == SupabaseRowChanges.idPath)
        guard
            case .putItem? = Self.append.interpret(
                .text(Self.change("UPDATE", record: #"{"id":7,"total":11}"#, old: #"{"id":7}"#))
            ).first
        else {
            Issue.record("an update is not put")
            return
        }
        guard
            case .removeItemByID(let id, _)? = Self.append.interpret(
                .text(Self.change("DELETE", record: "{}", old: #"{"id":7}"#))
            ).first
        else {
            Issue.record("a delete does not take the row out")
            return
        }
        #expect(id == .int(7))
        // A row without an id: put first; a delete without one: counted and ignored.
        guard case .prependItem? = Self.append.interpret(.text(Self.change("INSERT", record: #"{"sku":"a"}"#))).first,
            case .ignore(_, true)? = Self.append.interpret(.text(Self.change("DELETE", record: "{}", old: "{}"))).first
        else {
            Issue.record("rows without ids")
            return
        }
        // The older server's events, named by the change, carry its members as the payload.
        let older =
            #"{"topic":"realtime:public:orders","event":"UPDATE","payload":{"type":"UPDATE","table":"orders","schema":"public","record":{"id":3},"old_record":{"id":3}},"ref":null}"#
        guard case .putItem? = Self.append.interpret(.text(older)).first else {
            Issue.record("the older server's change is not put")
            return
        }
        guard
            case .reportError(let problem)? = MessageProtocol(mode: .document).interpret(
                .text(Self.change("INSERT", record: #"{"id":7}"#))
            ).first
        else {
            Issue.record("a row change is a document")
            return
        }
        #expect(problem == SupabaseRowChanges.inDocumentMode)
    }
}
