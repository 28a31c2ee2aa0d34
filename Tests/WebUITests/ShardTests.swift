import FeedCore
import Glibc
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import WebUI

/// The programs' streams spread over shards: a client lands in the broadcaster of the
/// shard it is handed, and a change reaches every shard's clients, each once.
@Suite("Shards", .onThreadsOfItsOwn)
struct ShardTests {
    private func parse(_ stream: StreamConnection) throws -> [SSEEvent] {
        var parser = SSEParser()
        return try parser.parse(stream.takeQueued())
    }

    @Test func eachClientIsInItsShardAndEveryShardGetsEachChangeOnce() throws {
        var server = HTTPServer.Configuration(address: try ListenAddress(parsing: "127.0.0.1:0"), maxStreams: 100)
        server.streamSenders = 3
        let app = TestHandlers(document: NewswireFeed.document(stories: [1, 2, 3]), server: server)
        let shards = app.handlers.shards
        #expect(shards.map(\.index) == [0, 1, 2])
        #expect(shards.allSatisfy { $0.sender != nil }, "each shard has its own sender")

        // Two `/events` and one `/events/items` client per shard.
        var clients: [(stream: StreamConnection, shard: Shard, items: Bool, end: @Sendable () -> Void)] = []
        for shard in shards {
            for path in ["/events", "/events", "/events/items"] {
                let start = try app.streamStart(HTTPRequest(path: path))
                let stream = StreamConnection(maxQueuedBytes: start.maxQueuedBytes)
                clients.append((stream, shard, path == "/events/items", start.open(stream, on: shard)))
            }
        }
        #expect(shards.map { $0.events.count } == [2, 2, 2])
        #expect(shards.map { $0.items.count } == [1, 1, 1])
        #expect(app.handlers.streams.events.clientCount == 6)
        for client in clients { _ = client.stream.takeQueued() }

        app.store.replaceDocument(NewswireFeed.document(stories: [4, 1, 2, 3]))
        app.handlers.fanout.drain()
        let seq = try #require(app.store.snapshot?.id.description)
        for client in clients {
            let events = try parse(client.stream)
            #expect(events.allSatisfy { $0.id == seq }, "shard \(client.shard.index)")
            #expect(events.map(\.type) == (client.items ? ["added"] : ["patch"]), "shard \(client.shard.index)")
        }

        for client in clients { client.end() }
        #expect(shards.allSatisfy { $0.events.count == 0 && $0.items.count == 0 })
    }

    @Test func aChangeIsEncodedOnceAndQueuedByEveryShard() throws {
        var server = HTTPServer.Configuration(address: try ListenAddress(parsing: "127.0.0.1:0"), maxStreams: 100)
        server.streamSenders = 3
        let app = TestHandlers(document: NewswireFeed.document(stories: [1, 2, 3]), server: server)
        // One `/events` and one `/events/items` client per shard.
        var clients: [(stream: StreamConnection, items: Bool, end: @Sendable () -> Void)] = []
        for shard in app.handlers.shards {
            for path in ["/events", "/events/items"] {
                let start = try app.streamStart(HTTPRequest(path: path))
                let stream = StreamConnection(maxQueuedBytes: start.maxQueuedBytes)
                clients.append((stream, path == "/events/items", start.open(stream, on: shard)))
                _ = stream.takeQueued()
            }
        }
        app.store.replaceDocument(NewswireFeed.document(stories: [4, 1, 2, 3]))
        app.handlers.fanout.drain()
        // What each client would be sent: the address of its one queued event's bytes.
        func queuedEvents(items: Bool) -> [UInt?] {
            clients.filter { $0.items == items }.map { client in
                guard case .send(let chunks, _, _) = client.stream.visit(takingUpTo: 1 << 20) else { return nil }
                return chunks.rest.isEmpty ? WriteMarks.address(of: chunks.first) : nil
            }
        }
        for items in [false, true] {
            let events = queuedEvents(items: items)
            #expect(events.count == 3 && events.allSatisfy { $0 != nil }, "one event per client: \(events)")
            #expect(Set(events).count == 1, "one buffer in every shard's queues (items: \(items))")
        }
        for client in clients { client.end() }
    }

    @Test func shardsWithFewClientsAreDoneOnTheCallersThreadAndEveryShardIsDoneOnReturn() throws {
        var server = HTTPServer.Configuration(address: try ListenAddress(parsing: "127.0.0.1:0"), maxStreams: 100)
        server.streamSenders = 3
        let app = TestHandlers(document: NewswireFeed.document(stories: [1, 2, 3]), server: server)
        let shards = app.handlers.shards
        let caller = pthread_self()
        /// Per shard index, with `clients[index]` clients: whether its work ran on the caller's thread.
        func runEverywhere(clients: [Int]) -> [Int: Bool] {
            let ranHere = NIOLockedValueBox<[Int: Bool]>([:])
            EveryShard.run(shards, clients: clients) { shard in
                // Slow enough that a `run` returning before its shards were done would show.
                usleep(20_000)
                let here = pthread_equal(pthread_self(), caller) != 0
                ranHere.withLockedValue { $0[shard.index] = here }
            }
            return ranHere.withLockedValue { $0 }
        }
        let few = EveryShard.inParallelFrom - 1
        let many = EveryShard.inParallelFrom
        #expect(runEverywhere(clients: [0, few, few]) == [0: true, 1: true, 2: true], "no thread woken for a few")
        let mixed = runEverywhere(clients: [many, few, many])
        #expect(mixed.keys.sorted() == [0, 1, 2], "every shard done when run returns")
        #expect(mixed[1] == true, "the small shard on the caller's thread")
        #expect(runEverywhere(clients: [many, few, 0]) == [0: true, 1: true, 2: true], "one large shard: here")
    }

    @Test func aStreamOfItsOwnKeepsItsClientsWhateverShardTheyAreHanded() throws {
        let app = TestHandlers(document: NewswireFeed.document(stories: [1, 2]))
        let upstream = FeedStore(configuration: .init(profile: .nytNewswire))
        upstream.replaceDocument(NewswireFeed.document(stories: [7, 8]))
        let own = DocumentEventStream(ownClientsOf: upstream)
        let stream = StreamConnection(maxQueuedBytes: 1 << 20)
        own.subscribe(stream, on: app.shard, mode: .patches, lastEventID: nil)
        #expect(own.clientCount == 1)
        #expect(app.shard.events.count == 0, "not among the mirror's /events clients")
        let events = try parse(stream)
        #expect(events.map(\.type) == ["data"])
        #expect(
            try JSONValue(parsing: Array((events.first?.data ?? "").utf8)) == NewswireFeed.document(stories: [7, 8]))
        own.unsubscribe(stream, on: app.shard)
        #expect(own.clientCount == 0)
    }
}
