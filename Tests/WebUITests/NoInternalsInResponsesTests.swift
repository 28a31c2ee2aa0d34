import FeedCore
import Foundation
import TestSupport
import Testing

/// No stack trace or file path ever reaches a response: every error path, driven over a
/// real socket, answers with a plain status and page, never with the server's internals.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct NoInternalsInResponsesTests {
    /// What would betray the server's insides: source paths, the working tree, a crash.
    static var forbidden: [String] {
        [
            "/work/", "/root", "/home/", "/tmp/", ".swift", "Sources/", "Tests/", "Fatal error", "fatalError",
            "Stack", "stack trace", "at /", "Backtrace", "Thread 0", "Error Domain", "NSError", "WebUI.",
            "FeedCore.", TestServer.publicDirectory, FileManager.default.currentDirectoryPath,
        ]
    }

    static let longPath = "/" + String(repeating: "a", count: 64 * 1024)

    /// Raw requests that take an error path, and the status each must get (`nil`: any
    /// error status, where the contract names none).
    static let requests: [(request: String, status: Int?)] = [
        ("GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        ("GET /items/does-not-exist HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        ("GET /items/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        ("GET /items/%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        ("GET /items/..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        ("GET /api/nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        ("GET /api/items/%3Cscript%3Ealert(1)%3C%2Fscript%3E HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        ("GET /api/items/../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        ("GET /api/items/%ZZ%00%FF HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        (
            "GET /api/items/" + String(repeating: "k", count: 2000)
                + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404
        ),
        ("GET /static/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        ("GET /static/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        ("GET /static/%2e%2e%2fPackage.swift HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        ("GET /static/nope.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        ("GET /static/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        ("GET /events/page?view=bogus HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
        ("GET /events/page?view=item HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
        ("GET /%01 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", 405),
        ("DELETE /api/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405),
        ("BREW /kiosk HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        ("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nThis line has no colon\r\nConnection: close\r\n\r\n", 400),
        ("GET / HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n", nil),
        ("GET " + longPath + " HTTP/1.1\r\nHost: x\r\n\r\n", nil),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 64 * 1024) + "\r\n\r\n", nil),
    ]

    @Test func noErrorResponseCarriesAStackTraceOrAFilePath() async throws {
        let server = try TestServer(document: NewswireFeed.document(count: 3))
        // A head just over the server's limit: 431.
        let cookie = String(repeating: "c", count: server.server.configuration.maxRequestHeadBytes)
        let oversized: (request: String, status: Int?) = (
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: c=" + cookie + "\r\n\r\n", 431
        )
        for (index, (request, status)) in (Self.requests + [oversized]).enumerated() {
            let label = "request \(index): \(request.prefix(60).debugDescription)"
            let response = try await HTTPTestClient.raw(port: server.port, request, timeout: 10)
            if let status {
                #expect(response.status == status, "\(label) → \(response.status)")
            } else {
                #expect((400..<600).contains(response.status), "\(label) → \(response.status)")
            }
            let head = response.headers.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
            for needle in Self.forbidden {
                #expect(!head.contains(needle), "\(label): header has \(needle)")
                #expect(!response.text.contains(needle), "\(label): body has \(needle)")
            }
            // The server is still serving.
            #expect(try await HTTPTestClient.get(port: server.port, "/healthz").status == 200, "\(label)")
        }
    }

    @Test func errorsWithoutADocumentOrPublicFilesSayNothingInternalEither() async throws {
        let scratchEmpty = try ScratchDirectory("empty")
        let empty = scratchEmpty.url
        let server = try TestServer(document: nil, publicDirectory: empty.path)
        for path in ["/api/state", "/api/items/x", "/items/x", "/static/style.css", "/static/app.js", "/readyz"] {
            let response = try await HTTPTestClient.get(port: server.port, path)
            #expect(response.status >= 400, "\(path) → \(response.status)")
            let head = response.headers.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
            for needle in Self.forbidden + [empty.path] {
                #expect(!head.contains(needle) && !response.text.contains(needle), "\(path) carries \(needle)")
            }
        }
    }
}
