import FeedCore
import Foundation
import TestSupport
import Testing

/// A slow-head attack through the real binary with its defaults (a 10 s head
/// timeout, the connection limit the 20,000 open files allow): 14,000 connections that
/// send `GET / HTTP/1.1\r\nHost: x\r\n` and then nothing must not keep anyone out.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct SlowHeadsTests {
    static let heads = 14_000

    /// Sends `GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaa…` one byte every `interval`, watching
    /// for the server's close in between; returns the seconds from the connect to the close,
    /// or `nil` if the connection was still open after `seconds`.
    static func trickle(port: UInt16, every interval: Duration, within seconds: Double) async throws -> Double? {
        let start = ContinuousClock.now
        let socket = try await RawSocket(port: port, timeout: 5)
        let head = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + [UInt8](repeating: 97, count: 200)
        var sent = 0
        while ContinuousClock.now - start < .seconds(seconds), sent < head.count {
            do {
                try await socket.send([head[sent]])
                sent += 1
                _ = try await socket.receive(before: .now + interval)
            } catch RawSocket.Failure.timeout {
                continue
            } catch {
                return (ContinuousClock.now - start).timeInterval
            }
        }
        return nil
    }

    @Test(
        "14,000 slow heads: a fresh client's /healthz and / within 1 s, the heads closed within 15 s, a trickling head too, a stream from before keeps getting events"
    )
    func fourteenThousandSlowHeads() async throws {
        let files = FileLimit.raiseToHardLimit()
        try #require(
            files >= Self.heads + 512, "this test holds \(Self.heads) sockets; the open-file limit is \(files)")
        let upstream = try await LiveFeedUpstream(document: NewswireFeed.document(stories: [3, 2, 1]))
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", upstream.url])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port, within: 20)

        // An established stream, and a head trickling in one byte every 2 s, both from before
        // the flood.
        let stream = try await SSETestClient(port: feedweb.port, path: "/events")
        _ = try await stream.expectNext("data")
        let port = feedweb.port
        let trickle = Task { try await Self.trickle(port: port, every: .seconds(2), within: 30) }

        let flood = await SlowHeadFlood.open(port: feedweb.port, count: Self.heads)
        defer { flood.stop() }
        #expect(flood.opened == Self.heads, "\(flood.failures)")
        let openAtRequest = flood.opened - flood.closed

        // A fresh client, while the heads are open.
        var answeredIn: [String: Double] = [:]
        for path in ["/healthz", "/"] {
            let asked = ContinuousClock.now
            let response = try await HTTPTestClient.get(port: feedweb.port, path, timeout: 5)
            let seconds = (ContinuousClock.now - asked).timeInterval
            answeredIn[path] = seconds
            #expect(response.status == 200, "\(path)")
            #expect(seconds < 1, "\(path) answered in \(seconds) s with \(openAtRequest) slow heads open")
        }
        // The flood was really open then (it takes a few seconds to make; none is due before 10 s).
        #expect(openAtRequest >= Self.heads / 2, "only \(openAtRequest) heads open when the fresh client asked")

        // Every head is closed by the server, within 15 s of its connect.
        let allClosed = await flood.waitUntilAllClosed(within: 16)
        let lifetimes = flood.lifetimes.sorted()
        #expect(allClosed, "\(flood.opened - flood.closed) heads still open")
        #expect((lifetimes.last ?? 0) <= 15, "the last head lived \(lifetimes.last ?? 0) s")
        #expect((lifetimes.first ?? 0) >= 9.95, "none before the deadline: \(lifetimes.first ?? 0) s")

        // The trickling head too, at the deadline from its connect, not from its last byte.
        let trickled = try await trickle.value
        #expect(
            trickled.map { $0 >= 9.9 && $0 <= 15 } == true,
            "trickling head closed after \(String(describing: trickled)) s")

        // /metrics counts them.
        let metrics = try PrometheusText(
            parsing: try await HTTPTestClient.get(port: feedweb.port, "/metrics", timeout: 5).text)
        let closedAtDeadline = metrics.samples.first {
            $0.name == "feedweb_http_connections_closed_total" && $0.labels["reason"] == "head_timeout"
        }
        #expect((closedAtDeadline?.value ?? 0) >= Double(Self.heads + 1), "the heads and the trickling one")
        // libmicrohttpd has let them go (its close notifications came): the stream and this
        // request are about all it holds.
        let held = metrics.samples.first { $0.name == "feedweb_http_connections" }?.value ?? -1
        #expect(held >= 1 && held <= 10, "feedweb holds \(held) connections after the flood")

        // The stream from before the flood still gets the next change.
        try await upstream.change([Patch.add("/results/0", NewswireFeed.story(4))])
        let id = try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
        #expect(try await stream.next(type: "patch", within: 5).id == id)

        print(
            "slow heads: \(flood.opened) opened in \(flood.openingSeconds.formatted(.number.precision(.fractionLength(1)))) s, \(openAtRequest) open when /healthz took \(((answeredIn["/healthz"] ?? 0) * 1000).formatted(.number.precision(.fractionLength(1)))) ms and / \(((answeredIn["/"] ?? 0) * 1000).formatted(.number.precision(.fractionLength(1)))) ms; closed after \(lifetimes.first ?? 0)–\(lifetimes.last ?? 0) s (median \(lifetimes.isEmpty ? 0 : lifetimes[lifetimes.count / 2]) s); \(flood.answered) got bytes first; the trickling head closed after \(trickled ?? -1) s"
        )
        #expect(await feedweb.stop()?.status == 0)
        await upstream.shutdown()
    }
}
