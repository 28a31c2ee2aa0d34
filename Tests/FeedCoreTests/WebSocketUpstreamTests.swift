import FeedCore
import Foundation
import TestSupport
import Testing

/// The WebSocket upstream over real sockets, against NIOWebSocket's server
/// (``ScriptedWebSocketServer``): messages as items or documents, the handshake's headers,
/// reconnects, and bad input (not JSON, binary, too large, an error close) counted and
/// shown while the state is kept.
@Suite("WebSocket upstream", .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct WebSocketUpstreamTests {
    /// One edit as seed 003's feed sends it.
    static func edit(_ n: Int, type: String = "unspecified") -> String {
        JSONValue.object([
            "type": .string(type), "content": .string("Page \(n)"),
            "time": .string("2014-05-15T14:46:\(String(format: "%02d", n % 60)).828Z"),
        ]).serializedString()
    }

    static func items(_ numbers: [Int]) throws -> JSONValue {
        .object(["items": .array(try numbers.map { try JSONValue(parsing: edit($0)) })])
    }

    /// Runs a connection of `kind` to `server` while `body` runs, then stops both. The read
    /// timeout is short: the client pings every half of it, and the server starts each
    /// connection's script at its first ping.
    static func run(
        _ server: ScriptedWebSocketServer, kind: UpstreamKind, path: String = "/ws",
        headers: [(name: String, value: String)] = [], maxEventBytes: Int = 1 << 20,
        readTimeout: Duration = .milliseconds(400), caFile: String? = nil,
        host: String = "127.0.0.1", _ body: (UpstreamHarness) async throws -> Void
    ) async throws {
        let configuration = UpstreamConfiguration(
            url: server.url(path).replacingOccurrences(of: "127.0.0.1", with: host), headers: headers,
            maxEventBytes: maxEventBytes, maxBackoff: .milliseconds(200),
            readTimeout: readTimeout, caFile: caFile)
        let harness = try UpstreamHarness(configuration: configuration, kind: kind, profile: .generic)
        try await Upstream.running(harness, shutdown: { await server.shutdown() }, body)
    }

    @Test("append mode: each text message is one item, newest first, the newest N kept; headers in the handshake")
    func appendMode() async throws {
        let server = try await ScriptedWebSocketServer.start(script: (1...5).map { .text(Self.edit($0)) })
        try await Self.run(
            server, kind: .webSocket(MessageProtocol(mode: .append(keep: 3))), path: "/edits?lang=en",
            headers: [("Authorization", "Bearer t0k3n"), ("X-Client", "feedweb-test")]
        ) { upstream in
            let expected = try Self.items([5, 4, 3])
            try await upstream.waitUntil("the newest three of five") { upstream.document == expected }
            #expect(upstream.status.phase == .open)
            let handshake = try #require(server.connections.first?.handshake)
            #expect(handshake.uri == "/edits?lang=en")
            #expect(handshake.header("Authorization") == "Bearer t0k3n")
            #expect(handshake.header("X-Client") == "feedweb-test")
            // Pushed later: one more item on top, the oldest kept one dropped.
            try server.send([.text(Self.edit(6))])
            let next = try Self.items([6, 5, 4])
            // The status counts an event after the store has taken it: wait for both.
            try await upstream.waitUntil("item 6 on top") {
                upstream.document == next && upstream.status.eventsReceived >= 6
            }
            #expect(upstream.status.eventsReceived == 6)
            #expect(upstream.status.upstreamErrors == 0)
            #expect(server.connections.count == 1)
        }
    }

    @Test("user information in the URL goes into Authorization: Basic, not the request line")
    func userInformation() async throws {
        let server = try await ScriptedWebSocketServer.start(script: [.text(Self.edit(1))])
        let url = server.url("/ws").replacingOccurrences(of: "ws://", with: "ws://ed%40itor:pa55@")
        let configuration = UpstreamConfiguration(url: url, maxBackoff: .milliseconds(200))
        let harness = try UpstreamHarness(
            configuration: configuration, kind: .webSocket(MessageProtocol(mode: .append(keep: 5))),
            profile: .generic)
        harness.start()
        let connected = try? await server.waitForConnections(1)
        _ = await harness.stop()
        await server.shutdown()
        let handshake = try #require(connected?.first?.handshake)
        #expect(handshake.uri == "/ws")
        let expected = "Basic " + Data("ed@itor:pa55".utf8).base64EncodedString()
        #expect(handshake.header("Authorization") == expected)
        #expect(harness.status.source.contains("pa55") == false)
    }

    @Test("document mode: each message is a whole document; later ones become patches")
    func documentMode() async throws {
        let first = #"{"items":[{"id":"a","title":"A"}],"version":1}"#
        let second = #"{"items":[{"id":"b","title":"B"},{"id":"a","title":"A"}],"version":2}"#
        let server = try await ScriptedWebSocketServer.start(script: [.text(first)])
        try await Self.run(server, kind: .webSocket(MessageProtocol(mode: .document))) { upstream in
            let one = try JSONValue(parsing: first)
            try await upstream.waitUntil("the first document") { upstream.document == one }
            try server.send([.text(second)])
            let two = try JSONValue(parsing: second)
            try await upstream.waitUntil("the second document, observed") { upstream.acceptedDocuments.last == two }
            // The store saw two changes: a snapshot, then the patch between them.
            #expect(upstream.acceptedDocuments == [one, two])
            #expect(upstream.store.snapshot?.id.seq == 2)
        }
    }

    @Test("a message that is not JSON and a binary message are counted as upstream errors; state and connection kept")
    func notJSONAndBinary() async throws {
        let server = try await ScriptedWebSocketServer.start(script: [
            .text(Self.edit(1)), .text("{not json"), .binary([0, 1, 2, 3]), .text(Self.edit(2)),
        ])
        try await Self.run(server, kind: .webSocket(MessageProtocol(mode: .append(keep: 10)))) { upstream in
            let expected = try Self.items([2, 1])
            try await upstream.waitUntil("both good items") { upstream.document == expected }
            let status = try await upstream.waitForStatus("two upstream errors", timeout: .seconds(15)) {
                $0.upstreamErrors == 2
            }
            #expect(status.lastUpstreamError?.contains("binary") == true, "\(status.lastUpstreamError ?? "-")")
            #expect(status.phase == .open)
            #expect(status.reconnects == 0)
            #expect(server.connections.count == 1)
        }
    }

    @Test(
        "a message over max-event-bytes ends the connection, is counted, and the state is kept",
        arguments: [false, true])
    func oversized(fragmented: Bool) async throws {
        let big = #"{"type":"x","content":""# + String(repeating: "z", count: 4000) + #""}"#
        let server = try await ScriptedWebSocketServer.start(
            script: [.text(Self.edit(1)), fragmented ? .fragmentedText(big, frameSize: 500) : .text(big)],
            then: [.text(Self.edit(2))])
        try await Self.run(
            server, kind: .webSocket(MessageProtocol(mode: .append(keep: 10))), maxEventBytes: 2048
        ) { upstream in
            try await server.waitForConnections(2)
            let expected = try Self.items([2, 1])
            try await upstream.waitUntil("the item after the reconnect, on top of the one before") {
                upstream.document == expected
            }
            let status = upstream.status
            #expect(status.upstreamErrors >= 1)
            #expect(status.reconnects >= 1)
            #expect(
                upstream.events.contains { event in
                    if case .backingOff(_, let error, _) = event { return error == "an event exceeded 2048 bytes" }
                    return false
                })
            // The client closed the first connection with 1009 (message too big).
            #expect(server.connections.first?.clientCloseCode == 1009)
        }
    }

    @Test("a close frame with an error code is counted and shown; the reconnect follows and the state is kept")
    func errorClose() async throws {
        let server = try await ScriptedWebSocketServer.start(
            script: [.text(Self.edit(1)), .close(code: 1011, reason: "overloaded")], then: [.text(Self.edit(2))])
        try await Self.run(server, kind: .webSocket(MessageProtocol(mode: .append(keep: 10)))) { upstream in
            try await server.waitForConnections(2)
            let expected = try Self.items([2, 1])
            try await upstream.waitUntil("item 2 after the reconnect") { upstream.document == expected }
            let status = upstream.status
            #expect(status.upstreamErrors == 1)
            #expect(status.lastUpstreamError == "upstream closed the WebSocket with code 1011 (overloaded)")
            #expect(status.lastError == "upstream closed the WebSocket with code 1011 (overloaded)")
        }
    }

    @Test("a normal close or a dropped connection leads to the usual reconnect, without an upstream error")
    func reconnects() async throws {
        let server = try await ScriptedWebSocketServer.start { n in
            switch n {
            case 0: return [.text(Self.edit(1)), .close(code: 1000, reason: "bye")]
            case 1: return [.text(Self.edit(2)), .drop]
            default: return [.text(Self.edit(3))]
            }
        }
        try await Self.run(server, kind: .webSocket(MessageProtocol(mode: .append(keep: 10)))) { upstream in
            try await server.waitForConnections(3)
            let expected = try Self.items([3, 2, 1])
            try await upstream.waitUntil("three items over three connections") { upstream.document == expected }
            #expect(upstream.status.upstreamErrors == 0)
            #expect(upstream.status.reconnects == 2)
            #expect(upstream.phaseNames.prefix(4) == ["connecting", "open", "backingOff", "connecting"])
        }
    }

    @Test("pings keep a quiet connection alive; a peer that stops answering them is dropped and reconnected")
    func pingKeepAlive() async throws {
        let server = try await ScriptedWebSocketServer.start(script: [.text(Self.edit(1))], then: [.text(Self.edit(2))])
        try await Self.run(
            server, kind: .webSocket(MessageProtocol(mode: .append(keep: 10))), readTimeout: .milliseconds(400)
        ) { upstream in
            // Quiet but answering: pings go out every 200 ms and the connection stays.
            try await upstream.waitUntil("three pings answered") { (server.connections.first?.pingsReceived ?? 0) >= 3 }
            #expect(server.connections.count == 1)
            #expect(upstream.status.phase == .open)
            // Silent: the next unanswered ping ends the connection; a new one is made.
            server.answersPings = false
            try await server.waitForConnections(2)
            let backedOff = upstream.events.contains { event in
                if case .backingOff(_, let error, _) = event { return error.contains("ping") }
                return false
            }
            #expect(backedOff, "\(upstream.status.lastError ?? "-")")
        }
    }

    @Test("wss with a certificate from a test CA works when the CA is given as caFile, and is refused without it")
    func secureWebSocket() async throws {
        let trusted = try await ScriptedWebSocketServer.start(script: [.text(Self.edit(1))], tls: Upstream.serverTLS)
        // By the certificate's DNS name: swift-websocket 1.6.2 sends the host as SNI, which
        // TLS does not allow for an IP address (wss://127.0.0.1 fails its handshake).
        try await Self.run(
            trusted, kind: .webSocket(MessageProtocol(mode: .append(keep: 5))), caFile: Upstream.caFile,
            host: "localhost"
        ) { upstream in
            let expected = try Self.items([1])
            try await upstream.waitUntil("the item over wss") { upstream.document == expected }
            #expect(upstream.status.lastError == nil)
        }
        let untrusted = try await ScriptedWebSocketServer.start(script: [.text(Self.edit(1))], tls: Upstream.serverTLS)
        try await Self.run(
            untrusted, kind: .webSocket(MessageProtocol(mode: .append(keep: 5))), host: "localhost"
        ) { upstream in
            let status = try await upstream.waitForStatus("a refused handshake", timeout: .seconds(15)) {
                $0.lastError != nil
            }
            #expect(status.lastError?.contains("TLS handshake") == true, "\(status.lastError ?? "-")")
            #expect(untrusted.connections.isEmpty, "no WebSocket was opened")
            #expect(upstream.document == nil)
        }
    }

    @Test("an HTTP answer instead of the upgrade is shown as such")
    func upgradeRefused() async throws {
        let server = try await ScriptedSSEServer.start(script: [], then: .status(404, body: "no WebSocket here"))
        let url = server.url("/ws").replacingOccurrences(of: "http://", with: "ws://")
        let harness = try UpstreamHarness(
            configuration: .init(url: url, headers: [("X-Client", "feedweb-test")], maxBackoff: .milliseconds(200)),
            kind: .webSocket(MessageProtocol(mode: .document)))
        harness.start()
        let status = try? await harness.waitForStatus("a refused upgrade", timeout: .seconds(15)) {
            $0.lastError != nil
        }
        _ = await harness.stop()
        await server.shutdown()
        let request = try #require(server.requests.first)
        // The words name the Origin the handshake really carried, for a server that checks it.
        let origin = try #require(request.header("Origin"))
        #expect(
            status?.lastError
                == "upstream refused the WebSocket upgrade (the handshake's Origin was \(origin): a server that checks origins must allow it)"
        )
        #expect(origin == "ws://127.0.0.1")
        #expect(request.header("Upgrade")?.lowercased() == "websocket")
        #expect(request.header("X-Client") == "feedweb-test", "the headers go into the handshake")
    }

    @Test("nothing listening: the refused attempt says so, with the host and port")
    func connectionRefused() async throws {
        let server = try await ScriptedWebSocketServer.start(script: [])
        let url = server.url("/ws")
        await server.shutdown()
        let harness = try UpstreamHarness(
            configuration: .init(url: url, maxBackoff: .milliseconds(200)),
            kind: .webSocket(MessageProtocol(mode: .document)))
        harness.start()
        let status = try? await harness.waitForStatus("a refused attempt", timeout: .seconds(15)) {
            $0.lastError != nil
        }
        _ = await harness.stop()
        #expect(status?.lastError == "connection refused by 127.0.0.1:\(server.port)")
    }
}
