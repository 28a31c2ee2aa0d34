import FeedCore
import Foundation
import TestSupport
import Testing

/// `/events` end to end over real sockets: the real binary on a live scripted upstream
/// (in-process feedweb only where an interval has no option).
@Suite(.serialized, .timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct StreamDocumentTests {
    static func eventID(_ event: SSEEvent) throws -> EventID {
        try #require(EventID(parsing: event.id), "id \(event.id) is EPOCH-SEQ")
    }

    // MARK: - The sequence

    @Test func dataThenPatchesReproduceTheStateWithConsecutiveIds() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        let client = try await SSETestClient(port: feedweb.port)
        #expect(client.status == 200)
        #expect(client.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(client.headers["cache-control"] == "no-cache")
        #expect(client.headers["x-accel-buffering"] == "no")

        let data = try await client.expectNext("data")
        let firstBytes = String(decoding: client.received.prefix(16), as: UTF8.self)
        #expect(firstBytes.hasPrefix("retry:"), "the stream starts with retry:, not \(firstBytes)")
        var document = try JSONValue(parsing: data.data)
        var id = try Self.eventID(data)
        let initial = try await FeedwebProbe.state(port: feedweb.port)
        #expect(initial.id == data.id, "the data event carries the state's id")
        #expect(document == initial.document)

        for n in 0..<14 {
            try await upstream.scriptedChange(n)
            let patch = try await client.expectNext("patch")
            let next = try Self.eventID(patch)
            #expect(next.epoch == id.epoch, "one epoch per process")
            #expect(next.seq == id.seq + 1, "ids count up by one: \(id) then \(next)")
            id = next
            try JSONPatch(parsing: patch.data).apply(to: &document)
            let state = try await FeedwebProbe.state(port: feedweb.port)
            #expect(state.id == patch.id, "nothing else changed: /api/state is at the patch's id")
            #expect(state.document == document, "data + patches = /api/state after change \(n)")
            #expect(document == upstream.document, "and equals the upstream's document")
        }
        await upstream.shutdown()
    }

    // MARK: - Resume

    /// Reads the stream to a known point, closes it, lets `missed` changes happen, then
    /// returns the id and document the client had, and the document upstream has now.
    static func disconnect(
        after seen: Int, thenMiss missed: Int, upstream: LiveFeedUpstream, port: UInt16
    ) async throws -> (id: String, document: JSONValue) {
        let client = try await SSETestClient(port: port)
        var document = try await JSONValue(parsing: client.expectNext("data").data)
        var last = ""
        for n in 0..<seen {
            try await upstream.scriptedChange(n)
            let patch = try await client.expectNext("patch")
            try JSONPatch(parsing: patch.data).apply(to: &document)
            last = patch.id
        }
        client.close()
        for n in seen..<(seen + missed) { try await upstream.scriptedChange(n) }
        try await FeedwebProbe.waitForState(upstream.document, port: port)
        return (last, document)
    }

    /// A fresh snapshot on `client` brought up to `id` (what /api/state showed): its `data`
    /// event, then the patches up to `id`, applied. The streams' state may trail /api/state by
    /// the change still on its way to them (the fan-out stage hands a change on after the
    /// store has it); then the snapshot is of a change before, and the changes after follow.
    static func snapshot(
        on client: SSETestClient, upTo id: String
    ) async throws -> (data: SSEEvent, patches: [SSEEvent], document: JSONValue) {
        let data = try await client.expectNext("data")
        var document = try JSONValue(parsing: data.data)
        var patches: [SSEEvent] = []
        var last = try eventID(data)
        let target = try #require(EventID(parsing: id))
        while last.epoch == target.epoch, last.seq < target.seq {
            let patch = try await client.expectNext("patch")
            try JSONPatch(parsing: patch.data).apply(to: &document)
            patches.append(patch)
            last = try eventID(patch)
        }
        return (data, patches, document)
    }

    @Test func resumeInsideHistoryGetsOnlyTheMissedPatches() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        let (lastID, seenDocument) = try await Self.disconnect(
            after: 2, thenMiss: 3, upstream: upstream, port: feedweb.port)
        let last = try #require(EventID(parsing: lastID))
        let current = try await FeedwebProbe.state(port: feedweb.port)

        var answers: [[SSEEvent]] = []
        var clients: [SSETestClient] = []
        for (path, headers) in [
            ("/events", ["Last-Event-ID": lastID]),
            ("/events?lastEventId=\(lastID)", [:]),
            ("/events?last_event_id=\(lastID)", [:]),
        ] {
            let client = try await SSETestClient(port: feedweb.port, path: path, headers: headers)
            let events = try await client.events(untilQuietFor: 0.6)
            #expect(events.map(\.type) == ["patch", "patch", "patch"], "\(path): only the 3 missed patches, no data")
            #expect(
                try events.map { try Self.eventID($0) }
                    == (1...3).map { EventID(epoch: last.epoch, seq: last.seq + UInt64($0)) })
            var document = seenDocument
            for event in events { try JSONPatch(parsing: event.data).apply(to: &document) }
            #expect(document == current.document, "\(path): the missed patches lead to /api/state")
            #expect(String(decoding: client.received.prefix(6), as: UTF8.self) == "retry:")
            answers.append(events)
            clients.append(client)
        }
        #expect(answers[1] == answers[0] && answers[2] == answers[0], "header and both query forms agree")

        // The streams then go on live.
        try await upstream.scriptedChange(10)
        for client in clients {
            #expect(try await Self.eventID(client.expectNext("patch")).seq == last.seq + 4)
        }

        // A client that is up to date gets nothing until the next change.
        let now = try await FeedwebProbe.state(port: feedweb.port)
        let upToDate = try await SSETestClient(port: feedweb.port, headers: ["Last-Event-ID": now.id])
        #expect(try await upToDate.events(untilQuietFor: 0.5, firstWithin: 0.5).isEmpty)
        await upstream.shutdown()
    }

    @Test func resumeOutsideHistoryGetsAFreshDataEvent() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--history", "2"])
        defer { feedweb.kill() }
        let (lastID, _) = try await Self.disconnect(after: 1, thenMiss: 4, upstream: upstream, port: feedweb.port)
        let current = try await FeedwebProbe.state(port: feedweb.port)

        let client = try await SSETestClient(port: feedweb.port, headers: ["Last-Event-ID": lastID])
        // The gap is said in-band with the whole document (of /api/state's change, or of the
        // one before it while that change is on its way to the streams).
        let fresh = try await Self.snapshot(on: client, upTo: current.id)
        #expect(fresh.document == current.document, "the gap is said in-band with the whole document")
        try await upstream.scriptedChange(20)
        let patch = try await client.expectNext("patch")
        #expect(try Self.eventID(patch).seq == Self.eventID(fresh.patches.last ?? fresh.data).seq + 1)

        // Inside those 2 it still resumes with patches.
        let recent = try await SSETestClient(port: feedweb.port, headers: ["Last-Event-ID": current.id])
        #expect(try await recent.events(untilQuietFor: 0.5).map(\.id) == [patch.id])
        await upstream.shutdown()
    }

    @Test func resumeAcrossARestartGetsAFreshDataEvent() async throws {
        let (upstream, first) = try await LiveFeedUpstream.withFeedweb()
        let (oldID, _) = try await Self.disconnect(after: 2, thenMiss: 0, upstream: upstream, port: first.port)
        let old = try #require(EventID(parsing: oldID))
        #expect(await first.stop()?.status == 0)

        let second = try await FeedwebProcess(arguments: ["--upstream", upstream.url])
        defer { second.kill() }
        try await FeedwebProbe.waitForState(upstream.document, port: second.port, within: 20)
        // Take the new process past the old sequence number, so its history covers the old
        // seq and only the epoch can tell the ids apart.
        for n in 0..<Int(old.seq) + 2 { try await upstream.scriptedChange(n) }
        let current = try await FeedwebProbe.state(port: second.port, waitingFor: upstream.document)
        let now = try #require(EventID(parsing: current.id))
        #expect(now.epoch != old.epoch, "a new process has a new epoch")
        #expect(now.seq > old.seq)

        let client = try await SSETestClient(port: second.port, headers: ["Last-Event-ID": oldID])
        // An id of the old process gets a fresh snapshot (`expectNext("data")` fails on a
        // patch), then nothing past /api/state's change.
        let fresh = try await Self.snapshot(on: client, upTo: current.id)
        #expect(fresh.document == current.document)
        #expect(try await client.events(untilQuietFor: 0.6, firstWithin: 0.6).isEmpty)
        await upstream.shutdown()
    }

    // MARK: - Modes and headers

    @Test func snapshotOnlyModeSendsTheWholeDocumentOnEveryChange() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        let snapshots = try await SSETestClient(port: feedweb.port, headers: ["Accept": "application/json"])
        let mixed = try await SSETestClient(
            port: feedweb.port, headers: ["Accept": "application/json, text/event-stream"])
        let patches = try await SSETestClient(
            port: feedweb.port, headers: ["Accept": "text/event-stream, application/json"])
        #expect(snapshots.status == 200)
        #expect(snapshots.headers["content-type"] == "text/event-stream; charset=utf-8")
        for client in [snapshots, mixed] {
            #expect(try await JSONValue(parsing: client.expectNext("data").data) == upstream.document)
        }
        _ = try await patches.expectNext("data")
        for n in 0..<4 {
            try await upstream.scriptedChange(n)
            let state = try await FeedwebProbe.state(port: feedweb.port, waitingFor: upstream.document)
            for client in [snapshots, mixed] {
                let data = try await client.expectNext("data")
                #expect(data.id == state.id)
                #expect(try JSONValue(parsing: data.data) == upstream.document, "change \(n): the whole document")
            }
            #expect(try await patches.expectNext("patch").id == state.id, "text/event-stream first: patches")
        }
        // Resuming in snapshot mode still starts with the whole document.
        let resumed = try await SSETestClient(
            port: feedweb.port,
            headers: [
                "Accept": "application/json", "Last-Event-ID": try await FeedwebProbe.state(port: feedweb.port).id,
            ])
        #expect(try await JSONValue(parsing: resumed.expectNext("data").data) == upstream.document)
        await upstream.shutdown()
    }

    @Test func streamdataTokenIsAcceptedAndIgnored() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        let withHeader = try await SSETestClient(port: feedweb.port, headers: ["X-Sd-Token": "c2VjcmV0LXRva2Vu"])
        let withQuery = try await SSETestClient(port: feedweb.port, path: "/events?X-Sd-Token=c2VjcmV0LXRva2Vu")
        for client in [withHeader, withQuery] {
            #expect(client.status == 200)
            #expect(try await JSONValue(parsing: client.expectNext("data").data) == upstream.document)
        }
        try await upstream.scriptedChange(0)
        let state = try await FeedwebProbe.state(port: feedweb.port, waitingFor: upstream.document)
        for client in [withHeader, withQuery] {
            #expect(try await client.expectNext("patch").id == state.id)
        }
        await upstream.shutdown()
    }

    @Test func headAnswersTheStreamHeadersWithoutABody() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer { feedweb.kill() }
        for path in ["/events", "/events/items"] {
            let socket = try await RawSocket(port: feedweb.port, timeout: 5)
            try await socket.send("HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            let started = Date()
            let (status, headers) = try await HTTPTestClient.readHead(from: socket)
            #expect(status == 200)
            #expect(headers["content-type"] == "text/event-stream; charset=utf-8")
            #expect(headers["cache-control"] == "no-cache")
            #expect(headers["x-accel-buffering"] == "no")
            #expect(Date().timeIntervalSince(started) < 2, "answered at once, not streamed")
            // No body follows: a second request on the same connection is answered next.
            try await socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let next = try await HTTPTestClient.readResponse(from: socket, method: "GET")
            #expect(next.status == 200, "\(path): the HEAD answer had no body in the way")
            #expect(next.text.contains("ok"))
        }
        await upstream.shutdown()
    }

    @Test func heartbeatCommentsArrive() async throws {
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [2, 1]))
        let feedweb = try InProcessFeedweb(upstream: upstream.url) { $0.streams.heartbeatInterval = .milliseconds(300) }
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port, within: 10)
        let client = try await SSETestClient(port: feedweb.port)
        _ = try await client.expectNext("data")
        let start = client.received.count
        // No events are due; only comments arrive, which the parser swallows.
        #expect(try await client.events(untilQuietFor: 2.5, firstWithin: 2.5).isEmpty)
        let text = String(decoding: client.received[start...], as: UTF8.self)
        let comments = text.split(separator: "\n").filter { $0.hasPrefix(":") }
        #expect(comments.count >= 2, "heartbeats every 0.3 s: \(text.debugDescription)")
        #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix(":") }, "nothing but comments")
        try await feedweb.stop()
        await upstream.shutdown()
    }
}

extension FeedwebProbe {
    /// `/api/state` once it equals `document`.
    static func state(port: UInt16, waitingFor document: JSONValue) async throws -> (document: JSONValue, id: String) {
        let id = try await waitForState(document, port: port)
        return (document, id)
    }
}
