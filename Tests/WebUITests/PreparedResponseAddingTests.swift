import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import WebUI

/// A shared ``PreparedResponse`` sent with headers of one request's own
/// (``HTTPResponse/preparedAdding(_:headers:)``), through the real server: each request
/// gets its own headers after the shared ones and the shared body, the shared response is
/// never changed, and the response is freed once no request holds it (no retain is leaked
/// per request).
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct PreparedResponseAddingTests {
    /// Answers `/?n=N` with the shared response plus `X-Request: N` (while it holds one).
    final class Responder: HTTPResponder {
        let shared: NIOLockedValueBox<PreparedResponse?>

        init(_ response: PreparedResponse) {
            shared = NIOLockedValueBox(response)
        }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            guard let response = shared.withLockedValue({ $0 }) else {
                return .prepared(.fixed(status: 410, body: [], headers: []))
            }
            return .preparedAdding(response, headers: [("X-Request", request.query("n") ?? "")])
        }

        func streamRefused() -> PreparedResponse {
            .fixed(status: 503, body: [], headers: [])
        }
    }

    @Test func eachRequestGetsItsOwnHeadersOnTheSharedBodyAndTheResponseIsFreedAfter() async throws {
        let body = Array(repeating: UInt8(ascii: "x"), count: 100_000)
        weak var watched: PreparedResponse?
        let responder: Responder
        do {
            let response = try #require(
                PreparedResponse(status: 200, body: body, headers: [("Content-Type", "text/plain"), ("ETag", "\"1\"")]))
            watched = response
            responder = Responder(response)
        }
        let server = try HTTPServer.answering(with: responder)
        let port = try server.start()
        defer { server.stop(timeout: .milliseconds(500)) }

        for n in 0..<20 {
            let answer = try await HTTPTestClient.get(port: port, "/?n=\(n)", method: n % 5 == 4 ? "HEAD" : "GET")
            #expect(answer.status == 200)
            #expect(answer.headers["x-request"] == String(n), "its own header, no other request's")
            #expect(answer.headers["etag"] == "\"1\"")
            if n % 5 != 4 { #expect(answer.body == body) }
        }
        #expect(watched?.headers.map(\.0) == ["Content-Type", "ETag"], "the shared response is unchanged")

        responder.shared.withLockedValue { $0 = nil }
        try await Eventually.check("the shared response to be freed once no request holds it", within: 5) {
            watched == nil
        }
    }
}
