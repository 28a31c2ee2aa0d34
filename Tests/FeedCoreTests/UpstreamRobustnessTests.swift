import FeedCore
import Foundation
import TestSupport
import Testing

@Suite("Upstream connection: bounds, timeouts, TLS, cancellation, status", .serialized, .onThreadsOfItsOwn)
struct UpstreamRobustnessTests {
    // MARK: Oversized events

    @Test("an event over maxEventBytes drops the connection and is reported; events before it still apply")
    func oversizedEvent() async throws {
        let small = SSEText.event("data", data: Upstream.document(1), id: "ok-1", retry: 50)
        let big = SSEText.event(
            "data", data: Upstream.document(2, marker: String(repeating: "x", count: 5000)), id: "big")
        try await Upstream.run(
            // Both in one write: the small event must not be lost with the big one.
            [.stream([.text(small + big)], ending: .stayOpen)],
            then: .events(SSEText.comment(), ending: .stayOpen),
            options: .init(maxEventBytes: 1024)
        ) { server, upstream in
            let requests = try await server.waitForRequests(2)
            let dropped = try await server.waitForClose(ofConnection: 0)
            #expect(dropped.closedByClient)
            #expect(Upstream.version(upstream.document) == 1)
            try await upstream.waitUntil("the document, observed") { !upstream.acceptedDocuments.isEmpty }
            #expect(upstream.acceptedDocuments.count == 1)
            #expect(upstream.status.lastError == "an event exceeded 1024 bytes")
            // The big event never completed, so its id was never committed.
            #expect(requests[1].header("Last-Event-ID") == "ok-1")
        }
    }

    @Test("a line that never ends is dropped once it passes maxEventBytes: memory stays bounded")
    func endlessLine() async throws {
        let chunk = ScriptedSSEServer.Step.text(String(repeating: "y", count: 256))
        try await Upstream.run(
            [.stream([.text("data: ")] + Array(repeating: chunk, count: 64), ending: .stayOpen)],
            then: .events(SSEText.comment(), ending: .stayOpen),
            options: .init(maxEventBytes: 4096)
        ) { server, upstream in
            try await server.waitForRequests(2)
            let dropped = try await server.waitForClose(ofConnection: 0)
            #expect(dropped.closedByClient)
            #expect(upstream.status.lastError == "an event exceeded 4096 bytes")
            #expect(upstream.document == nil)
        }
    }

    // MARK: Read timeout

    @Test("headers and an event, then silence: reconnect after the read timeout")
    func silentBody() async throws {
        try await Upstream.run(
            [.events(SSEText.event("data", data: Upstream.document(1), id: "s-1", retry: 50), ending: .stayOpen)],
            then: .events(SSEText.comment(), ending: .stayOpen),
            options: .init(readTimeout: .milliseconds(500))
        ) { server, upstream in
            let requests = try await server.waitForRequests(2, timeout: .seconds(5))
            let dropped = try await server.waitForClose(ofConnection: 0)
            #expect(dropped.closedByClient)
            let gap = (requests[1].receivedAt - requests[0].receivedAt).timeInterval
            // 0.5 s of silence, then a delay of at most 50 ms (the connection delivered an event).
            #expect(gap >= 0.5 && gap < 0.5 + 0.05 + 1.5, "gap \(gap)")
            #expect(upstream.status.lastError == "no data from upstream within the read timeout")
            #expect(requests[1].header("Last-Event-ID") == "s-1")
        }
    }

    @Test("a server that accepts the request and never answers: reconnect after the read timeout")
    func silentServer() async throws {
        try await Upstream.run(
            [.silent], then: .events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen),
            options: .init(readTimeout: .milliseconds(500))
        ) { server, upstream in
            let requests = try await server.waitForRequests(2, timeout: .seconds(5))
            let gap = (requests[1].receivedAt - requests[0].receivedAt).timeInterval
            #expect(gap >= 0.5 && gap < 0.5 + 0.3 + 1.5, "gap \(gap)")
            #expect(upstream.status.lastError == "no data from upstream within the read timeout")
            try await upstream.waitUntil("the document") { upstream.document != nil }
        }
    }

    @Test("heartbeat comments keep a quiet connection alive")
    func heartbeats() async throws {
        var steps: [ScriptedSSEServer.Step] = [.text(SSEText.event("data", data: Upstream.document(1)))]
        // Heartbeats every 150 ms for 3 s against a 1.5 s read timeout: only a stall of
        // more than 1.35 s (not scheduling noise on a loaded machine) could trip it.
        for _ in 0..<20 { steps += [.pause(.milliseconds(150)), .text(SSEText.comment("heartbeat"))] }
        let scripted = steps.reduce(0) { total, step in
            if case .send(let bytes) = step { return total + bytes.count }
            return total
        }
        try await Upstream.run(
            [.stream(steps, ending: .stayOpen)], then: .events(SSEText.comment(), ending: .stayOpen),
            options: .init(readTimeout: .milliseconds(1500))
        ) { server, upstream in
            try await server.waitForRequests(1)
            // Every heartbeat of the 3 s has been sent: twice the 1.5 s timeout went by
            // with nothing but heartbeats on the connection.
            try await server.waitFor("all heartbeats sent", timeout: .seconds(10)) {
                (server.connections.first?.bodyBytesSent ?? 0) >= scripted ? true : nil
            }
            #expect(server.requests.count == 1)
            #expect(server.connections.first?.isOpen == true)
            #expect(upstream.status.phase == .open)
            #expect(upstream.status.lastError == nil)
            // When the heartbeats stop, the timeout fires.
            try await server.waitForRequests(2, timeout: .seconds(10))
            #expect(upstream.status.lastError == "no data from upstream within the read timeout")
        }
    }

    @Test("nothing listening: each refused attempt is reported at once and retried with backoff")
    func connectionRefused() async throws {
        let server = try await ScriptedSSEServer.start(script: [])
        let url = server.url("/feed")
        await server.shutdown()
        let harness = try UpstreamHarness(
            server: server, configuration: .init(url: url, maxBackoff: .milliseconds(200)))
        harness.start()
        let reached: Bool
        do {
            try await harness.waitForStatus("3 refused attempts", timeout: .seconds(5)) { $0.reconnects >= 3 }
            reached = true
        } catch {
            reached = false
        }
        _ = await harness.stop()
        #expect(reached)
        #expect(
            harness.status.lastError?.lowercased().contains("refused") == true, "\(harness.status.lastError ?? "-")")
        #expect(harness.phaseNames.prefix(3) == ["connecting", "backingOff", "connecting"])
        #expect(harness.announcedDelays.allSatisfy { $0.delay < 0.201 })
    }

    // MARK: TLS

    @Test("https with a certificate from a test CA works when the CA is given as caFile")
    func httpsWithCAFile() async throws {
        try await Upstream.run(
            [.events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen)], tls: Upstream.serverTLS,
            options: .init(caFile: Upstream.caFile)
        ) { server, upstream in
            #expect(server.url().hasPrefix("https://"))
            try await upstream.waitUntil("the document") { upstream.document != nil }
            #expect(
                server.requests.first?.header("Accept")
                    == "text/event-stream, application/x-ndjson;q=0.9, application/json;q=0.8")
            #expect(upstream.status.lastError == nil)
        }
    }

    @Test("https to localhost (the certificate's DNS name) works too")
    func httpsLocalhost() async throws {
        let server = try await ScriptedSSEServer.start(
            script: [.events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen)],
            tls: Upstream.serverTLS)
        let configuration = UpstreamConfiguration(
            url: "https://localhost:\(server.port)/feed", caFile: Upstream.caFile)
        try await Upstream.run(on: server, configuration: configuration) { upstream in
            try await upstream.waitUntil("the document", timeout: .seconds(10)) { upstream.document != nil }
            #expect(upstream.document == (try JSONValue(parsing: Upstream.document(1))))
            #expect(upstream.status.phase == .open && upstream.status.lastError == nil)
        }
    }

    @Test("https with a certificate from a test CA is refused without caFile, or with another CA")
    func httpsRefused() async throws {
        for caFile in [nil, Upstream.otherCAFile] {
            try await Upstream.run(
                [.events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen)],
                then: .events(SSEText.event("data", data: Upstream.document(2)), ending: .stayOpen),
                tls: Upstream.serverTLS,
                options: .init(readTimeout: .seconds(2), caFile: caFile)
            ) { server, upstream in
                let status = try await upstream.waitForStatus("an error") { $0.lastError != nil }
                // The handshake failed: no request was ever sent, no document taken.
                _ = try await server.waitFor("2 connection attempts", timeout: .seconds(5)) {
                    server.connections.count >= 2 ? true : nil
                }
                #expect(server.requests.isEmpty, "caFile \(caFile ?? "nil")")
                #expect(upstream.document == nil)
                #expect(status.eventsReceived == 0)
                let error = status.lastError ?? ""
                #expect(error.lowercased().contains("certificate") || error.contains("handshake"), "\(error)")
                // Shown on pages and in /readyz: no file paths.
                #expect(!error.contains("/"), "\(error)")
            }
        }
    }

    // MARK: Cancellation

    @Test("cancelling the task stops the connection promptly: while open, backing off, or waiting for an answer")
    func cancellation() async throws {
        let cases: [(String, [ScriptedSSEServer.Response], Duration)] = [
            ("open", [.events(SSEText.event("data", data: Upstream.document(1)), ending: .stayOpen)], .seconds(30)),
            ("backing off", [.status(503)], .seconds(30)),
            ("stopped by upstream", [.status(204)], .seconds(30)),
            ("waiting for the head", [.silent], .seconds(30)),
        ]
        for (name, script, backoff) in cases {
            let server = try await ScriptedSSEServer.start(script: script, then: .status(503))
            let harness = try UpstreamHarness(
                server: server,
                configuration: .init(url: server.url("/feed"), maxBackoff: backoff, readTimeout: .seconds(30)))
            harness.start()
            let reached: Bool
            do {
                try await server.waitForRequests(1)
                try await harness.waitUntil("the phase for \(name)") {
                    switch (name, harness.status.phase) {
                    case ("open", .open), ("backing off", .backingOff), ("stopped by upstream", .stoppedByUpstream),
                        ("waiting for the head", .connecting):
                        return true
                    default: return false
                    }
                }
                reached = true
            } catch {
                reached = false
            }
            let took = await harness.stop(within: .seconds(3))
            #expect(reached, "\(name): phase never reached")
            #expect(took != nil, "\(name): run() did not return within 3 s")
            if let took { #expect(took < .seconds(2), "\(name): stopping took \(took)") }
            #expect(harness.status.phase == .stopped, "\(name)")
            #expect(harness.status.connectedSince == nil, "\(name)")
            // The open connection (if any) is closed, and nothing reconnects afterwards.
            if !server.connections.isEmpty {
                let record = try await server.waitForClose(ofConnection: 0, timeout: .seconds(3))
                #expect(!record.isOpen)
            }
            // Nothing reconnects afterwards: run() was the connection's only task, and it
            // has returned (checked above).
            await server.shutdown()
        }
    }

    @Test("run() in an already cancelled task returns at once with the phase stopped")
    func cancelledBeforeStart() async throws {
        let server = try await ScriptedSSEServer.start(script: [])
        let harness = try UpstreamHarness(server: server, configuration: .init(url: server.url("/feed")))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await harness.connection.run()
        }
        _ = try await server.waitFor("run() to return", timeout: .seconds(3)) {
            harness.status.phase == .stopped ? true : nil
        }
        await task.value
        #expect(server.requests.isEmpty)
        await server.shutdown()
    }

    // MARK: Status

    @Test("status: phases in order and counters exact")
    func statusAndCounters() async throws {
        let first = [
            SSEText.event("data", data: Upstream.document(1), id: "c-1", retry: 50),
            SSEText.comment("a comment counts as bytes, not as an event"),
            SSEText.event("patch", data: Upstream.setVersion(2), id: "c-2"),
        ]
        let second = SSEText.event("monitor", data: "{}")
        let bytes = (first + [second]).reduce(0) { $0 + $1.utf8.count }
        let began = Date()
        try await Upstream.run(
            [.stream(first.map(ScriptedSSEServer.Step.text)), .events(second, ending: .stayOpen)]
        ) { server, upstream in
            try await server.waitForRequests(2)
            // Bytes are counted as they are read, events once the committer has taken them:
            // wait for both, then check that the counts are exact.
            let status = try await upstream.waitForStatus("all bytes and events") {
                $0.bytesReceived == UInt64(bytes) && $0.eventsReceived >= 3
            }
            #expect(status.bytesReceived == UInt64(bytes))
            #expect(status.eventsReceived == 3)
            #expect(status.reconnects == 1)
            #expect(status.phase == .open)
            // Both moments lie within this test, the event no earlier than the connection.
            let connectedSince = try #require(status.connectedSince)
            let lastEventAt = try #require(status.lastEventAt)
            #expect(connectedSince > began && connectedSince <= Date())
            #expect(lastEventAt >= connectedSince && lastEventAt <= Date())
            #expect(status.lastError == "upstream closed the stream")
            #expect(status.rejectedPatches == 0 && status.ignoredEvents == 0 && status.upstreamErrors == 0)
            #expect(upstream.phaseNames == ["connecting", "open", "backingOff", "connecting", "open"])
            // While open the badge is live; between connections it is not.
            let openStatuses = upstream.statuses.filter { $0.status.phase == .open }
            #expect(openStatuses.allSatisfy { $0.status.isConnected })
            let backingOff = upstream.statuses.filter {
                if case .backingOff = $0.status.phase { return true }
                return false
            }
            #expect(backingOff.allSatisfy { !$0.status.isConnected && $0.status.connectedSince == nil })
        }
    }
}
