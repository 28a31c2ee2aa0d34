import FeedCore
import Foundation
import Glibc
import TestSupport
import Testing

/// Hostile requests against the real binary: a seeded random mutator over a dozen
/// realistic requests, a few thousand of them on fresh connections, each head ended and
/// the sending side closed. Any 4xx is a fine answer; a server error, a connection left
/// hanging or anything but HTTP is not; feedweb serves and stops cleanly afterwards.
@Suite(.timeLimit(.minutes(3)), .onThreadsOfItsOwn)
struct HTTPMutationTests {
    /// What browsers, kiosks and scrapers send.
    static let requests: [String] = [
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Mozilla/5.0\r\nAccept: text/html,application/xhtml+xml\r\nAccept-Encoding: gzip, deflate\r\n\r\n",
        "GET /?section=World HTTP/1.1\r\nHost: localhost\r\nAccept-Language: en-GB,en;q=0.9\r\n\r\n",
        "GET /items/nyt-article-3f1c HTTP/1.1\r\nHost: localhost\r\nReferer: http://localhost/\r\n\r\n",
        "GET /kiosk?section=Arts HTTP/1.1\r\nHost: tv.local\r\nCache-Control: max-age=0\r\n\r\n",
        "GET /stats HTTP/1.1\r\nHost: localhost\r\nCookie: a=b\r\n\r\n",
        "GET /api/state HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nIf-None-Match: \"17\"\r\n\r\n",
        "GET /api/items/some-key HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "HEAD /static/style.css HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: W/\"abc\"\r\n\r\n",
        "GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\nLast-Event-ID: 0123-4\r\nX-Sd-Token: t\r\n\r\n",
        "GET /events/page?view=list&section=World&lastEventId=x-1 HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n",
        "GET /readyz HTTP/1.0\r\n\r\n",
        "GET /metrics HTTP/1.1\r\nHost: prometheus:9090\r\nConnection: keep-alive\r\n\r\n",
    ]
    static let seed: UInt64 = 0x17
    static let workers = 6
    static let perWorker = 500

    /// What one mutated request got.
    enum Outcome: Equatable {
        /// A response with this status.
        case answered(Int)
        /// The connection closed with no response (a request cut short, or refused whole).
        case closedWithoutAnswer
        /// Neither an answer nor a close within 5 s of the request's end.
        case hung
        /// Bytes that are not an HTTP response.
        case garbage(String)
    }

    @Test("3,000 mutated requests: every answer below 500 (505 for an unknown version), none hangs, feedweb serves on")
    func mutatedRequestsNeverBreakTheServer() async throws {
        let feedweb = try await FeedwebProcess(arguments: ["--demo-interval", "0.2"])
        defer { feedweb.kill() }
        try await FeedwebProbe.waitUntilReady(port: feedweb.port)
        let port = feedweb.port

        let results = try await withThrowingTaskGroup(of: [(request: [UInt8], outcome: Outcome)].self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    var mutator = RequestMutator(seed: Self.seed &+ UInt64(worker))
                    var results: [(request: [UInt8], outcome: Outcome)] = []
                    for round in 0..<Self.perWorker {
                        let base = Self.requests[(round + worker) % Self.requests.count]
                        let request = mutator.mutate(Array(base.utf8))
                        results.append((request, try await Self.outcome(of: request, port: port)))
                    }
                    return results
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }

        let shown = { (bytes: [UInt8]) in String(reflecting: String(decoding: bytes.prefix(300), as: UTF8.self)) }
        let failures = results.filter { result in
            switch result.outcome {
            case .answered(let status): return status >= 500 && status != 505
            case .closedWithoutAnswer: return false
            case .hung, .garbage: return true
            }
        }
        // Counted first: the expectation shows its operands, and the requests are long.
        let failed = failures.count
        let examples = failures.prefix(5).map { "\($0.outcome): \(shown($0.request))" }
        #expect(
            failed == 0,
            "\(failed) of \(results.count) failed (seed \(Self.seed)), e.g.:\n\(examples.joined(separator: "\n"))")
        var statuses: [Int: Int] = [:]
        for case .answered(let status) in results.map(\.outcome) { statuses[status, default: 0] += 1 }
        let answered = statuses.values.reduce(0, +)
        // The mutations keep most requests readable: they reach the parser and the router.
        #expect(results.count == Self.workers * Self.perWorker)
        #expect(answered > results.count / 2, "statuses: \(statuses.sorted { $0.key < $1.key })")
        #expect(statuses[200, default: 0] > 0 && statuses[400, default: 0] > 0, "statuses: \(statuses)")

        // Still serving, and it stops cleanly.
        #expect(feedweb.process.isRunning)
        let health = try await HTTPTestClient.get(port: port, "/healthz")
        #expect(health.status == 200)
        let page = try await HTTPTestClient.get(port: port, "/")
        #expect(page.status == 200)
        #expect(!feedweb.log.contains("Fatal error"), "log: \(feedweb.log.suffix(2000))")
        let stopped = await feedweb.stop()
        #expect(stopped?.status == 0, "stopped: \(String(describing: stopped))")
    }

    /// Sends `request` on a new connection, ends the sending side, and reads until the
    /// response's head is complete or the server closes (at most 5 s).
    static func outcome(of request: [UInt8], port: UInt16) async throws -> Outcome {
        let socket = try await RawSocket(port: port, timeout: 5)
        // The server may close before taking everything (a request refused early): then
        // what it answered, if anything, is still to be read.
        try? await socket.send(request)
        _ = Glibc.shutdown(socket.fd, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + .seconds(5)
        var received: [UInt8] = []
        while !received.contains(subsequence: [13, 10, 13, 10]) {
            do {
                received += try await socket.receive(before: deadline)
            } catch RawSocket.Failure.closed {
                break
            } catch RawSocket.Failure.timeout {
                return .hung
            }
        }
        guard !received.isEmpty else { return .closedWithoutAnswer }
        let statusLine = received.prefix { $0 != 13 }
        let parts = statusLine.split(separator: 32, maxSplits: 2)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)),
            let status = Int(String(decoding: parts[1], as: UTF8.self))
        else {
            return .garbage(String(decoding: received.prefix(80), as: UTF8.self))
        }
        return .answered(status)
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the array.
    fileprivate func contains(subsequence needle: [UInt8]) -> Bool {
        guard count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
