import Foundation
import Glibc
import TestSupport
import Testing

/// The front door in the real binary: what only a whole process shows (a signal's default
/// action, the exit).
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct FrontDoorProcessTests {
    static let plainGet = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)

    @Test func clientsThatResetTheConnectionMidAnswerDoNotEndTheProcess() async throws {
        let feedweb = try await FeedwebProcess(arguments: ["--demo-interval", "3600"])
        defer { feedweb.kill() }
        for _ in 0..<5 {
            // 600 pipelined requests (12 MB of answers) and a tiny receive window: the door's
            // send blocks (it waits for the socket to drain); then the client half-closes
            // and resets, so the door's next sendfile(2) fails with EPIPE (and raises
            // SIGPIPE, whose default action would end the process).
            let socket = try await RawSocket(port: feedweb.port, receiveBuffer: 2048)
            try await socket.send(Array([[UInt8]](repeating: Self.plainGet, count: 600).joined()))
            _ = try await socket.receive(atMost: 1024)
            try await Task.sleep(for: .milliseconds(200))
            _ = Glibc.shutdown(socket.fd, Int32(SHUT_WR))
            try await Task.sleep(for: .milliseconds(20))
            var reset = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(socket.fd, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
            socket.shutdown()
        }
        let socket = try await RawSocket(port: feedweb.port)
        try await socket.send(Self.plainGet)
        let response = try await HTTPTestClient.readResponse(from: socket, method: "GET")
        #expect(response.status == 200)
        #expect(feedweb.process.isRunning)
    }

    /// The exact counts are `FrontDoorTests`' (a server whose door holds a silent connection
    /// for 10 s): here the door hands a connection that has sent nothing for 250 ms to
    /// libmicrohttpd, so on a loaded machine these requests may be answered there instead.
    @Test func metricsReportTheFrontDoor() async throws {
        let feedweb = try await FeedwebProcess(arguments: ["--demo-interval", "3600"])
        defer { feedweb.kill() }
        let requests = 3
        let socket = try await RawSocket(port: feedweb.port)
        try await socket.send(Array([[UInt8]](repeating: Self.plainGet, count: requests).joined()))
        for _ in 0..<requests {
            #expect(try await HTTPTestClient.readResponse(from: socket, method: "GET").status == 200)
        }
        let metrics = try PrometheusText(
            parsing: try await HTTPTestClient.get(port: feedweb.port, "/metrics", timeout: 5).text)
        let answered = metrics.samples.first { $0.name == "feedweb_http_front_door_answers_total" }?.value
        #expect(
            answered.map { $0 >= 0 && $0 <= Double(requests) } == true,
            "answered at the door: \(String(describing: answered))")
        let stalled = metrics.samples.first {
            $0.name == "feedweb_http_connections_closed_total" && $0.labels["reason"] == "stalled_answer"
        }
        #expect(stalled?.value == 0)
        let refused = metrics.samples.first {
            $0.name == "feedweb_http_connections_closed_total" && $0.labels["reason"] == "limit"
        }
        #expect(refused?.value == 0, "nothing refused at the connection limit")
        // The kept-alive connection is held (at the door or by libmicrohttpd), and so is the scrape's.
        let held = metrics.samples.first { $0.name == "feedweb_http_connections" }?.value ?? 0
        #expect(held >= 2)
    }

    @Test func sigtermEndsConnectionsHeldAtTheDoorAndExitsCleanly() async throws {
        let feedweb = try await FeedwebProcess(arguments: ["--demo-interval", "3600"])
        defer { feedweb.kill() }
        // One connection answered and now idle at the door, one fresh that has sent nothing.
        let answered = try await RawSocket(port: feedweb.port)
        try await answered.send(Self.plainGet)
        _ = try await HTTPTestClient.readResponse(from: answered, method: "GET")
        let fresh = try await RawSocket(port: feedweb.port)
        let stopped = await feedweb.stop()
        #expect(stopped?.status == 0)
        #expect((stopped?.seconds ?? 99) < 3)
        #expect(try await answered.readToEnd().isEmpty)
        #expect(try await fresh.readToEnd().isEmpty)
    }
}
