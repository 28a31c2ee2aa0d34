import FeedCore
import Foundation
import TestSupport
import Testing

/// SIGTERM and SIGINT through the real binary with clients connected: exit status 0
/// within 2 s, every stream ended cleanly, the state file written.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct ShutdownTests {
    @Test(
        "exit 0 within 2 s with hundreds and thousands of stream clients; streams end cleanly; the state file is written",
        arguments: zip([SIGTERM, SIGINT, SIGTERM], [200, 200, 3000]))
    func shutdownWithClients(signal: Int32, count: Int) async throws {
        try FileLimit.raise(toAtLeast: count + 256)
        let scratch = try ScratchDirectory("shutdown")
        let directory = scratch.path
        let path = directory + "/state.json"
        let feedweb = try await FeedwebProcess(arguments: ["--state-file", path, "--demo-interval", "60"])
        defer { feedweb.kill() }
        let etag = try await Eventually.value("the demo document") {
            let response = try await HTTPTestClient.get(port: feedweb.port, "/api/state", timeout: 3)
            return response.status == 200 ? response.headers["etag"] : nil
        }

        // Every kind of stream, resumed and fresh.
        let paths = [
            "/events", "/events/items", "/events/page?view=list", "/events?lastEventId=x", "/events/page?view=kiosk",
        ]
        var clients: [SSETestClient] = []
        for index in 0..<count {
            let path = paths[index % paths.count]
            do {
                let client = try await SSETestClient(port: feedweb.port, path: path, timeout: 5)
                #expect(client.status == 200)
                // Every stream is live: each has sent its first event.
                _ = try await client.next(before: Date().addingTimeInterval(5))
                clients.append(client)
            } catch {
                Issue.record("client \(index) on \(path): \(error); log: \(feedweb.log.suffix(2000))")
                throw error
            }
        }

        let stopped = await feedweb.stop(signal: signal, timeout: 5)
        let result = try #require(stopped, "feedweb did not exit")
        #expect(result.status == 0)
        #expect(result.seconds < 2, "took \(result.seconds) s")

        // Each stream was ended properly: the last chunk, not a reset.
        var clean = 0
        for client in clients where await client.waitForEnd(within: 2) && client.endedCleanly {
            clean += 1
        }
        #expect(clean == clients.count, "\(clean) of \(clients.count) streams ended cleanly")

        let saved = try StateFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(etag.hasSuffix("-\(saved.seq)\""))
        #expect(feedweb.log.contains("state file"))
    }

    @Test("exit 0 at once with no clients and an unreachable upstream")
    func shutdownIdle() async throws {
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", "http://127.0.0.1:9/feed", "--max-backoff", "0.2",
        ])
        // Stopped while it is waiting to retry the refused upstream.
        try await Eventually.check("the refused connection in the status") {
            try await FeedwebProbe.readiness(port: feedweb.port).body["upstream"]?["last_error"] != nil
        }
        let result = try #require(await feedweb.stop(signal: SIGTERM, timeout: 5))
        #expect(result.status == 0)
        #expect(result.seconds < 1)
    }
}
