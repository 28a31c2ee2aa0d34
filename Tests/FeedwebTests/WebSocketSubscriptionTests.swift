import FeedCore
import Foundation
import TestSupport
import Testing

/// A market feed over a WebSocket that sends nothing until it is asked (`--send`), through
/// the real binary against a real WebSocket server: the subscription goes out on every
/// connection, the feed's answer to it and its heartbeats are no items, and a ticker keyed
/// by its product (`--key-path`) is one row per product.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct WebSocketSubscriptionTests {
    static let subscribe = #"{"type":"subscribe","product_ids":["BTC-USD","ETH-USD"],"channels":["ticker"]}"#

    /// A ticker message as Coinbase's feed writes one.
    static func ticker(_ sequence: Int, _ product: String, price: Double) -> ScriptedWebSocketServer.Action {
        .text(
            JSONValue.object([
                "type": .string("ticker"), "sequence": .int(Int64(sequence)), "product_id": .string(product),
                "price": .string(String(format: "%.2f", price)), "volume_24h": .string("1234.5"),
                "time": .string("2026-12-04T11:00:0\(sequence % 10).000000Z"),
            ]).serializedString())
    }

    @Test("the subscription on every connection; its answer and heartbeats are no items; a row per product")
    func tickerBoard() async throws {
        let answer = ScriptedWebSocketServer.Action.text(
            #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD","ETH-USD"]}]}"#)
        let first: [ScriptedWebSocketServer.Action] = [
            answer, Self.ticker(1, "BTC-USD", price: 43_000.5), Self.ticker(2, "ETH-USD", price: 2_200.25),
            .text(#"{"type":"heartbeat"}"#), Self.ticker(3, "BTC-USD", price: 43_010.75),
            Self.ticker(4, "<b>X</b>-USD", price: 1), .pause(.milliseconds(300)), .drop,
        ]
        let server = try await ScriptedWebSocketServer.start(
            script: first, then: [answer, Self.ticker(5, "ETH-USD", price: 2_300)])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            // The test server starts its script at the first ping.
            "--upstream", server.url("/"), "--mode", "append", "--key-path", "/product_id", "--read-timeout", "0.5",
            "--send", Self.subscribe, "--send", #"{"type":"ping-me-too"}"#, "--sort", "product_id",
        ])
        defer { feedweb.kill() }
        try await Eventually.check("the second connection's ticker", within: 20) {
            let items = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/items").body)
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return items.arrayValue?.count == 3 && page.contains("2,300.00")
        }
        let connections = server.connections
        #expect(connections.count >= 2, "a reconnect")
        for connection in connections {
            #expect(
                connection.textsReceived == [Self.subscribe, #"{"type":"ping-me-too"}"#], "sent in order, each time")
        }
        // Three products, each once: BTC's newest price, not its first; no row of the answer.
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("43,010.75") && !page.contains("43,000.50"), "the newest BTC price only")
        #expect(!page.contains("subscriptions") && !page.contains("heartbeat"))
        #expect(page.contains("&lt;b&gt;X&lt;/b&gt;-USD") && !page.contains("<b>X</b>"))
        // The kiosk's tiles in the order --sort gives the table, not the newest first.
        func keys(_ html: String) -> [String] { html.matches(of: /id="item-([^"]+)"/).map { String($0.output.1) } }
        let kiosk = keys(try await HTTPTestClient.get(port: feedweb.port, "/kiosk").text)
        #expect(kiosk.count == 3 && kiosk == keys(page), "tiles \(kiosk), rows \(keys(page))")
        #expect(kiosk.first != "ETH-USD", "not the newest first")
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0), "the answer and the heartbeat are not counted")
        // The subscription is never logged: it may hold a key.
        #expect(!(feedweb.log + feedweb.standardOutput).contains("product_ids"), "the log names no sent message")
    }

    @Test("Kraken's envelopes: its status no item, a snapshot's and an update's tickers each an item, a row a symbol")
    func krakenEnvelopes() async throws {
        func tickers(_ type: String, _ pairs: [(String, Double)]) -> ScriptedWebSocketServer.Action {
            .text(
                JSONValue.object([
                    "channel": .string("ticker"), "type": .string(type),
                    "data": .array(
                        pairs.map { symbol, last in
                            .object([
                                "symbol": .string(symbol), "last": .double(last), "bid": .double(last - 0.5),
                                "volume": .double(1234.5),
                            ])
                        }),
                ]).serializedString())
        }
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(#"{"channel":"status","type":"update","data":[{"api_version":"v2","system":"online"}]}"#),
            .text(#"{"method":"subscribe","result":{"channel":"ticker","symbol":"BTC/USD"},"success":true}"#),
            tickers("snapshot", [("BTC/USD", 43_000.25), ("ETH/USD", 2_200.5), ("SOL/USD", 95.75)]),
            .text(#"{"channel":"heartbeat"}"#), tickers("update", [("BTC/USD", 43_100.75)]),
        ])
        defer { server.shutdownNow() }
        let subscribe =
            #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","ETH/USD","SOL/USD"]}}"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/v2"), "--mode", "append", "--read-timeout", "0.5", "--send", subscribe,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("BTC's update in the table", within: 20) {
            try await HTTPTestClient.get(port: feedweb.port, "/").text.contains("43,100.75")
        }
        let items = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/items").body)
        #expect(items.arrayValue?.count == 3, "a row a symbol: \(items)")
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(!page.contains("43,000.25") && !page.contains("online") && !page.contains("api_version"))
        #expect(server.connections.first?.textsReceived == [subscribe])
    }

    @Test(
        "a GraphQL subscription over a WebSocket: its subprotocol, its init and subscribe sent, its data the document")
    func graphQLSubscription() async throws {
        func orders(_ status: String) -> ScriptedWebSocketServer.Action {
            .text(
                JSONValue.object([
                    "id": .string("1"), "type": .string("next"),
                    "payload": .object([
                        "data": .object([
                            "orders": .array(
                                (1...3).map { n in
                                    .object([
                                        "id": .int(Int64(n)), "status": .string(n == 2 ? status : "paid"),
                                        "total": .double(Double(n) * 10.5),
                                    ])
                                })
                        ])
                    ]),
                ]).serializedString())
        }
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(#"{"type":"connection_ack"}"#), orders("new"), .text(#"{"type":"ping"}"#), orders("shipped"),
        ])
        defer { server.shutdownNow() }
        let subscribe =
            #"{"id":"1","type":"subscribe","payload":{"query":"subscription { orders { id status total } }"}}"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/v1/graphql"), "--header", "Sec-WebSocket-Protocol: graphql-transport-ws",
            "--read-timeout", "0.5", "--send", #"{"type":"connection_init"}"#, "--send", subscribe,
        ])
        defer { feedweb.kill() }
        func state() async throws -> JSONValue? {
            let response = try await HTTPTestClient.get(port: feedweb.port, "/api/state", timeout: 3)
            return response.status == 200 ? try JSONValue(parsing: response.body) : nil
        }
        try await Eventually.check("order 2 shipped, the result's data the document", within: 20) {
            let orders = try await state()?["orders"]?.arrayValue ?? []
            return orders.count == 3 && orders[1]["status"] == .string("shipped")
        }
        let document = try #require(try await state())
        #expect(document["payload"] == nil && document["type"] == nil, "no envelope in the document")
        let handshake = try #require(server.connections.first?.handshake)
        #expect(handshake.header("Sec-WebSocket-Protocol") == "graphql-transport-ws")
        #expect(server.connections.first?.textsReceived == [#"{"type":"connection_init"}"#, subscribe])
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0) && ready["upstream"]?["upstream_errors"] == .int(0))
    }

    @Test("Home Assistant: every state from get_states, each change in its entity's place, a removed one gone")
    func homeAssistant() async throws {
        func state(_ entity: String, _ value: String, name: String, unit: String? = nil) -> JSONValue {
            var attributes: JSONObject = ["friendly_name": .string(name)]
            if let unit { attributes["unit_of_measurement"] = .string(unit) }
            return .object([
                "entity_id": .string(entity), "state": .string(value), "attributes": .object(attributes),
                "last_changed": .string("2026-12-04T14:00:00+00:00"),
            ])
        }
        func changed(_ entity: String, to new: JSONValue) -> ScriptedWebSocketServer.Action {
            let data: JSONValue = .object(["entity_id": .string(entity), "old_state": .null, "new_state": new])
            return .text(
                JSONValue.object([
                    "id": .int(2), "type": .string("event"),
                    "event": .object([
                        "event_type": .string("state_changed"), "data": data, "origin": .string("LOCAL"),
                        "time_fired": .string("2026-12-04T14:00:01+00:00"),
                    ]),
                ]).serializedString())
        }
        let states: [JSONValue] = [
            state("sensor.kitchen", "21.5", name: "Kitchen", unit: "°C"),
            state("light.hall", "on", name: "Hall <script>x</script>"),
            state("switch.kettle", "off", name: "Kettle"),
        ]
        let script: [ScriptedWebSocketServer.Action] = [
            .text(#"{"type":"auth_required","ha_version":"2026.11.3"}"#),
            .text(#"{"type":"auth_ok","ha_version":"2026.11.3"}"#),
            .text(
                JSONValue.object([
                    "id": .int(1), "type": .string("result"), "success": .bool(true), "result": .array(states),
                ]).serializedString()),
            .text(#"{"id":2,"type":"result","success":true,"result":null}"#),
            changed("sensor.kitchen", to: state("sensor.kitchen", "22.5", name: "Kitchen", unit: "°C")),
            changed("switch.kettle", to: .null),
            changed("sensor.kitchen", to: state("sensor.kitchen", "23.5", name: "Kitchen", unit: "°C")),
        ]
        let server = try await ScriptedWebSocketServer.start(script: script)
        defer { server.shutdownNow() }
        let sends = [
            #"{"type":"auth","access_token":"secret-token"}"#, #"{"id":1,"type":"get_states"}"#,
            #"{"id":2,"type":"subscribe_events","event_type":"state_changed"}"#,
        ]
        let feedweb = try await FeedwebProcess(
            arguments: [
                "--upstream", server.url("/api/websocket"), "--mode", "append", "--read-timeout", "0.5",
            ] + sends.flatMap { ["--send", $0] })
        defer { feedweb.kill() }
        func entities() async throws -> [JSONValue] {
            let state = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
            return state["items"]?.arrayValue ?? []
        }
        try await Eventually.check("the kitchen at 23.5, the kettle gone") {
            let now = try await entities()
            return now.count == 2 && now.contains { $0["state"] == .string("23.5") }
        }
        // get_states' entities in Home Assistant's order; the kitchen's changes in its place,
        // not first.
        let now = try await entities()
        #expect(now.compactMap { $0["entity_id"]?.stringValue } == ["sensor.kitchen", "light.hall"], "\(now)")
        #expect(server.connections.first?.textsReceived == sends, "auth, get_states, subscribe_events, in order")
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("Kitchen") && page.contains("23.5"))
        #expect(page.contains("Hall &lt;script&gt;x&lt;/script&gt;") && !page.contains("<script>x"))
        #expect(!page.contains("auth_ok") && !feedweb.log.contains("secret-token"))
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0) && ready["upstream"]?["upstream_errors"] == .int(0))
    }

    @Test("Home Assistant refusing the token: its words on the badge, no item")
    func homeAssistantRefuses() async throws {
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(#"{"type":"auth_required","ha_version":"2026.11.3"}"#),
            .text(#"{"type":"auth_invalid","message":"Invalid <b>access token</b> or password"}"#),
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/api/websocket"), "--mode", "append", "--read-timeout", "0.5",
            "--send", #"{"type":"auth","access_token":"wrong"}"#,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("the refusal said") {
            let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
            return ready["upstream"]?["last_upstream_error"]?.stringValue?.contains("auth_invalid") == true
        }
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(
            page.contains("upstream said: auth_invalid: Invalid &lt;b&gt;access token&lt;/b&gt; or password"),
            "says why")
        #expect(page.contains("badge-failing") && !page.contains("<b>access"))
    }

    @Test("a Socket.IO server: its namespace joined first, each ping answered, each event's argument an item")
    func socketIO() async throws {
        func tick(_ symbol: String, _ price: Double) -> ScriptedWebSocketServer.Action {
            .text(
                "42"
                    + JSONValue.array([
                        .string("tick"), .object(["symbol": .string(symbol), "price": .double(price)]),
                    ]).serializedString())
        }
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(#"0{"sid":"Lbo5JLzTotvW3g2LAAAA","upgrades":[],"pingInterval":25000,"pingTimeout":20000}"#),
            .text(#"40{"sid":"bDfJFxgOaVJZeQ9FAAAB"}"#), .text("2"), tick("BTC", 43_000.5),
            tick("<b>ETH</b>", 2_200.25),
            .text(#"42["ping","keepalive"]"#), .text("2"), tick("BTC", 43_010.75),
        ])
        defer { server.shutdownNow() }
        let subscribe = #"42["subscribe",{"channels":["ticks"]}]"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/socket.io/?EIO=4&transport=websocket"), "--mode", "append",
            "--key-path", "/symbol", "--read-timeout", "0.5", "--send", subscribe,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("BTC's second tick") {
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return page.contains("43,010.75")
        }
        let items = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
        #expect(items["items"]?.arrayValue?.compactMap { $0["symbol"]?.stringValue } == ["<b>ETH</b>", "BTC"])
        try await Eventually.check("both pings answered") { server.connections.first?.textsReceived.count == 4 }
        #expect(server.connections.first?.textsReceived == ["40", subscribe, "3", "3"], "joined, asked, answered")
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("&lt;b&gt;ETH&lt;/b&gt;") && !page.contains("<b>ETH"))
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0) && ready["upstream"]?["upstream_errors"] == .int(0))
        #expect(server.connections.count == 1, "no reconnect")
    }

    @Test("a Socket.IO 2 server (EIO=3): not joined a second time, pinged every pingInterval its handshake names")
    func socketIO2() async throws {
        let tick: (Double) -> ScriptedWebSocketServer.Action = { price in
            .text(#"42["tick",{"symbol":"BTC","price":\#(price)}]"#)
        }
        // Engine.IO 3: the server joins the client to `/` by itself and expects its pings.
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(#"0{"sid":"Lbo5JLzTotvW3g2LAAAA","upgrades":[],"pingInterval":150,"pingTimeout":5000}"#),
            .text("40"), tick(43_000.5), .pause(.milliseconds(900)), .text("3"), tick(43_010.75),
        ])
        defer { server.shutdownNow() }
        let subscribe = #"42["subscribe","ticks"]"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/socket.io/?EIO=3&transport=websocket"), "--mode", "append",
            "--key-path", "/symbol", "--read-timeout", "0.5", "--send", subscribe,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("BTC's second tick") {
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return page.contains("43,010.75")
        }
        let texts = try #require(server.connections.first?.textsReceived)
        #expect(texts.first == subscribe, "no join of its own: \(texts)")
        #expect(!texts.contains("40"))
        // 900 ms at one ping every 150 ms: at least 3 (the machine may be slow), all pings.
        #expect(texts.dropFirst().count >= 3 && texts.dropFirst().allSatisfy { $0 == "2" }, "\(texts)")
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["upstream_errors"] == .int(0))
        #expect(server.connections.count == 1, "no reconnect")
    }

    @Test("a Pusher server (Reverb, Soketi): its pings answered, its own messages no items, an event's data the item")
    func pusher() async throws {
        let price: (String, Double) -> ScriptedWebSocketServer.Action = { symbol, price in
            let data = JSONValue.object(["symbol": .string(symbol), "price": .double(price)]).serializedString()
            return .text(
                JSONValue.object([
                    "event": .string("App\\Events\\PriceUpdated"), "channel": .string("prices"), "data": .string(data),
                ]).serializedString())
        }
        let other = ScriptedWebSocketServer.Action.text(
            #"{"event":"App\\Events\\OrderShipped","channel":"prices","data":"{\"order\":7}"}"#)
        let ping = ScriptedWebSocketServer.Action.text(#"{"event":"pusher:ping","data":{}}"#)
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(
                #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"123.456\",\"activity_timeout\":30}"}"#
            ),
            .text(#"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"prices"}"#),
            price("BTC", 97_000.5), other, ping, price("ETH", 3_600.25), ping, price("BTC", 97_010.75),
        ])
        defer { server.shutdownNow() }
        let subscribe = #"{"event":"pusher:subscribe","data":{"auth":"","channel":"prices"}}"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/app/local-key?protocol=7&client=js&version=8.4.0"), "--mode", "append",
            "--key-path", "/symbol", "--read-timeout", "0.5", "--send", subscribe, "--event", "PriceUpdated",
        ])
        defer { feedweb.kill() }
        try await Eventually.check("BTC's second price") {
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return page.contains("97,010.75")
        }
        try await Eventually.check("both pings answered") { server.connections.first?.textsReceived.count == 3 }
        let texts = try #require(server.connections.first?.textsReceived)
        #expect(texts.first == subscribe, "asked first")
        let answers = try texts.dropFirst().map { try JSONValue(parsing: $0)["event"] }
        #expect(answers == [.string("pusher:pong"), .string("pusher:pong")], "then answered: \(texts)")
        let items = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
        #expect(items["items"]?.arrayValue?.compactMap { $0["symbol"]?.stringValue } == ["ETH", "BTC"])
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0) && ready["upstream"]?["upstream_errors"] == .int(0))
        #expect(server.connections.count == 1, "no reconnect")
    }

    @Test(
        "a Phoenix server: heartbeats in its serializer's form, a join's reply and presence no items, a refusal shown")
    func phoenix() async throws {
        let message: (String, String) -> ScriptedWebSocketServer.Action = { event, payload in
            .text(#"["1",null,"prices:crypto","\#(event)",\#(payload)]"#)
        }
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(#"["1","1","prices:crypto","phx_reply",{"status":"ok","response":{}}]"#),
            message("new_price", #"{"symbol":"BTC","price":97000.5}"#),
            message("presence_diff", #"{"joins":{"u1":{"metas":[]}},"leaves":{}}"#),
            .text(#"["2","2","room:secret","phx_reply",{"status":"error","response":{"reason":"unauthorized"}}]"#),
            .pause(.milliseconds(900)),
            .text(#"[null,"heartbeat","phoenix","phx_reply",{"status":"ok","response":{}}]"#),
            message("new_price", #"{"symbol":"BTC","price":97010.75}"#),
        ])
        defer { server.shutdownNow() }
        let join = #"["1","1","prices:crypto","phx_join",{}]"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/socket/websocket?vsn=2.0.0"), "--mode", "append", "--key-path", "/symbol",
            "--read-timeout", "0.5", "--send", join, "--send", #"["2","2","room:secret","phx_join",{}]"#,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("BTC's second price") {
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return page.contains("97,010.75")
        }
        let texts = try #require(server.connections.first?.textsReceived)
        #expect(texts.first == join)
        // 900 ms at one heartbeat every 250 ms (half the read timeout): at least 2 on a slow
        // machine, each Phoenix's own, in the server's array form.
        let heartbeats = texts.dropFirst(2)
        let forms = try heartbeats.map { try JSONValue(parsing: $0).arrayValue?.dropFirst(2).prefix(2) }
        #expect(
            heartbeats.count >= 2 && forms.allSatisfy { $0 == [.string("phoenix"), .string("heartbeat")] }, "\(texts)")
        let items = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
        #expect(items["items"]?.arrayValue?.compactMap { $0["symbol"]?.stringValue } == ["BTC"], "no presence row")
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["last_upstream_error"] == .string("Phoenix: room:secret: unauthorized"))
        #expect(ready["upstream"]?["upstream_errors"] == .int(1))
        #expect(server.connections.count == 1, "no reconnect")
    }

    @Test("Supabase Realtime: a table's rows kept in step with its inserts, updates and deletes; heartbeats as objects")
    func supabaseTable() async throws {
        let change: (String, String, String) -> ScriptedWebSocketServer.Action = { type, record, old in
            .text(
                #"{"topic":"realtime:public:orders","event":"postgres_changes","payload":{"ids":[1],"data":{"schema":"public","table":"orders","commit_timestamp":"2026-12-05T01:00:00Z","type":"\#(type)","record":\#(record),"old_record":\#(old),"errors":null}},"ref":null}"#
            )
        }
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(
                #"{"topic":"realtime:public:orders","event":"phx_reply","payload":{"status":"ok","response":{}},"ref":"1"}"#
            ),
            .text(
                #"{"topic":"realtime:public:orders","event":"system","payload":{"status":"ok","message":"Subscribed to PostgreSQL","extension":"postgres_changes","channel":"public:orders"},"ref":null}"#
            ),
            change("INSERT", #"{"id":1,"customer":"Ada","status":"new"}"#, "{}"),
            change("INSERT", #"{"id":2,"customer":"Grace","status":"new"}"#, "{}"),
            change("INSERT", #"{"id":3,"customer":"<b>Linus</b>","status":"new"}"#, "{}"),
            change("UPDATE", #"{"id":2,"customer":"Grace","status":"shipped"}"#, #"{"id":2}"#),
            change("DELETE", "{}", #"{"id":1}"#), .pause(.milliseconds(600)),
            change("INSERT", #"{"id":4,"customer":"Ken","status":"new"}"#, "{}"),
        ])
        defer { server.shutdownNow() }
        let join =
            #"{"topic":"realtime:public:orders","event":"phx_join","payload":{"config":{"postgres_changes":[{"event":"*","schema":"public","table":"orders"}]}},"ref":"1","join_ref":"1"}"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/realtime/v1/websocket?apikey=anon&vsn=1.0.0"), "--mode", "append",
            "--read-timeout", "0.5", "--send", join,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("the fourth order") {
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return page.contains("Ken")
        }
        let state = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
        let rows = state["items"]?.arrayValue?.map { [$0["id"], $0["status"]] }
        // Newest first; the update in its row's place; the deleted row gone.
        #expect(rows == [[.int(4), .string("new")], [.int(3), .string("new")], [.int(2), .string("shipped")]])
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("&lt;b&gt;Linus&lt;/b&gt;") && !page.contains("<b>Linus"))
        let texts = try #require(server.connections.first?.textsReceived)
        let topics = try texts.dropFirst().map { try JSONValue(parsing: $0)["topic"] }
        #expect(!topics.isEmpty && topics.allSatisfy { $0 == .string("phoenix") }, "heartbeats as objects: \(texts)")
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["upstream_errors"] == .int(0) && ready["upstream"]?["ignored_events"] == .int(0))
    }

    @Test("Action Cable: its welcome, pings and confirmation no items, a broadcast's message the item, a refusal shown")
    func actionCable() async throws {
        let prices = #"{\"channel\":\"PricesChannel\"}"#
        let quote: (String, Double) -> ScriptedWebSocketServer.Action = { symbol, price in
            .text(#"{"identifier":"\#(prices)","message":{"symbol":"\#(symbol)","price":\#(price)}}"#)
        }
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(#"{"type":"welcome"}"#), .text(#"{"identifier":"\#(prices)","type":"confirm_subscription"}"#),
            .text(#"{"identifier":"{\"channel\":\"AdminChannel\"}","type":"reject_subscription"}"#),
            quote("AAPL", 230.5), .text(#"{"type":"ping","message":1733360000}"#), quote("MSFT", 420.25),
            quote("AAPL", 231.75),
        ])
        defer { server.shutdownNow() }
        let subscribe = #"{"command":"subscribe","identifier":"\#(prices)"}"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/cable"), "--mode", "append", "--key-path", "/symbol", "--read-timeout", "0.5",
            "--send", subscribe,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("AAPL's second price") {
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return page.contains("231.75")
        }
        #expect(server.connections.first?.textsReceived == [subscribe])
        let state = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
        #expect(state["items"]?.arrayValue?.compactMap { $0["symbol"]?.stringValue } == ["MSFT", "AAPL"])
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(
            ready["upstream"]?["last_upstream_error"]
                == .string("Action Cable refused the subscription to AdminChannel"))
        #expect(ready["upstream"]?["ignored_events"] == .int(0) && server.connections.count == 1)
    }

    @Test(
        "a SignalR hub: the handshake and invocations framed, pings sent, each record's argument an item, a close ends it"
    )
    func signalR() async throws {
        let separator = "\u{1E}"
        let price: (String, Double) -> String = { symbol, price in
            #"{"type":1,"target":"ReceivePrice","arguments":[{"symbol":"\#(symbol)","price":\#(price)}]}"# + separator
        }
        let server = try await ScriptedWebSocketServer.start(
            script: [
                .text("{}" + separator), .text(#"{"type":3,"invocationId":"1","result":null}"# + separator),
                // Two invocations and the hub's ping in one message.
                .text(price("BTC", 97_000.5) + #"{"type":6}"# + separator + price("ETH", 3_600.25)),
                .pause(.milliseconds(900)), .text(price("BTC", 97_010.75)),
                .text(#"{"type":7,"error":"Server is shutting down.","allowReconnect":true}"# + separator),
            ], then: [.text("{}" + separator), .text(price("SOL", 240.5))])
        defer { server.shutdownNow() }
        let handshake = #"{"protocol":"json","version":1}"#
        let subscribe = #"{"type":1,"invocationId":"1","target":"Subscribe","arguments":["BTC","ETH"]}"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/hubs/prices"), "--mode", "append", "--key-path", "/symbol", "--read-timeout",
            "0.5", "--send", handshake, "--send", subscribe,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("the second connection's SOL") {
            let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
            return page.contains("240.50")
        }
        let texts = try #require(server.connections.first?.textsReceived)
        #expect(Array(texts.prefix(2)) == [handshake + separator, subscribe + separator], "framed as records")
        // 900 ms at a ping every 250 ms: at least 2 on a slow machine, all pings.
        let pings = texts.dropFirst(2)
        #expect(pings.count >= 2 && pings.allSatisfy { $0 == #"{"type":6}"# + separator }, "\(texts)")
        #expect(server.connections.count == 2, "the hub's close ended the connection; the reconnect followed")
        let state = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
        #expect(state["items"]?.arrayValue?.compactMap { $0["symbol"]?.stringValue } == ["SOL", "ETH", "BTC"])
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("97,010.75") && !page.contains("97,000.50"))
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(
            ready["upstream"]?["last_upstream_error"]
                == .string("SignalR: the hub closed the connection: Server is shutting down."))
    }

    @Test("an Ethereum node's eth_subscribe: the answer no item, each new head's block an item, a row a block")
    func ethereumHeads() async throws {
        let head: (Int, String) -> ScriptedWebSocketServer.Action = { number, hash in
            .text(
                #"{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x9ce59a13","result":{"number":"0x\#(String(number, radix: 16))","hash":"\#(hash)","gasUsed":"0x1c9c380"}}}"#
            )
        }
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(#"{"jsonrpc":"2.0","id":1,"result":"0x9ce59a13"}"#), head(21_000_001, "0xaa01"),
            head(21_000_002, "0x<b>bb02</b>"), head(21_000_003, "0xcc03"),
        ])
        defer { server.shutdownNow() }
        let subscribe = #"{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}"#
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/"), "--mode", "append", "--key-path", "/hash", "--read-timeout", "0.5",
            "--send", subscribe,
        ])
        defer { feedweb.kill() }
        try await Eventually.check("the third block") {
            let state = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
            return state["items"]?.arrayValue?.count == 3
        }
        let state = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
        #expect(
            state["items"]?.arrayValue?.compactMap { $0["hash"]?.stringValue } == ["0xcc03", "0x<b>bb02</b>", "0xaa01"])
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("0x&lt;b&gt;bb02&lt;/b&gt;") && !page.contains("<b>bb02"))
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["ignored_events"] == .int(0) && ready["upstream"]?["upstream_errors"] == .int(0))
    }
}
