import Foundation
import TestSupport
import Testing

/// The binary where `make install` puts it (`PREFIX/bin/feedweb`, the static files in
/// `PREFIX/share/feedweb/Public`) finds its static files with no `--public-dir`, so its
/// pages have their script and update live.
@Suite(.timeLimit(.minutes(1)), .onThreadsOfItsOwn)
struct InstalledLayoutTests {
    @Test("an installed feedweb serves PREFIX/share/feedweb/Public without --public-dir")
    func installedBinaryFindsItsStaticFiles() async throws {
        let prefix = try ScratchDirectory("installed")
        let files = FileManager.default
        let binary = prefix.url.appendingPathComponent("bin/feedweb")
        let publicCopy = prefix.url.appendingPathComponent("share/feedweb/Public")
        try files.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.createDirectory(at: publicCopy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.copyItem(at: FeedwebProcess.executableURL, to: binary)
        try files.copyItem(at: URL(fileURLWithPath: InProcessFeedweb.publicDirectory), to: publicCopy)
        // A file only the installed copy has: the project's own Public/ (the working
        // directory's, feedweb's last resort) cannot answer for it.
        let marker = "installed \(UUID().uuidString)"
        try Data(marker.utf8).write(to: publicCopy.appendingPathComponent("installed.txt"))

        let feedweb = try await FeedwebProcess(arguments: [], executable: binary)
        defer { feedweb.kill() }
        let installed = try await HTTPTestClient.get(port: feedweb.port, "/static/installed.txt")
        #expect(installed.status == 200)
        #expect(installed.text == marker)
        let script = try await HTTPTestClient.get(port: feedweb.port, "/static/app.js")
        let expected = try Data(contentsOf: publicCopy.appendingPathComponent("app.js"))
        #expect(script.status == 200)
        #expect(script.body == Array(expected), "the page script is the installed one")
        #expect(!feedweb.log.contains("no static files found"), "\(feedweb.log.suffix(400))")
    }
}
