import FeedCore
import Foundation
import TestSupport
import Testing

/// The past (`?at=`), against the real binary on a live upstream that also resyncs (a fresh
/// `data`) and sends a patch that does not apply (rejected: feedweb reconnects): a client
/// that reads `/events` from the start records the document after every event; then
/// `?at=ID` must give exactly that document (compared as canonical JSON) for 500 random
/// ids, those just after a resync and a rejection among them; `?at=TIME` the last change at
/// or before that time; `/api/changes?since=` applied to the document at `since` gives
/// `/api/state`; outside what is kept, 410 naming the earliest change kept.
@Suite(.serialized, .timeLimit(.minutes(4)), .onThreadsOfItsOwn)
struct PastTests {
    /// What the recording client held after each event, in order.
    struct Recording {
        var ids: [String] = []
        var documents: [String: String] = [:]
        /// Ids of the changes an upstream resync (a fresh `data`) and a reconnection after a
        /// rejected patch led to.
        var afterResync: [String] = []
        var afterRejection: [String] = []
    }

    static func canonical(_ value: JSONValue) -> String { value.serializedString(sortedKeys: true) }

    /// Reads events until the recorder holds change `id`, noting the document after each.
    static func record(
        _ client: SSETestClient, into recording: inout Recording, document: inout JSONValue, until id: String
    ) async throws {
        while recording.ids.last != id {
            let event = try await client.next(before: Date().addingTimeInterval(10))
            switch event.type {
            case "data":
                document = try JSONValue(parsing: Array(event.data.utf8))
            case "patch":
                try JSONPatch(parsing: Array(event.data.utf8)).apply(to: &document)
            default:
                continue
            }
            recording.ids.append(event.id)
            recording.documents[event.id] = canonical(document)
        }
    }

    /// A live upstream with feedweb on it (history enough for every change made here) and a
    /// recording of 540 changes: scripted patches, a resync every 60, a rejected patch every 60.
    static func recorded() async throws -> (LiveFeedUpstream, FeedwebProcess, Recording) {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--history", "5000", "--max-backoff", "0.2"])
        let port = feedweb.port
        let client = try await SSETestClient(port: port, path: "/events")
        defer { client.close() }
        var recording = Recording()
        var document = JSONValue.null
        let (_, first) = try await FeedwebProbe.state(port: port)
        try await record(client, into: &recording, document: &document, until: first)
        for n in 0..<540 {
            switch n % 60 {
            case 30:
                var fresh = upstream.document
                try JSONPatch(json: .array([Patch.replace("/status", .string("resynced \(n)"))])).apply(to: &fresh)
                try await upstream.sendSnapshot(fresh)
                let id = try await FeedwebProbe.waitForState(fresh, port: port, within: 10)
                try await record(client, into: &recording, document: &document, until: id)
                recording.afterResync.append(id)
                continue
            case 45:
                // A patch that cannot apply: feedweb rejects it whole and reconnects, to a
                // document that moved on meanwhile.
                try await upstream.server.push(
                    bytes: SSEEncoder.event(type: "patch", data: #"[{"op":"remove","path":"/no/such/member"}]"#))
                var moved = upstream.document
                try JSONPatch(json: .array([Patch.replace("/status", .string("after rejection \(n)"))])).apply(
                    to: &moved)
                upstream.restartStreams(with: moved)
                let id = try await FeedwebProbe.waitForState(moved, port: port, within: 10)
                try await record(client, into: &recording, document: &document, until: id)
                recording.afterRejection.append(id)
                continue
            default:
                try await upstream.scriptedChange(n)
            }
            if n % 20 == 19 {
                let id = try await FeedwebProbe.waitForState(upstream.document, port: port, within: 10)
                try await record(client, into: &recording, document: &document, until: id)
            }
        }
        let last = try await FeedwebProbe.waitForState(upstream.document, port: port, within: 10)
        try await record(client, into: &recording, document: &document, until: last)
        return (upstream, feedweb, recording)
    }

    @Test("?at=ID is what a recording client held, for 500 random ids; ?at=TIME picks the last change by then")
    func atIDAndTime() async throws {
        let (upstream, feedweb, recording) = try await Self.recorded()
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        let port = feedweb.port
        #expect(recording.afterResync.count >= 8, "resyncs recorded: \(recording.afterResync)")
        #expect(recording.afterRejection.count >= 8, "rejections recorded: \(recording.afterRejection)")
        let sample = Array(Set(recording.ids.shuffled().prefix(500) + recording.afterResync + recording.afterRejection))
        var times: [String: WallTime] = [:]
        for id in sample {
            let response = try await HTTPTestClient.get(port: port, "/api/state?at=\(id)")
            #expect(response.status == 200, "?at=\(id)")
            #expect(response.headers["x-feedweb-event-id"] == id)
            let held = try #require(recording.documents[id])
            #expect(Self.canonical(try JSONValue(parsing: response.body)) == held, "?at=\(id) is what the client held")
            times[id] = WallTime(rfc3339: response.headers["x-feedweb-event-time"] ?? "")
            #expect(times[id] != nil, "\(id) has a time")
        }
        // By time: the last change (in order) whose time is at or before the one asked for.
        let known = recording.ids.filter { times[$0] != nil }
        for id in sample.shuffled().prefix(40) {
            let time = try #require(times[id])
            let expected = try #require(known.last { times[$0]! <= time })
            let response = try await HTTPTestClient.get(port: port, "/api/state?at=\(time)")
            #expect(response.status == 200)
            let answered = try #require(response.headers["x-feedweb-event-id"])
            // Ids not sampled may share the time; the answer is never before the expected one.
            let index = try #require(recording.ids.firstIndex(of: answered))
            #expect(index >= recording.ids.firstIndex(of: expected)!, "?at=\(time) gave \(answered), not \(expected)")
            #expect(times[answered].map { $0 <= time } ?? true)
            #expect(
                Self.canonical(try JSONValue(parsing: response.body)) == recording.documents[answered],
                "?at=\(time) is the document after \(answered)")
        }
        // Before anything kept: 410 naming the earliest.
        let first = try #require(recording.ids.first)
        let before = WallTime(microseconds: try #require(times[first] ?? times.values.min()).microseconds - 60_000_000)
        let old = try await HTTPTestClient.get(port: port, "/api/state?at=\(before)")
        #expect(old.status == 410)
        #expect(try JSONValue(parsing: old.body)["earliest"]?["id"]?.stringValue == first)
        #expect(try await HTTPTestClient.get(port: port, "/api/state?at=not-a-moment").status == 400)
        // The pages of the past.
        let page = try await HTTPTestClient.get(port: port, "/?at=\(first)")
        #expect(page.status == 200)
        #expect(page.text.contains("class=\"past-banner\""))
        #expect(page.text.contains("data-stream=\"\""), "a page of the past has no stream")
        #expect(try await HTTPTestClient.get(port: port, "/kiosk?at=\(first)").status == 200)
    }

    @Test("/api/changes?since= applied to the document at since gives /api/state, across resyncs")
    func changesSince() async throws {
        let (upstream, feedweb, recording) = try await Self.recorded()
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        let port = feedweb.port
        let (now, _) = try await FeedwebProbe.state(port: port)
        for since in recording.ids.shuffled().prefix(60) + recording.afterResync.prefix(3) {
            var document = try JSONValue(
                parsing: try await HTTPTestClient.get(port: port, "/api/state?at=\(since)").body)
            var next = since
            var rounds = 0
            while true {
                rounds += 1
                #expect(rounds < 100)
                let answer = try JSONValue(
                    parsing: try await HTTPTestClient.get(port: port, "/api/changes?since=\(next)").body)
                for change in answer["changes"]?.arrayValue ?? [] {
                    if let patch = change["patch"] {
                        try JSONPatch(json: patch).apply(to: &document)
                    } else {
                        document = try #require(change["document"])
                    }
                }
                next = try #require(answer["next"]?.stringValue)
                if answer["more"] != .bool(true) { break }
            }
            #expect(document == now, "since \(since): the changes lead to /api/state")
        }
        // An id not kept: the current document to start over from.
        let unknown = try JSONValue(parsing: try await HTTPTestClient.get(port: port, "/api/changes?since=zz-3").body)
        #expect(unknown["document"] == now)
        #expect(try await HTTPTestClient.get(port: port, "/api/changes?since=").status == 400)
    }

    @Test("outside --history: 410 with the earliest id kept, which itself answers")
    func tooOld() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--history", "20"])
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        let port = feedweb.port
        let (_, first) = try await FeedwebProbe.state(port: port)
        for n in 0..<30 { try await upstream.change([Patch.replace("/status", .string("n\(n)"))], bumpVersion: false) }
        try await FeedwebProbe.waitForState(upstream.document, port: port)
        let old = try await HTTPTestClient.get(port: port, "/api/state?at=\(first)")
        #expect(old.status == 410)
        let earliest = try #require(try JSONValue(parsing: old.body)["earliest"]?["id"]?.stringValue)
        #expect(earliest != first)
        #expect(try await HTTPTestClient.get(port: port, "/api/state?at=\(earliest)").status == 200)
        #expect(try await HTTPTestClient.get(port: port, "/?at=\(first)").status == 410)
    }
}
