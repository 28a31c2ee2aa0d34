import FeedCore
import Foundation
import Glibc
import TestSupport
import Testing

/// When a file in Public/ changes, the running application notices by itself: it serves
/// the new bytes, tells every open page to reload, and pages link the new asset version.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct StaticReloadTests {
    /// Replaces `file` with `text` in one step (a hidden temporary file renamed over it), so
    /// the watcher never sees it half-written.
    static func replace(_ file: URL, with text: String) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(UUID()).tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
    }

    /// The asset versions the page at `path` links, one per static URL.
    static func linkedVersions(_ html: String) -> Set<String> {
        Set(html.matches(of: /\/static\/(?:style\.css|kiosk\.css|app\.js)\?v=([A-Za-z0-9]+)"/).map { String($0.1) })
    }

    @Test func theWatcherNoticesAChangedFileAndOpenPagesReload() async throws {
        let scratchDirectory = try ScratchDirectory("reload")
        let directory = scratchDirectory.url
        let css = directory.appendingPathComponent("style.css")
        let original = "body { color: black }"
        try Self.replace(css, with: original)
        try Self.replace(directory.appendingPathComponent("app.js"), with: "// the page script")
        try Self.replace(directory.appendingPathComponent("kiosk.css"), with: "html { background: black }")

        let feedweb = try InProcessFeedweb(source: .demo, publicDirectory: directory.path) {
            $0.sources.demoInterval = .seconds(60)
        }
        do {
            try await watch(feedweb, css: css, original: original)
        } catch {
            try await feedweb.stop()
            throw error
        }
        try await feedweb.stop()
    }

    private func watch(_ feedweb: InProcessFeedweb, css: URL, original: String) async throws {
        let port = feedweb.port
        let versions = Self.linkedVersions(try await HTTPTestClient.get(port: port, "/").text)
        #expect(versions.count == 1, "one version for every asset: \(versions)")
        let before = try #require(versions.first)
        let oldFile = try await HTTPTestClient.get(port: port, "/static/style.css")
        #expect(oldFile.text == original)
        let oldTag = try #require(oldFile.headers["etag"])

        // Two open pages: a list and a kiosk.
        let list = try await SSETestClient(port: port, path: "/events/page?view=list")
        let kiosk = try await SSETestClient(port: port, path: "/events/page?view=kiosk")
        _ = try await list.next(type: "status", within: 5)
        _ = try await kiosk.next(type: "status", within: 5)
        // Nothing changed but a file's times (touched, its bytes the same): the watcher
        // (every 2 s) reads it again and reloads no one.
        #expect(utimensat(AT_FDCWD, css.path, nil, 0) == 0)
        #expect(try await list.events(for: 2.5).allSatisfy { $0.type != "reload" })
        #expect(try await HTTPTestClient.get(port: port, "/static/style.css").headers["etag"] == oldTag)

        // A new stylesheet: both pages are told, by the watcher alone, with the new version.
        let changed = "body { color: navy }"
        try Self.replace(css, with: changed)
        let reload = try await list.next(type: "reload", within: 10)
        #expect(try await kiosk.next(type: "reload", within: 5).data == reload.data)
        #expect(reload.data != before)
        #expect(!reload.data.isEmpty)

        // The new bytes are served, under a new tag; the old tag no longer matches.
        let newFile = try await HTTPTestClient.get(port: port, "/static/style.css", headers: ["If-None-Match": oldTag])
        #expect(newFile.status == 200)
        #expect(newFile.text == changed)
        #expect(newFile.headers["etag"] != oldTag)
        // Pages link the version the reload announced.
        #expect(Self.linkedVersions(try await HTTPTestClient.get(port: port, "/").text) == [reload.data])
        #expect(Self.linkedVersions(try await HTTPTestClient.get(port: port, "/kiosk").text) == [reload.data])

        // The version follows the content: the original bytes back, the original version.
        try Self.replace(css, with: original)
        #expect(try await list.next(type: "reload", within: 10).data == before)
        #expect(try await HTTPTestClient.get(port: port, "/static/style.css").text == original)
        #expect(Self.linkedVersions(try await HTTPTestClient.get(port: port, "/").text) == [before])
    }
}
