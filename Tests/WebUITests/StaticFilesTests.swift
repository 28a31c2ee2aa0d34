import Foundation
import Glibc
import TestSupport
import Testing

/// `/static/` serves Public/ and nothing else.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct StaticFilesTests {
    @Test func servesFilesWithETagAndCaching() async throws {
        let server = try TestServer(document: nil)
        let response = try await HTTPTestClient.get(port: server.port, "/static/style.css")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/css; charset=utf-8")
        #expect(response.headers["cache-control"]?.contains("max-age") == true)
        let etag = try #require(response.headers["etag"])
        let onDisk = try Data(contentsOf: URL(fileURLWithPath: TestServer.publicDirectory + "/style.css"))
        #expect(response.body == [UInt8](onDisk))
        let again = try await HTTPTestClient.get(
            port: server.port, "/static/style.css", headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(
            try await HTTPTestClient.get(port: server.port, "/static/demo/globe.svg").headers["content-type"]
                == "image/svg+xml")
    }

    @Test(arguments: [
        "/static/../Package.swift",
        "/static/%2e%2e/Package.swift",
        "/static/%2E%2E/%2E%2E/etc/passwd",
        "/static/..%2fPackage.swift",
        "/static/%2e%2e%2fPackage.swift",
        "/static/demo/../../Package.swift",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/../../../../../../etc/passwd",
        "/static/.%2e/.%2e/etc/passwd",
        "/static/%252e%252e/Package.swift",
        "/static/..\\Package.swift",
        "/static/style.css%00.txt",
    ])
    func traversalAttemptsAreRefused(path: String) async throws {
        let server = try TestServer(document: nil)
        let response = try await HTTPTestClient.raw(
            port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect([400, 404].contains(response.status), "\(path) → \(response.status)")
        #expect(!response.text.contains("PackageDescription"))
        #expect(!response.text.contains("root:"))
    }

    @Test func symlinksInPublicAreNotFollowed() async throws {
        let scratchDirectory = try ScratchDirectory("public")
        let directory = scratchDirectory.url
        try Data("body{}".utf8).write(to: directory.appendingPathComponent("real.css"))
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("etc").path, withDestinationPath: "/etc")
        let server = try TestServer(document: nil, publicDirectory: directory.path)
        #expect(try await HTTPTestClient.get(port: server.port, "/static/real.css").status == 200)
        #expect(try await HTTPTestClient.get(port: server.port, "/static/passwd").status == 404)
        #expect(try await HTTPTestClient.get(port: server.port, "/static/etc/passwd").status == 404)
        #expect(try await HTTPTestClient.get(port: server.port, "/static/etc/hostname").status == 404)
    }
}
