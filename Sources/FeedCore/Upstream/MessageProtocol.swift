/// How whole JSON messages become ``UpstreamCommand``s, without I/O: the text messages of a
/// WebSocket upstream (`--upstream ws://…` or `wss://…`), and the texts of a JSON stream
/// over HTTP (`--upstream http(s)://…` answered `application/x-ndjson`, `application/json`
/// and the like, split by ``JSONTextSplitter``).
///
/// - `append` (`--mode append`): each text message is one JSON item, put first; the newest
///   `keep` are the document `{"items":[…]}` (seed 003's Wikipedia edits,
///   `{"type":…,"content":…,"time":…}`). Mastodon's streaming messages,
///   `{"stream":[…],"event":"update","payload":"{…}"}`, are its SSE events in an envelope:
///   read as the append protocol reads the event `event` with the data `payload`
///   (``AppendProtocol``: a post put first, edited, or deleted by its id). A Kubernetes
///   watch's events, `{"type":"MODIFIED","object":{…}}`, edit the set of objects kept
///   (``KubernetesWatch``), CouchDB's changes feed the set of documents
///   (``CouchChanges``), and Home Assistant's `state_changed` events the entities' states
///   (``HomeAssistantEvents``). A heartbeat (`{"event":"keepalive",…}`, ``isHeartbeat(_:)``)
///   is no item.
/// - `document` (`--mode document`): each text message is a whole JSON document (a GraphQL
///   subscription's over `graphql-transport-ws`: its result's data, ``GraphQLResult``); the store
///   diffs it against the last one into a patch, as it does a poll. A Kubernetes watch's
///   event is no document: it is shown as an upstream error that names `--mode append`.
///
/// Three WebSocket protocols are known by their messages' shape, whatever the URL: a Pusher
/// server's (``PusherMessage``: its pings answered, an event read as its `data`), a Phoenix
/// server's (``PhoenixMessage``: heartbeats sent, an event read as its `payload`, Supabase's
/// row changes as edits of the rows kept, ``SupabaseRowChanges``) and an Action Cable
/// server's (``ActionCableMessage``: a broadcast read as its `message`). What a message asks
/// the client to send is in its ``Reading``.
///
/// A text message that is not JSON, and a binary message, are counted and shown as
/// upstream errors; the state and the connection are kept (there is no snapshot to
/// resynchronise from). Neither a WebSocket nor a JSON stream has event ids: a reconnect
/// starts a new stream, and the gap shows downstream as the patch from the old state to the
/// new one.
public struct MessageProtocol: Sendable, Equatable {
    /// What one text message is.
    public enum Mode: Sendable, Equatable {
        /// One item; the newest `keep` (at least 1) are kept.
        case append(keep: Int)
        /// A whole document.
        case document
    }

    /// One whole message, as the WebSocket delivered it (fragments joined).
    public enum Message: Sendable, Equatable {
        case text(String)
        case binary(byteCount: Int)
    }

    /// How a text message carries its JSON.
    public enum Framing: Sendable, Equatable {
        /// The message is one JSON text.
        case plain
        /// A Socket.IO server's packets (``SocketIOPacket``): an event's one argument is the
        /// JSON text's value (`42["tick",{…}]`: the object); an event of several arguments is
        /// `{"event":name,"arguments":[…]}`; Engine.IO's and Socket.IO's own packets are no
        /// items, a refusal (`44`) is upstream's error, and a close (`1`, `41`) ends the
        /// connection.
        case socketIO
        /// An ASP.NET Core SignalR hub's records (``SignalRMessage``), each ended by `0x1E`,
        /// one or more a message: an invocation's one argument is the JSON text's value, of
        /// several `{"event":target,"arguments":[…]}`; the hub's own records are no items, a
        /// close ends the connection. What the client sends is framed the same way.
        case signalR

        /// The framing of the WebSocket at `url` sent `sends` once open: Socket.IO's when
        /// its query names the Engine.IO protocol (`?EIO=4&transport=websocket`), SignalR's
        /// when a message sent is SignalR's handshake (``SignalRMessage/isHandshake(_:)``).
        public static func of(url: String, sends: [String] = []) -> Framing {
            let query = url.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init)
            if SocketIOPacket.isSocketIO(query: query) { return .socketIO }
            return sends.contains(where: SignalRMessage.isHandshake) ? .signalR : .plain
        }
    }

    public let mode: Mode
    public let framing: Framing
    /// In append mode, the events whose data is an item (`--event`): a Socket.IO event's
    /// name, an enveloped event's (``AppendProtocol/chosenEvents``), a JSON message's kind
    /// (``kinds(of:)``); empty: every event.
    public let chosenEvents: Set<String>

    public init(mode: Mode, framing: Framing = .plain, chosenEvents: Set<String> = []) {
        self.chosenEvents = chosenEvents
        if case .append(let keep) = mode {
            self.mode = .append(keep: max(1, keep))
        } else {
            self.mode = mode
        }
        self.framing = framing
    }

    /// The commands for one message: one, or in append mode one per item a message carries
    /// in an envelope (``carriedItems(_:)``), in the order it lists them.
    public func interpret(_ message: Message) -> [UpstreamCommand] {
        read(message).commands
    }

    /// A text message the client sends every half `--read-timeout`, and at least every
    /// `longestInterval`, so that the server does not take it for gone.
    public struct Heartbeat: Sendable, Equatable {
        public let text: String
        public let longestInterval: Duration
    }

    /// What one message says, beyond its commands: what the client sends back at once, and
    /// what it sends from then on.
    public struct Reading: Sendable {
        /// What to do with the message (``interpret(_:)``).
        public var commands: [UpstreamCommand]
        /// Where the stream resumes after it, when it says.
        public var resume: StreamResume?
        /// A text message to send back at once: a server's ping answered (Engine.IO's `3`,
        /// Pusher's `pusher:pong`).
        public var reply: String?
        /// What the client sends from now on (a Phoenix server's heartbeat, in its
        /// serializer's form; a SignalR hub's ping); the same for every message of a
        /// connection.
        public var heartbeat: Heartbeat?

        init(
            _ commands: [UpstreamCommand], resume: StreamResume? = nil, reply: String? = nil,
            heartbeat: Heartbeat? = nil
        ) {
            self.commands = commands
            self.resume = resume
            self.reply = reply
            self.heartbeat = heartbeat
        }
    }

    /// What one message says (``Reading``): its commands (``interpret(_:)``), where the stream
    /// resumes after it when it says (in append mode: a Kubernetes watch's events, CouchDB's
    /// changes, ntfy's messages, Docker's events; ``StreamResume``), and what the client sends back.
    public func read(_ message: Message) -> Reading {
        switch message {
        case .binary where framing == .socketIO:
            // A Socket.IO server's binary messages are the attachments of the event before.
            return Reading([.ignore(reason: "a Socket.IO event's binary attachment", counted: false)])
        case .binary(let byteCount):
            return Reading([.reportError("a binary message (\(byteCount) bytes); feedweb reads text messages of JSON")])
        case .text(let text) where framing == .socketIO:
            return socketIOReading(text)
        case .text(let text) where framing == .signalR:
            return signalRReading(text)
        case .text(let text):
            let value: JSONValue
            do {
                value = try JSONValue(parsing: text)
            } catch {
                return Reading([.reportError("a message is not JSON: \(error)")])
            }
            if let pusher = PusherMessage(value) { return pusherReading(pusher) }
            if let phoenix = PhoenixMessage(value) { return phoenixReading(phoenix) }
            if let cable = ActionCableMessage(value) { return Reading(actionCableCommands(cable)) }
            if let notification = JSONRPCNotification(value) { return Reading(notificationCommands(notification)) }
            guard case .append = mode else { return Reading(commands(for: value)) }
            let resume =
                KubernetesWatch.resume(after: value) ?? CouchChanges.resume(after: value)
                ?? NtfyMessages.resume(after: value) ?? DockerEvents.resume(after: value)
            return Reading(commands(for: value), resume: resume)
        }
    }

    /// A Pusher server's message (``PusherMessage``): its ping answered, its own messages no
    /// items, an application's event read as its data.
    private func pusherReading(_ message: PusherMessage) -> Reading {
        switch message {
        case .own:
            return Reading([.ignore(reason: "Pusher's own message", counted: false)])
        case .ping:
            return Reading([.ignore(reason: "Pusher's ping", counted: false)], reply: PusherMessage.pongText)
        case .error(let problem):
            return Reading([.reportError("Pusher: " + problem)])
        case .event(let name, _, let value):
            if case .append = mode, !chosenEvents.isEmpty, !PusherMessage.isChosen(name, in: chosenEvents) {
                return Reading([.ignore(reason: "\(name) events are not items (--event)", counted: false)])
            }
            return Reading(commands(for: value, named: true))
        }
    }

    /// A Phoenix server's message (``PhoenixMessage``): every one asks for the heartbeat in
    /// its serializer's form; Phoenix's own are no items, a refusal is upstream's error, a
    /// channel gone ends the connection, an application's event is read as its payload.
    private func phoenixReading(_ message: PhoenixMessage) -> Reading {
        let heartbeat = Heartbeat(
            text: PhoenixMessage.heartbeat(message.serializer), longestInterval: PhoenixMessage.heartbeatInterval)
        switch message.meaning {
        case .own:
            return Reading([.ignore(reason: "Phoenix's own message", counted: false)], heartbeat: heartbeat)
        case .error(let problem):
            return Reading([.reportError(problem)], heartbeat: heartbeat)
        case .channelEnded(let why):
            return Reading([.endStream(why)], heartbeat: heartbeat)
        case .event(let name, let value):
            // Presence is who is connected, not the data: an item only when `--event` names it
            // in append mode, never a document.
            let presence = PhoenixMessage.presenceEvents.contains(name)
            switch mode {
            case .append where chosenEvents.isEmpty ? presence : !chosenEvents.contains(name):
                return Reading(
                    [.ignore(reason: "\(name) events are not items (--event)", counted: false)], heartbeat: heartbeat)
            case .document where presence:
                return Reading([.ignore(reason: "Phoenix's presence", counted: false)], heartbeat: heartbeat)
            default:
                break
            }
            // A table's row changes edit the set of rows kept.
            switch mode {
            case .append(let keep):
                if let change = SupabaseRowChanges.command(for: value, keep: keep) {
                    return Reading([change], heartbeat: heartbeat)
                }
            case .document:
                if SupabaseRowChanges.command(for: value, keep: 1) != nil {
                    return Reading([.reportError(SupabaseRowChanges.inDocumentMode)], heartbeat: heartbeat)
                }
            }
            return Reading(commands(for: value, named: true), heartbeat: heartbeat)
        }
    }

    /// The commands for an Action Cable server's message (``ActionCableMessage``): its own
    /// messages no items, a refusal upstream's error, a disconnect the end of the
    /// connection, a broadcast read as its `message` (chosen by `--event` by its channel's
    /// name or by its own kind).
    private func actionCableCommands(_ message: ActionCableMessage) -> [UpstreamCommand] {
        switch message {
        case .own:
            return [.ignore(reason: "Action Cable's own message", counted: false)]
        case .rejected(let problem):
            return [.reportError(problem)]
        case .disconnected(let why):
            return [.endStream(why)]
        case .broadcast(let channel, let value):
            return commands(for: value, named: channel.map(chosenEvents.contains) ?? false)
        }
    }

    /// The commands for a JSON-RPC notification (``JSONRPCNotification``): what it carries,
    /// chosen by `--event` by its method, its channel, or a kind of its own.
    private func notificationCommands(_ notification: JSONRPCNotification) -> [UpstreamCommand] {
        let kinds = notification.kinds + Self.dottedFirstParts(notification.kinds)
        return commands(for: notification.value, named: kinds.contains(where: chosenEvents.contains))
    }

    /// A SignalR hub's message (``Framing/signalR``): each record's commands in turn; every
    /// message asks for the client's pings.
    private func signalRReading(_ text: String) -> Reading {
        let heartbeat = Heartbeat(text: SignalRMessage.pingText, longestInterval: SignalRMessage.pingInterval)
        var commands: [UpstreamCommand] = []
        for record in SignalRMessage.records(text) {
            let value: JSONValue
            do {
                value = try JSONValue(parsing: String(record))
            } catch {
                commands.append(.reportError("a SignalR record is not JSON: \(error)"))
                continue
            }
            switch SignalRMessage.reading(value) {
            case .failure(let problem):
                commands.append(.reportError(problem.description))
            case .success(.own):
                commands.append(.ignore(reason: "SignalR's own record", counted: false))
            case .success(.error(let problem)):
                commands.append(.reportError(problem))
            case .success(.close(let why)):
                commands.append(.endStream(why))
            case .success(.streamItem(let item)):
                commands += self.commands(for: item)
            case .success(.invocation(let name, let arguments)):
                if case .append = mode, !chosenEvents.isEmpty, !chosenEvents.contains(name) {
                    commands.append(.ignore(reason: "\(name) invocations are not items (--event)", counted: false))
                } else if arguments.count == 1, let value = arguments.first {
                    commands += self.commands(for: value, named: true)
                } else {
                    let value = JSONValue.object(["event": .string(name), "arguments": .array(arguments)])
                    commands += self.commands(for: value, named: true)
                }
            }
        }
        guard !commands.isEmpty else {
            return Reading([.reportError("an empty SignalR message")], heartbeat: heartbeat)
        }
        return Reading(commands, heartbeat: heartbeat)
    }

    /// A Socket.IO server's message (``Framing/socketIO``): its ping answered with a pong.
    private func socketIOReading(_ text: String) -> Reading {
        let commands = socketIOCommands(text)
        return Reading(commands, reply: text == SocketIOPacket.pingText ? SocketIOPacket.pongText : nil)
    }

    /// The commands for a Socket.IO server's message (``Framing/socketIO``).
    private func socketIOCommands(_ text: String) -> [UpstreamCommand] {
        switch SocketIOPacket(parsing: text) {
        case .handshake, .ping, .pong, .noop, .joined, .acknowledgement:
            return [.ignore(reason: "Socket.IO's own packet", counted: false)]
        case .close:
            return [.endStream("Socket.IO: the server closed the connection")]
        case .left:
            return [.endStream("Socket.IO: the server disconnected feedweb from its namespace")]
        case .refused(let message):
            return [.reportError("Socket.IO: " + message)]
        case .malformed(let what):
            return [.reportError("a message is not Socket.IO's: " + what)]
        case .event(let name, let arguments):
            if DocumentProtocol.livenessNames.contains(name.lowercased()) {
                return [.ignore(reason: "\(name) (no item)", counted: false)]
            }
            if case .append = mode, !chosenEvents.isEmpty, !chosenEvents.contains(name) {
                return [.ignore(reason: "\(name) events are not items (--event)", counted: false)]
            }
            // The event's name was the one chosen: its argument's own kind is not asked.
            guard arguments.count == 1, let value = arguments.first else {
                return commands(for: .object(["event": .string(name), "arguments": .array(arguments)]), named: true)
            }
            return commands(for: value, named: true)
        }
    }

    /// The commands for one message's JSON value: one, or in append mode one per item it
    /// carries.
    /// `named`: the message came by an event whose name was chosen (a Socket.IO event's), so
    /// its kind is not asked again.
    private func commands(for value: JSONValue, named: Bool = false) -> [UpstreamCommand] {
        if case .append(let keep) = mode, let commands = HomeAssistantEvents.commands(for: value, keep: keep) {
            return commands
        }
        if case .append(let keep) = mode, let items = Self.carriedItems(value) {
            if Self.isFeedStatus(value) { return [.ignore(reason: "the feed's status", counted: false)] }
            // Alpaca and Polygon answer in lists too: `[{"T":"success","msg":"connected"}]`.
            var errors: [UpstreamCommand] = []
            var data: [UpstreamCommand] = []
            var unchosen = 0
            for item in items {
                if let error = Self.feedError(item) {
                    errors.append(.reportError(error))
                } else if !Self.isHeartbeat(item) && !Self.isSubscriptionAnswer(item) {
                    guard named || isChosen(item, in: value) else {
                        unchosen += 1
                        continue
                    }
                    data.append(.prependItem(item, keep: keep))
                }
            }
            guard !data.isEmpty || !errors.isEmpty else {
                return [.ignore(reason: unchosen > 0 ? Self.notChosen : "an answer to a subscription", counted: false)]
            }
            return errors + data
        }
        return [command(for: value, named: named)]
    }

    /// Why a message whose kind `--event` does not name is no item.
    private static let notChosen = "its kind is not one --event names"

    /// The members that name a JSON message's kind: Coinbase's `type`, Bitstamp's `event`,
    /// Kraken's `channel`, Binance's `e`, Polygon's `ev`, Alpaca's `T`, Bybit's `topic`.
    static let kindMembers = ["type", "event", "channel", "e", "ev", "T", "topic"]

    /// A JSON message's kinds: each of ``kindMembers`` that is text, in the object itself, in
    /// its `data` object (Binance's combined streams, `{"stream":…,"data":{"e":"trade",…}}`)
    /// and in its `arg` object (OKX's `{"arg":{"channel":"tickers",…},"data":[…]}`); a kind
    /// of dotted parts (Bybit's `tickers.BTCUSDT`, Deribit's `ticker.BTC-PERPETUAL.100ms`)
    /// counts whole and by its first part. A message may say several (Kraken's
    /// `{"channel":"ticker","type":"update",…}`).
    static func kinds(of message: JSONValue) -> [String] {
        let named = [message, message["data"] ?? .null, message["arg"] ?? .null].flatMap { object in
            kindMembers.compactMap { object[$0]?.stringValue }
        }
        return named + dottedFirstParts(named)
    }

    /// The first part of each kind of dotted parts (`tickers.BTCUSDT`: `tickers`).
    static func dottedFirstParts(_ kinds: [String]) -> [String] {
        kinds.compactMap { kind in
            guard let dot = kind.firstIndex(of: "."), dot != kind.startIndex else { return nil }
            return String(kind[..<dot])
        }
    }

    /// Whether `item` (carried by `envelope`, when it is) is of a kind `--event` chose:
    /// always without `--event`; else one of its kinds, or of its envelope's, is one of
    /// ``chosenEvents``.
    private func isChosen(_ item: JSONValue, in envelope: JSONValue? = nil) -> Bool {
        guard !chosenEvents.isEmpty else { return true }
        return (Self.kinds(of: item) + (envelope.map(Self.kinds(of:)) ?? [])).contains(where: chosenEvents.contains)
    }

    /// The one command for the JSON text `value`, whatever it carries; `named` as in
    /// ``commands(for:named:)``.
    private func command(for value: JSONValue, named: Bool) -> UpstreamCommand {
        // Neither an item nor a document, in either mode.
        if let error = Self.feedError(value) { return .reportError(error) }
        if Self.isHeartbeat(value) { return .ignore(reason: "heartbeat", counted: false) }
        if Self.isSubscriptionAnswer(value) {
            return .ignore(reason: "an answer to a subscription", counted: false)
        }
        switch mode {
        case .append(let keep):
            if case .ignore? = GraphQLResult.command(overWebSocket: value) {
                return .ignore(reason: "GraphQL's own message", counted: false)
            }
            if let event = Self.envelopedEvent(value) {
                return AppendProtocol(keep: keep, chosenEvents: chosenEvents).command(forKnown: event)
                    ?? .ignore(reason: "\(event.type) events are not read", counted: true)
            }
            if let command = KubernetesWatch.command(for: value, keep: keep) { return command }
            if let command = CouchChanges.command(for: value, keep: keep) { return command }
            guard named || isChosen(value) else { return .ignore(reason: Self.notChosen, counted: false) }
            return .prependItem(value, keep: keep)
        case .document:
            if let command = GraphQLResult.command(overWebSocket: value) { return command }
            // A watch's events are edits, not documents: the last would stand for all.
            if KubernetesWatch.command(for: value, keep: 1) != nil {
                return .reportError(KubernetesWatch.inDocumentMode)
            }
            if let commands = HomeAssistantEvents.commands(for: value, keep: 1) {
                // Its handshake and answers are no documents either; its errors are errors.
                switch commands.first {
                case .putItem?, .removeItemByID?, .prependItem?: return .reportError(HomeAssistantEvents.inDocumentMode)
                case let command?: return command
                case nil: return .ignore(reason: "Home Assistant's answer", counted: false)
                }
            }
            return .replaceDocument(value)
        }
    }

    /// Whether `message` only says the stream is alive, and is no item: an object whose
    /// `event`, `type`, `channel` or `op` is `keepalive` (ntfy's `{"event":"keepalive",…}`),
    /// or `ping` or `pong` with at most one other member, a scalar (Finnhub's
    /// `{"type":"ping"}`; a prober's pings with their hosts and times are its data), or
    /// `heartbeat` that says no status (Kraken's `{"event":"heartbeat"}` and
    /// `{"channel":"heartbeat"}`, Coinbase's with its `sequence`, `last_trade_id` and
    /// `product_id`; a monitor's heartbeats with a `status` are its data), or ntfy's `open`
    /// (an `event` of `open` beside a `topic`).
    static func isHeartbeat(_ message: JSONValue) -> Bool {
        guard let members = message.objectValue else { return false }
        // At most one other member, and that a scalar (a time), not data.
        let bare = members.count <= 2 && members.values.allSatisfy { $0.objectValue == nil && $0.arrayValue == nil }
        // A monitor's heartbeat says how a thing is: that is its data.
        let saysStatus = ["status", "state", "up", "healthy", "ok"].contains { members[$0] != nil }
        for name in ["event", "type", "channel", "op"] {
            switch members[name]?.stringValue?.lowercased() {
            case "keepalive", "keep-alive": return true
            case "heartbeat" where bare || !saysStatus, "ping" where bare, "pong" where bare: return true
            case "open" where name == "event" && members["topic"] != nil: return true
            default: continue
            }
        }
        return false
    }

    /// Whether `message` answers a subscription (`--send`) rather than carrying data: an
    /// object whose `type`, `event`, `op`, `method`, `T` or `ev` names one (Coinbase's
    /// `{"type":"subscriptions",…}`, Kraken's `{"method":"subscribe","success":true,…}` and
    /// `subscriptionStatus`, OKX's and Bybit's `subscribe`, Bitstamp's
    /// `bts:subscription_succeeded`, Alpaca's `{"T":"subscription",…}`), says the connection
    /// succeeded or how it is in a few words (Alpaca's `{"T":"success","msg":"connected"}`,
    /// Polygon's `{"ev":"status","status":"connected","message":…}`), or a request's answer
    /// of an `id` and a `result` with no other member but JSON-RPC's own (Binance's
    /// `{"result":null,"id":1}`, Deribit's).
    static func isSubscriptionAnswer(_ message: JSONValue) -> Bool {
        guard let members = message.objectValue else { return false }
        let words = members.count <= 3 && ["msg", "message", "status"].contains { members[$0] != nil }
        for name in ["type", "event", "op", "method", "T", "ev"] {
            guard let value = members[name]?.stringValue?.lowercased() else { continue }
            if value.contains("subscri") { return true }
            if words && (value == "success" || value == "status") { return true }
        }
        let rpc: Set<String> = ["id", "result", "jsonrpc", "usIn", "usOut", "usDiff", "testnet"]
        return members["id"] != nil && members["result"] != nil && members.keys.allSatisfy(rpc.contains)
    }

    /// What a market feed's error message says, `CODE: MESSAGE`: an object whose `T`, `ev`,
    /// `type` or `event` is `error` beside a `msg` or `message` (Alpaca's
    /// `{"T":"error","code":402,"msg":"auth failed"}`), or a `status` message whose status
    /// says it failed (Polygon's `{"ev":"status","status":"auth_failed","message":…}`); `nil`
    /// for any other message. Such an answer to `--send` is shown as upstream's error, not
    /// kept as an item or taken for quiet.
    static func feedError(_ message: JSONValue) -> String? {
        guard let members = message.objectValue,
            let text = ItemExtractor.text(members["msg"]) ?? ItemExtractor.text(members["message"])
        else { return nil }
        let kinds = ["T", "ev", "type", "event"].compactMap { members[$0]?.stringValue?.lowercased() }
        let status = members["status"]?.stringValue?.lowercased() ?? ""
        let failed =
            kinds.contains("error")
            || (kinds.contains("status") && (status.contains("fail") || status.contains("error")))
        guard failed, members.count <= 4 else { return nil }
        let code = ItemExtractor.text(members["code"]).map { "\($0): " } ?? ""
        return code + DocumentProtocol.oneLine(text)
    }

    /// Member names of an envelope around a market feed's items, besides its `data`: Kraken's
    /// `channel` and `type`, OKX's `arg`, BitMEX's `table` and `action`, Bybit's `topic` and
    /// `ts`, Binance's combined `stream`.
    static let envelopeNames: Set<String> = [
        "channel", "type", "topic", "arg", "stream", "event", "table", "action", "ts", "time", "timestamp", "seq",
        "sequence", "cts",
    ]

    /// The items a message carries: the message itself when it is an array of objects
    /// (Binance's all-market tickers, `[{"e":"24hrTicker","s":"BTCUSDT",…},…]`), or an array
    /// in its `data`, each an object (Kraken's
    /// `{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD",…}]}`, OKX's
    /// `{"arg":{…},"data":[…]}`, BitMEX's `{"table":"trade","action":"insert","data":[…]}`),
    /// when every other member is one of ``envelopeNames`` holding a scalar or an object of
    /// scalars; `nil` for any other message (an item with its own `data` list among other
    /// members of its own is an item).
    static func carriedItems(_ message: JSONValue) -> [JSONValue]? {
        // Binance's `!ticker@arr`: the message a list of the items.
        if let items = message.arrayValue {
            return !items.isEmpty && items.allSatisfy({ $0.objectValue != nil }) ? items : nil
        }
        guard let members = message.objectValue, let items = members["data"]?.arrayValue, !items.isEmpty,
            items.allSatisfy({ $0.objectValue != nil })
        else { return nil }
        for (name, value) in members where name != "data" {
            guard envelopeNames.contains(name) else { return nil }
            if let object = value.objectValue,
                object.values.contains(where: { $0.objectValue != nil || $0.arrayValue != nil })
            {
                return nil
            }
            if value.arrayValue != nil { return nil }
        }
        return items
    }

    /// Whether an envelope carries the feed's own status, not its data: its `channel`,
    /// `topic` or `table` is `status` (Kraken's `{"channel":"status","data":[{"system":"online",…}]}`).
    static func isFeedStatus(_ message: JSONValue) -> Bool {
        ["channel", "topic", "table"].contains { message[$0]?.stringValue?.lowercased() == "status" }
    }

    /// The SSE event a Mastodon streaming message carries: an object of a text `event`, a
    /// text `payload` and at most a `stream` besides; `nil` for any other message.
    static func envelopedEvent(_ message: JSONValue) -> SSEEvent? {
        guard let members = message.objectValue, let type = members["event"]?.stringValue, !type.isEmpty,
            let payload = members["payload"]?.stringValue,
            members.keys.allSatisfy({ ["event", "payload", "stream"].contains($0) })
        else { return nil }
        return SSEEvent(type: type, data: payload)
    }
}
