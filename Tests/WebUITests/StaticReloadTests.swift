import FeedCore
import Foundation
import Logging
import TestSupport
import Testing

@testable import WebUI

/// When Public/ changes, new bytes are served and every open page is told to reload.
@Suite(.timeLimit(.minutes(1)))
struct StaticReloadTests {
    @Test func changedStaticFilesReloadOpenPages() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedweb-reload-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let css = directory.appendingPathComponent("style.css")
        try Data("body { color: black }".utf8).write(to: css)
        let server = try TestServer(document: NewswireFeed.document(count: 3), publicDirectory: directory.path)
        let logger = Logger(label: "test")

        let page = try await SSETestClient(port: server.port, path: "/events/page?view=list")
        _ = try await page.next(type: "items", within: 5)
        #expect(server.context.reloadStaticFilesIfChanged(logger: logger) == false, "nothing changed yet")

        try Data("body { color: navy }".utf8).write(to: css)
        #expect(server.context.reloadStaticFilesIfChanged(logger: logger))
        let reload = try await page.next(type: "reload", within: 5)
        #expect(reload.data == server.context.staticFiles.version)
        #expect(try await HTTPTestClient.get(port: server.port, "/static/style.css").text == "body { color: navy }")
        // Pages now link the new asset version.
        #expect(try await HTTPTestClient.get(port: server.port, "/").text.contains("style.css?v=\(reload.data)"))
    }
}
