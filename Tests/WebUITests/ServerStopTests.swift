import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import WebUI

/// Stopping the server while a daemon's thread is still inside libmicrohttpd (a pass that
/// serves many connections on a machine short of CPU): the daemon is stopped only once that
/// thread has left it, however long the pass takes, and the process goes on.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct ServerStopTests {
    /// Holds each request on the daemon's thread until released (at most 20 s), then
    /// answers it; notes when it returned to libmicrohttpd.
    final class HoldingResponder: HTTPResponder {
        let entered = NIOLockedValueBox(false)
        let release = DispatchSemaphore(value: 0)
        let returnedAt = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

        func respond(to request: HTTPRequest) -> HTTPResponse {
            entered.withLockedValue { $0 = true }
            _ = release.wait(timeout: .now() + 20)
            returnedAt.withLockedValue { $0 = .now }
            return .prepared(.fixed(status: 200, body: Array("held".utf8), headers: []))
        }

        func streamRefused() -> PreparedResponse {
            .fixed(status: 503, body: [], headers: [])
        }
    }

    @Test func aDaemonIsStoppedOnlyOnceItsThreadHasLeftLibmicrohttpd() async throws {
        let responder = HoldingResponder()
        let server = try HTTPServer.answering(with: responder)
        let port = try server.start()
        let client = try await RawSocket(port: port, timeout: 10)
        try await client.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try await Eventually.check("the request to reach the responder, on the daemon's thread") {
            responder.entered.withLockedValue { $0 }
        }

        let stoppedAt = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
        let stopper = Thread {
            server.stop(timeout: .milliseconds(100))
            stoppedAt.withLockedValue { $0 = .now }
        }
        stopper.start()
        // Longer than the 2 s that stop's waits once allowed a daemon's thread.
        try await Task.sleep(for: .seconds(3))
        #expect(stoppedAt.withLockedValue { $0 } == nil, "stop returned with the daemon's thread inside libmicrohttpd")
        responder.release.signal()
        try await Eventually.check("the server to stop once the request is answered") {
            stoppedAt.withLockedValue { $0 } != nil
        }
        let returned = try #require(responder.returnedAt.withLockedValue { $0 })
        let stopped = try #require(stoppedAt.withLockedValue { $0 })
        #expect(returned < stopped, "the daemon was stopped after its thread came back from the responder")

        // The connection was answered or closed with the daemon; either way it ends.
        let rest = try await client.readToEnd()
        let text = String(decoding: rest, as: UTF8.self)
        #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(200))")
    }
}
