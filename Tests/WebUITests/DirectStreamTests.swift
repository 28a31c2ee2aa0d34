import FeedCore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import WebUI

/// Streams the front door opens itself (a plain `GET /events` or `/events/items`), through
/// real sockets: the same head and events as libmicrohttpd's streams, a place among the
/// server's streams and connections for as long as they last, given back when the client
/// hangs up, and libmicrohttpd's refusal at the stream limit.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct DirectStreamTests {
    /// The door keeps a silent connection for 10 s here, not 250 ms, so that a test task
    /// delayed between its connect and its request (a loaded machine) still has its stream
    /// opened at the door, not handed to libmicrohttpd.
    static let holdLimit: Duration = .seconds(10)

    static func withoutDate(_ headers: [String: String]) -> [String: String] {
        headers.filter { $0.key != "date" }
    }

    /// `/events/items?section=Arts`: the first story of the document (story 5) is in Arts, and
    /// the change retitles it; the same section escaped (`%41rt%73`), which the door decodes
    /// as libmicrohttpd does.
    @Test(arguments: ["/events", "/events/items?section=Arts", "/events/items?section=%41rt%73"])
    func aPlainGetIsOpenedAtTheDoorWithLibmicrohttpdsHeadAndEvents(path: String) async throws {
        let server = try TestServer(
            document: NewswireFeed.document(count: 6, version: 1), frontDoorHoldLimit: Self.holdLimit)
        let direct = try await SSETestClient(port: server.port, path: path)
        #expect(server.server.connectionCounts.streamsAtDoor == 1)
        // The same stream through libmicrohttpd: an empty argument in the query (which
        // libmicrohttpd skips) is not a request the door opens.
        let separator = path.contains("?") ? "&" : "?"
        let fromDaemon = try await SSETestClient(port: server.port, path: path + separator + "unused&&")
        #expect(server.server.connectionCounts.streamsAtDoor == 1, "an empty argument is libmicrohttpd's")
        #expect(server.server.openStreamCount == 2)

        #expect(direct.status == 200)
        #expect(Self.withoutDate(direct.headers) == Self.withoutDate(fromDaemon.headers))
        #expect(direct.headers["transfer-encoding"] == "chunked")
        let first = try await direct.next(before: Date().addingTimeInterval(5))
        let daemonFirst = try await fromDaemon.next(before: Date().addingTimeInterval(5))
        #expect(first.type == daemonFirst.type)
        #expect(first.data == daemonFirst.data)
        #expect(first.id == daemonFirst.id)

        try StreamSenderTests.bump(server.store, to: 2, padding: 10)
        let daemonNext = try await fromDaemon.next(before: Date().addingTimeInterval(5))
        let next = try await direct.next(before: Date().addingTimeInterval(5))
        #expect(!next.id.isEmpty)
        #expect(next.type == daemonNext.type)
        #expect(next.id == daemonNext.id)
        #expect(next.data == daemonNext.data)
    }

    @Test func aClientThatHangsUpGivesItsPlacesBack() async throws {
        let server = try TestServer(
            document: NewswireFeed.document(count: 3, version: 1), frontDoorHoldLimit: Self.holdLimit)
        let heldBefore = server.server.connectionCounts.held
        let streams = try await (0..<3).asyncMap { _ in
            let stream = try await SSETestClient(port: server.port, path: "/events")
            _ = try await stream.expectNext("data")
            return stream
        }
        #expect(server.server.connectionCounts.streamsAtDoor == 3)
        #expect(server.server.openStreamCount == 3)
        // At least these three: a stray connection from elsewhere in a parallel run (a
        // reconnecting client of another test's server, whose port number this one reuses)
        // may come and go meanwhile; what this test holds to is that the three go back.
        #expect(server.server.connectionCounts.held >= heldBefore + 3)
        for stream in streams { stream.close() }
        // Seen by the sender (the socket's hang-up), not by a write failing: nothing is
        // published meanwhile.
        try await Eventually.check("every stream ended", within: 5) { server.server.openStreamCount == 0 }
        try await Eventually.check("every place given back", within: 5) {
            server.server.connectionCounts.held == heldBefore
        }
        // The places are free: as many streams as before open again.
        let again = try await SSETestClient(port: server.port, path: "/events")
        _ = try await again.expectNext("data")
        #expect(server.server.openStreamCount == 1)
    }

    @Test func pastTheStreamLimitLibmicrohttpdRefusesAndTheDoorOpensNone() async throws {
        let server = try TestServer(
            document: NewswireFeed.document(count: 3, version: 1), maxStreams: 1, frontDoorHoldLimit: Self.holdLimit)
        let first = try await SSETestClient(port: server.port, path: "/events")
        _ = try await first.expectNext("data")
        let refused = try await SSETestClient(port: server.port, path: "/events")
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] != nil)
        #expect(server.server.connectionCounts.streamsAtDoor == 1)
        #expect(server.server.openStreamCount == 1)
        // The first stream goes on.
        try StreamSenderTests.bump(server.store, to: 2)
        _ = try await first.expectNext("patch")
    }
}

extension Sequence {
    /// `transform` of each element in order, awaited one after the other.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
