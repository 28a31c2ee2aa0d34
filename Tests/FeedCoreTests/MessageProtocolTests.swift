import Testing

@testable import FeedCore

/// ``MessageProtocol`` without I/O: which whole messages are items, which are heartbeats,
/// and which are a Kubernetes watch's edits.
@Suite("Message protocol")
struct MessageProtocolTests {
    static let append = MessageProtocol(mode: .append(keep: 7))

    static func command(_ text: String) -> UpstreamCommand {
        let commands = append.interpret(.text(text))
        #expect(commands.count == 1, "one message, one command: \(commands)")
        return commands.first ?? .ignore(reason: "none", counted: false)
    }

    static func isItem(_ text: String) -> Bool {
        if case .prependItem(_, keep: 7) = command(text) { return true }
        return false
    }

    static func isQuietlyIgnored(_ text: String) -> Bool {
        if case .ignore(_, counted: false) = command(text) { return true }
        return false
    }

    @Test("a heartbeat is no item; a monitor's heartbeat with a status and a time is its data")
    func heartbeats() {
        #expect(Self.isQuietlyIgnored(#"{"event":"heartbeat"}"#))  // Kraken
        #expect(Self.isQuietlyIgnored(#"{"id":"k1","time":2,"event":"keepalive","topic":"alerts"}"#))  // ntfy
        #expect(Self.isQuietlyIgnored(#"{"id":"o1","time":1,"event":"open","topic":"alerts"}"#))  // ntfy
        #expect(Self.isQuietlyIgnored(#"{"type":"Keep-Alive"}"#))
        #expect(Self.isItem(#"{"type":"heartbeat","monitorID":1,"status":1,"msg":"OK","ping":23}"#))
        #expect(Self.isItem(#"{"event":"open","door":"front"}"#), "an open without a topic is not ntfy's")
        #expect(Self.isItem(#"{"type":"ping","host":"db-1","ms":12}"#))
        #expect(Self.isQuietlyIgnored(#"{"channel":"heartbeat"}"#))  // Kraken v2
        // Coinbase's heartbeat channel: a product's, but no ticker.
        #expect(
            Self.isQuietlyIgnored(
                #"{"type":"heartbeat","sequence":90,"last_trade_id":20,"product_id":"BTC-USD","time":"2026-12-04T11:00:00Z"}"#
            ))
        #expect(Self.isQuietlyIgnored(#"{"type":"ping"}"#))  // Finnhub
        #expect(Self.isQuietlyIgnored(#"{"op":"pong","ts":1}"#))
        // In document mode a heartbeat would blank the page: it is no document either.
        let document = MessageProtocol(mode: .document).interpret(.text(#"{"type":"ping"}"#)).first
        guard case .ignore(_, counted: false) = document else {
            Issue.record("document mode: \(document)")
            return
        }
        let state = MessageProtocol(mode: .document).interpret(.text(#"{"type":"ping","hosts":[{"a":1}]}"#)).first
        guard case .replaceDocument = state else {
            Issue.record("document mode, a document that says ping: \(state)")
            return
        }
    }

    @Test("a market feed's envelope of items: each item of its data, in order; its status no item")
    func carriedItems() {
        func items(_ text: String) -> [JSONValue]? {
            let commands = Self.append.interpret(.text(text))
            var items: [JSONValue] = []
            for command in commands {
                guard case .prependItem(let item, 7) = command else { return nil }
                items.append(item)
            }
            return items
        }
        let kraken =
            #"{"channel":"ticker","type":"snapshot","data":[{"symbol":"BTC/USD","last":43000.1},{"symbol":"ETH/USD","last":2200}]}"#
        #expect(items(kraken)?.compactMap { $0["symbol"]?.stringValue } == ["BTC/USD", "ETH/USD"])
        let okx = #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","last":"43000.1"}]}"#
        #expect(items(okx)?.first?["instId"] == .string("BTC-USDT"))
        let bitmex = #"{"table":"trade","action":"insert","data":[{"symbol":"XBTUSD","price":43000,"size":10}]}"#
        #expect(items(bitmex)?.count == 1)
        let binance = #"[{"e":"24hrTicker","s":"BTCUSDT","c":"43000.1"},{"e":"24hrTicker","s":"ETHUSDT","c":"2200"}]"#
        #expect(items(binance)?.compactMap { $0["s"]?.stringValue } == ["BTCUSDT", "ETHUSDT"])
        #expect(items("[1,2]")?.count == 1, "a list of numbers: one item")
        // Kraken's status on connecting is no item.
        let status = Self.append.interpret(
            .text(#"{"channel":"status","type":"update","data":[{"api_version":"v2","system":"online"}]}"#))
        guard case .ignore(_, counted: false)? = status.first, status.count == 1 else {
            Issue.record("the feed's status: \(status)")
            return
        }
        // An item with a data list of its own among other members is one item.
        #expect(items(#"{"sensor":"t1","data":[{"t":1,"v":2}]}"#)?.count == 1)
        #expect(items(#"{"channel":"x","data":[{"t":1},{"t":2}],"meta":{"a":1}}"#)?.count == 1)
        #expect(items(#"{"channel":"x","data":[1,2]}"#)?.count == 1, "data of numbers: one item")
        // In document mode a message is one document, whatever it carries.
        #expect(MessageProtocol(mode: .document).interpret(.text(kraken)).count == 1)
    }

    @Test("GraphQL over a WebSocket (graphql-transport-ws): a result's data the document, its errors said")
    func graphQLOverWebSocket() throws {
        let document = MessageProtocol(mode: .document)
        func command(_ text: String) -> UpstreamCommand? {
            let commands = document.interpret(.text(text))
            return commands.count == 1 ? commands.first : nil
        }
        let orders = #"{"orders":[{"id":1,"status":"paid"}]}"#
        guard case .replaceDocument(let data)? = command(#"{"id":"1","type":"next","payload":{"data":\#(orders)}}"#)
        else {
            Issue.record("a result is not the document")
            return
        }
        #expect(data == (try JSONValue(parsing: orders)))
        // subscriptions-transport-ws's `data`, the same.
        guard case .replaceDocument? = command(#"{"id":"1","type":"data","payload":{"data":\#(orders)}}"#) else {
            Issue.record("the older protocol's data is not the document")
            return
        }
        for quiet in [#"{"type":"connection_ack"}"#, #"{"type":"ka"}"#, #"{"id":"1","type":"complete"}"#] {
            guard case .ignore(_, counted: false)? = command(quiet) else {
                Issue.record("\(quiet) not ignored quietly")
                continue
            }
        }
        guard
            case .reportError(let message)? = command(
                #"{"id":"1","type":"error","payload":[{"message":"Cannot query field \"x\""}]}"#)
        else {
            Issue.record("an error not reported")
            return
        }
        #expect(message == #"GraphQL: Cannot query field "x""#)
        // In append mode its own messages are no items.
        #expect(Self.isQuietlyIgnored(#"{"type":"connection_ack"}"#))
    }

    @Test("an answer to a subscription is no item: the market feeds' own words for it")
    func subscriptionAnswers() {
        let answers = [
            #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD"]}]}"#,  // Coinbase
            #"{"method":"subscribe","result":{"channel":"ticker","symbol":"BTC/USD"},"success":true}"#,  // Kraken v2
            #"{"event":"subscriptionStatus","status":"subscribed","pair":"XBT/USD"}"#,  // Kraken v1
            #"{"event":"subscribe","arg":{"channel":"tickers","instId":"BTC-USDT"}}"#,  // OKX
            #"{"success":true,"ret_msg":"","op":"subscribe","conn_id":"c1"}"#,  // Bybit
            #"{"event":"bts:subscription_succeeded","channel":"live_trades_btcusd","data":{}}"#,  // Bitstamp
            #"{"result":null,"id":1}"#,  // Binance
            #"[{"T":"success","msg":"connected"}]"#,  // Alpaca, in a list
            #"[{"T":"subscription","trades":["AAPL"],"quotes":[]}]"#,  // Alpaca
            #"[{"ev":"status","status":"connected","message":"Connected Successfully"}]"#,  // Polygon
            // Deribit
            #"{"jsonrpc":"2.0","id":42,"result":["ticker.BTC-PERPETUAL.100ms"],"usIn":1,"usOut":2,"usDiff":1}"#,
        ]
        for answer in answers {
            #expect(Self.isQuietlyIgnored(answer), "\(answer)")
        }
        // Data that has an id and a result among other members, or a type of its own, is data.
        #expect(Self.isItem(#"{"id":7,"result":"passed","job":"build"}"#))
        #expect(Self.isItem(#"{"type":"ticker","product_id":"BTC-USD","price":"43000.12"}"#))
        #expect(Self.isItem(#"{"type":"status","state":"success","sha":"abc","context":"ci/build"}"#))
        // An error in answer is upstream's error, in a list or not, never quiet.
        guard case .reportError(let alpaca) = Self.command(#"[{"T":"error","code":402,"msg":"auth failed"}]"#),
            case .reportError(let polygon) = Self.command(
                #"{"ev":"status","status":"auth_failed","message":"authentication failed"}"#)
        else {
            Issue.record("an exchange's error not reported")
            return
        }
        #expect(alpaca == "402: auth failed" && polygon == "authentication failed")
        // A list of an answer and data: the data.
        let mixed = Self.append.interpret(
            .text(#"[{"T":"success","msg":"authenticated"},{"T":"t","S":"AAPL","p":190.5}]"#))
        guard mixed.count == 1, case .prependItem(let trade, 7)? = mixed.first else {
            Issue.record("the trade of a mixed list: \(mixed)")
            return
        }
        #expect(trade["S"] == .string("AAPL"))
    }

    @Test("a Kubernetes watch's events: put, remove by uid, bookmark ignored, error shown")
    func kubernetesWatch() throws {
        let pod = #"{"kind":"Pod","metadata":{"name":"web-1","uid":"u1"},"status":{"phase":"Running"}}"#
        let uid = try JSONPointer("/metadata/uid")
        for type in ["ADDED", "MODIFIED"] {
            guard case .putItem(let item, let idPath, let keep) = Self.command(#"{"type":"\#(type)","object":\#(pod)}"#)
            else {
                Issue.record("\(type) is not a put")
                continue
            }
            #expect(item == (try JSONValue(parsing: pod)))
            #expect(idPath == uid && keep == 7)
        }
        guard case .removeItemByID(let id, let idPath) = Self.command(#"{"type":"DELETED","object":\#(pod)}"#) else {
            Issue.record("DELETED is not a removal")
            return
        }
        #expect(id == .string("u1") && idPath == uid)
        #expect(Self.isQuietlyIgnored(#"{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}"#))
        guard
            case .reportError(let message) = Self.command(
                #"{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired","message":"too old"}}"#)
        else {
            Issue.record("ERROR is not reported")
            return
        }
        #expect(message == "410 Expired: too old")
        guard case .ignore(_, counted: true) = Self.command(#"{"type":"DELETED","object":{"kind":"Pod"}}"#) else {
            Issue.record("a DELETED without a uid is not counted as ignored")
            return
        }
        // Not a watch event: a third member, an object that is not one, another type.
        #expect(Self.isItem(#"{"type":"ADDED","object":\#(pod),"extra":1}"#))
        #expect(Self.isItem(#"{"type":"ADDED","object":"web-1"}"#))
        #expect(Self.isItem(#"{"type":"CREATED","object":\#(pod)}"#))
        // In document mode a watch's event is no document: the error says how to read it.
        let document = MessageProtocol(mode: .document).interpret(.text(#"{"type":"ADDED","object":\#(pod)}"#)).first
        guard case .reportError(let advice) = document else {
            Issue.record("a watch event in document mode: \(document)")
            return
        }
        #expect(advice.contains("--mode append"))
    }

    @Test("Home Assistant's WebSocket API: a state put by its entity, a removed one taken out, its handshake no item")
    func homeAssistant() throws {
        let state =
            #"{"entity_id":"sensor.kitchen","state":"21.5","attributes":{"unit_of_measurement":"°C","#
            + #""friendly_name":"Kitchen"},"last_changed":"2026-12-04T14:00:00+00:00"}"#
        func changed(_ new: String) -> String {
            #"{"id":2,"type":"event","event":{"event_type":"state_changed","data":{"entity_id":"sensor.kitchen","#
                + #""old_state":null,"new_state":\#(new)},"origin":"LOCAL","time_fired":"2026-12-04T14:00:00+00:00"}}"#
        }
        let entity = try JSONPointer("/entity_id")
        guard case .putItem(let item, let idPath, let keep) = Self.command(changed(state)) else {
            Issue.record("a state_changed event is not a put")
            return
        }
        #expect(item == (try JSONValue(parsing: state)) && idPath == entity && keep == 7)
        guard case .removeItemByID(let id, let removedAt) = Self.command(changed("null")) else {
            Issue.record("a removed entity is not taken out")
            return
        }
        #expect(id == .string("sensor.kitchen") && removedAt == entity)
        // Another event: the event itself, first.
        let fired = #"{"event_type":"call_service","data":{"domain":"light"},"time_fired":"2026-12-04T14:00:01Z"}"#
        guard case .prependItem(let event, keep: 7) = Self.command(#"{"id":2,"type":"event","event":\#(fired)}"#) else {
            Issue.record("another event is not an item")
            return
        }
        #expect(event == (try JSONValue(parsing: fired)))
        // The handshake and the answers: no items; a refusal and a failed request: upstream's errors.
        #expect(Self.isQuietlyIgnored(#"{"type":"auth_required","ha_version":"2026.11.3"}"#))
        #expect(Self.isQuietlyIgnored(#"{"type":"auth_ok","ha_version":"2026.11.3"}"#))
        #expect(Self.isQuietlyIgnored(#"{"id":2,"type":"result","success":true,"result":null}"#))
        let refused = Self.command(#"{"type":"auth_invalid","message":"Invalid access token or password"}"#)
        guard case .reportError("auth_invalid: Invalid access token or password") = refused else {
            Issue.record("auth_invalid: \(refused)")
            return
        }
        let failed = Self.command(
            #"{"id":3,"type":"result","success":false,"error":{"code":"unknown_command","message":"Unknown command."}}"#
        )
        guard case .reportError("result 3: unknown_command: Unknown command.") = failed else {
            Issue.record("a failed request: \(failed)")
            return
        }
        // Upstream's words on one line, as every upstream error is shown.
        let twoLines = Self.command(#"{"type":"auth_invalid","message":"Invalid token\nor password"}"#)
        guard case .reportError("auth_invalid: Invalid token or password") = twoLines else {
            Issue.record("a refusal of two lines: \(twoLines)")
            return
        }
        // `get_states`' answer: each state put in place by its entity, the last first, so
        // that each put first leaves them in Home Assistant's order.
        let all = Self.append.interpret(
            .text(
                #"{"id":1,"type":"result","success":true,"result":[\#(state),"#
                    + #"{"entity_id":"light.hall","state":"on","attributes":{}}]}"#))
        let entities = all.compactMap { command -> String? in
            guard case .putItem(let item, entity, 7) = command else { return nil }
            return item["entity_id"]?.stringValue
        }
        #expect(entities == ["light.hall", "sensor.kitchen"] && all.count == 2, "\(all)")
        // Not Home Assistant's: an event without the request's id, a result without success.
        #expect(Self.isItem(#"{"type":"event","event":\#(fired)}"#))
        #expect(Self.isItem(#"{"id":1,"type":"result","value":3}"#))
        // Nor a feed's own item that says it is an event, among members of its own.
        let concert = #"{"id":7,"type":"event","event":{"event_type":"concert"},"venue":"Hall"}"#
        guard case .prependItem(let own, keep: 7) = Self.command(concert) else {
            Issue.record("a concert is not an item")
            return
        }
        #expect(own == (try JSONValue(parsing: concert)), "the whole item, not its inner event")
        #expect(Self.isItem(#"{"id":7,"type":"event","event":{"name":"Concert"}}"#), "no event_type: the whole item")
        // In document mode its events are no documents: the error says how to read them.
        let document = MessageProtocol(mode: .document).interpret(.text(changed(state))).first
        guard case .reportError(let advice) = document else {
            Issue.record("a state_changed event in document mode: \(String(describing: document))")
            return
        }
        #expect(advice.contains("--mode append"))
    }

    @Test("CouchDB's changes: a document put by its _id, a row by its id, a deletion, the last line ignored")
    func couchChanges() throws {
        let doc = #"{"_id":"doc-7","_rev":"2-b","name":"Ada"}"#
        let (documentID, rowID) = (try JSONPointer("/_id"), try JSONPointer("/id"))
        guard
            case .putItem(let item, let idPath, 7) = Self.command(
                #"{"seq":"2-g1A","id":"doc-7","changes":[{"rev":"2-b"}],"doc":\#(doc)}"#)
        else {
            Issue.record("a change with its doc is not a put")
            return
        }
        let document = try JSONValue(parsing: doc)
        #expect(item == document && idPath == documentID)
        let row = #"{"seq":3,"id":"doc-8","changes":[{"rev":"1-a"}]}"#
        guard case .putItem(let rowItem, let rowPath, 7) = Self.command(row) else {
            Issue.record("a change without its doc is not a put")
            return
        }
        let rowValue = try JSONValue(parsing: row)
        #expect(rowItem == rowValue && rowPath == rowID)
        guard
            case .removeItemByID(let id, let deletedPath) = Self.command(
                #"{"seq":4,"id":"doc-7","changes":[{"rev":"3-c"}],"deleted":true,"doc":{"_id":"doc-7","_deleted":true}}"#
            )
        else {
            Issue.record("a deletion is not a removal")
            return
        }
        #expect(id == .string("doc-7") && deletedPath == documentID)
        #expect(Self.isQuietlyIgnored(#"{"last_seq":"9-g1A","pending":0}"#))
        // Not a change: no list of changes.
        #expect(Self.isItem(#"{"seq":5,"id":"doc-9"}"#))
        // Over SSE (`feed=eventsource`), the same.
        var append = AppendProtocol(keep: 7)
        let overSSE = append.interpret(SSEEvent(data: row))
        guard case .putItem(_, _, 7) = overSSE else {
            Issue.record("a change over SSE: \(overSSE)")
            return
        }
    }

    @Test(
        "--event over JSON messages: their type, event, channel, e, ev or T names their kind; an envelope's or data's too"
    )
    func chosenKinds() throws {
        let ticker = MessageProtocol(mode: .append(keep: 5), chosenEvents: ["ticker", "trade"])
        func first(_ text: String) -> UpstreamCommand? { ticker.interpret(.text(text)).first }
        for text in [
            #"{"type":"ticker","product_id":"BTC-USD","price":"43000.1"}"#,  // Coinbase
            #"{"e":"trade","s":"BTCUSDT","p":"43000.10"}"#,  // Binance
            #"{"stream":"btcusdt@trade","data":{"e":"trade","s":"BTCUSDT"}}"#,  // Binance's combined stream
            #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","last":43000.1}]}"#,  // Kraken v2
        ] {
            guard case .prependItem? = first(text) else {
                Issue.record("\(text) is no item: \(String(describing: first(text)))")
                continue
            }
        }
        for text in [
            #"{"type":"l2update","product_id":"BTC-USD","changes":[]}"#, #"{"e":"24hrTicker","s":"BTCUSDT"}"#,
            #"{"symbol":"BTC","price":1}"#, #"[{"ev":"Q","sym":"AAPL"}]"#,
        ] {
            guard case .ignore(let reason, false)? = first(text) else {
                Issue.record("\(text) is read: \(String(describing: first(text)))")
                continue
            }
            #expect(reason.contains("--event"), "\(reason)")
        }
        // Bybit's topic, by its first part; OKX's arg.
        let tickers = MessageProtocol(mode: .append(keep: 5), chosenEvents: ["tickers"])
        for text in [
            #"{"topic":"tickers.BTCUSDT","type":"snapshot","ts":1,"data":{"symbol":"BTCUSDT","lastPrice":"1"}}"#,
            #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT","last":"1"}]}"#,
        ] {
            guard case .prependItem? = tickers.interpret(.text(text)).first else {
                Issue.record("\(text) is no item: \(tickers.interpret(.text(text)))")
                continue
            }
        }
        guard
            case .ignore(_, false)? = tickers.interpret(
                .text(#"{"topic":"orderbook.50.BTCUSDT","type":"delta","ts":1,"data":{"s":"BTCUSDT"}}"#)
            ).first
        else {
            Issue.record("Bybit's order book is chosen")
            return
        }
        #expect(MessageProtocol.kinds(of: try JSONValue(parsing: #"{"T":"t","S":"AAPL"}"#)) == ["t"])
        #expect(
            MessageProtocol.kinds(of: try JSONValue(parsing: #"{"topic":"tickers.BTCUSDT","type":"delta"}"#))
                == ["delta", "tickers.BTCUSDT", "tickers"])
        #expect(MessageProtocol.kinds(of: try JSONValue(parsing: #"{"topic":".hidden"}"#)) == [".hidden"])
        #expect(MessageProtocol.kinds(of: try JSONValue(parsing: #"{"price":1}"#)).isEmpty)
        #expect(
            MessageProtocol.kinds(of: try JSONValue(parsing: #"{"event":"trade","channel":"live_trades_btcusd"}"#))
                == ["trade", "live_trades_btcusd"])
        // A Kubernetes watch's events are edits, whatever --event says.
        let watch = #"{"type":"ADDED","object":{"kind":"Pod","metadata":{"uid":"u1","resourceVersion":"1"}}}"#
        guard case .putItem? = first(watch) else {
            Issue.record("a watch event was filtered")
            return
        }
    }

    @Test("JSON-RPC notifications are read as what they carry: an Ethereum node's heads, Deribit's tickers")
    func notifications() throws {
        let append = MessageProtocol(mode: .append(keep: 5))
        let head =
            #"{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x9ce5","result":{"number":"0x1b4","hash":"0xdc0818"}}}"#
        guard case .prependItem(let block, 5)? = append.interpret(.text(head)).first else {
            Issue.record("a new head is no item: \(append.interpret(.text(head)))")
            return
        }
        #expect(block == (try JSONValue(parsing: #"{"number":"0x1b4","hash":"0xdc0818"}"#)))
        // The subscription's answer is no item.
        guard case .ignore(_, false)? = append.interpret(.text(#"{"jsonrpc":"2.0","id":1,"result":"0x9ce5"}"#)).first
        else {
            Issue.record("the answer to eth_subscribe is an item")
            return
        }
        func ticker(_ instrument: String) -> String {
            #"{"jsonrpc":"2.0","method":"subscription","params":{"channel":"ticker.\#(instrument).100ms","data":{"instrument_name":"\#(instrument)","last_price":1.5}}}"#
        }
        let trades =
            #"{"jsonrpc":"2.0","method":"subscription","params":{"channel":"trades.BTC-PERPETUAL.raw","data":[{"trade_id":"1"},{"trade_id":"2"}]}}"#
        #expect(append.interpret(.text(trades)).count == 2, "a list of trades, one item each")
        // --event names a channel whole or by its first part, or the method.
        let chosen = MessageProtocol(mode: .append(keep: 5), chosenEvents: ["ticker"])
        guard case .prependItem(let item, 5)? = chosen.interpret(.text(ticker("BTC-PERPETUAL"))).first,
            case .ignore(_, false)? = chosen.interpret(.text(trades)).first,
            case .prependItem? = MessageProtocol(mode: .append(keep: 5), chosenEvents: ["eth_subscription"])
                .interpret(.text(head)).first
        else {
            Issue.record("--event on notifications")
            return
        }
        #expect(item["instrument_name"] == .string("BTC-PERPETUAL"))
        // A request (with an id) is no notification; nor is a message without params.
        for other in [
            #"{"jsonrpc":"2.0","id":3,"method":"subscription","params":{"data":{}}}"#,
            #"{"jsonrpc":"2.0","method":"heartbeat"}"#, #"{"jsonrpc":"1.0","method":"m","params":{"a":1}}"#,
        ] {
            #expect(JSONRPCNotification(try JSONValue(parsing: other)) == nil, "\(other)")
        }
        #expect(
            JSONRPCNotification(try JSONValue(parsing: ticker("ETH-PERPETUAL")))?.kinds
                == ["subscription", "ticker.ETH-PERPETUAL.100ms"])
    }
}
