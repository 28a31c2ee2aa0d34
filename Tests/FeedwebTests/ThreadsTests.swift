import FeedCore
import Foundation
import TestSupport
import Testing

/// `--threads N` through the real binary: N shards, each a front door, a libmicrohttpd
/// daemon's loop and a stream sender of its own (their threads name themselves), and every
/// shard's streams get every change.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct ThreadsTests {
    /// The names of the threads of process `pid` (`/proc/PID/task/*/comm`).
    static func threadNames(of pid: Int32) throws -> [String] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test("--threads 3: three front doors, daemons and senders; streams on every shard get each change")
    func threeShards() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--threads", "3"])
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        let pid = feedweb.process.processIdentifier
        try await Eventually.check("three of each thread") {
            let names = try Self.threadNames(of: pid)
            return ["fw-door-", "fw-http-", "fw-send-"].allSatisfy { prefix in
                names.filter { $0.hasPrefix(prefix) && $0 != "fw-send-pages" }.count == 3
            }
        }
        // Six clients: two on each shard (streams go to the shards in turn); each applies
        // the change to the document it got first.
        var clients: [(client: SSETestClient, document: JSONValue)] = []
        for _ in 0..<6 {
            let client = try await SSETestClient(port: feedweb.port)
            let data = try await client.expectNext("data")
            clients.append((client, try JSONValue(parsing: data.data)))
        }
        let document = try await upstream.change([Patch.add("/results/0", NewswireFeed.story(9))])
        for (client, first) in clients {
            let patch = try await client.expectNext("patch")
            var held = first
            try JSONPatch(parsing: patch.data).apply(to: &held)
            #expect(held == document)
        }
    }
}
