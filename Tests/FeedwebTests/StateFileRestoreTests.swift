import FeedCore
import Foundation
import TestSupport
import Testing

/// `--state-file` through the real binary: saved at SIGTERM, restored at start (shown as
/// stale until upstream answers), corrupt or truncated files reported and ignored.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct StateFileRestoreTests {
    private let scratch: ScratchDirectory
    private var directory: String { scratch.path }

    init() throws {
        scratch = try ScratchDirectory("state")
    }

    static let first: JSONValue = .object([
        "num_results": .int(2),
        "results": .array([
            .object(["uri": .string("nyt://a"), "title": .string("Alpha story"), "section": .string("World")]),
            .object(["uri": .string("nyt://b"), "title": .string("Beta story"), "section": .string("Arts")]),
        ]),
    ])
    static let patch =
        #"[{"op":"add","path":"/results/0","value":{"uri":"nyt://c","title":"Gamma story","section":"World"}},{"op":"replace","path":"/num_results","value":3}]"#

    static var second: JSONValue {
        var document = first
        try? JSONPatch(parsing: patch).apply(to: &document)
        return document
    }

    private func get(_ port: UInt16, _ path: String) async throws -> TestResponse {
        try await HTTPTestClient.get(port: port, path, timeout: 3)
    }

    @Test("saved at SIGTERM and restored at restart with upstream gone: old state, 503, stale badge")
    func restoreAfterRestart() async throws {
        let server = try await ScriptedSSEServer.start(script: [
            .stream(
                [
                    .text(SSEText.event("data", data: Self.first.serializedString(), id: "1")),
                    .text(SSEText.event("patch", data: Self.patch, id: "2")),
                ],
                ending: .stayOpen)
        ])
        let url = server.url("/feed")
        let path = directory + "/state.json"
        let arguments = ["--upstream", url, "--state-file", path, "--max-backoff", "0.3"]

        let running = try await FeedwebProcess(arguments: arguments)
        let etag = try await Eventually.value("the patched state") {
            let response = try await get(running.port, "/api/state")
            return try JSONValue(parsing: response.body) == Self.second ? response.headers["etag"] : nil
        }
        let stopped = await running.stop(signal: SIGTERM)
        #expect(stopped?.status == 0)
        // Within 2 s by feedweb's own clock, from the signal to its last line, and on its
        // own (not ended by the watchdog at 1.9 s); the exit as this test process sees it
        // carries the test's own scheduling beside the whole suite (2.17 s once, with
        // Chromium tests running), so it is held to 3 s.
        let said = try #require(running.log.firstMatch(of: /feedweb stopped in ([0-9.]+) s/)?.1, "\(running.log)")
        #expect((Double(said) ?? 99) < 2, "\(said) s")
        #expect(!running.log.contains("did not finish within"), "a clean stop, not the watchdog's")
        #expect((stopped?.seconds ?? 99) < 3)
        let saved = try StateFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(saved.document == Self.second)
        #expect(etag.hasSuffix("-\(saved.seq)\""), "the saved sequence is the served one")
        await server.shutdown()

        // Upstream is gone now: the restored state is all there is.
        let restarted = try await FeedwebProcess(arguments: arguments)
        defer { restarted.kill() }
        let state = try await get(restarted.port, "/api/state")
        #expect(state.status == 200)
        #expect(try JSONValue(parsing: state.body) == Self.second)
        #expect(state.headers["etag"]?.hasSuffix("-\(saved.seq)\"") == true)
        let items = try await JSONValue(parsing: get(restarted.port, "/api/items").body).arrayValue ?? []
        #expect(items.compactMap { $0["title"]?.stringValue } == ["Gamma story", "Alpha story", "Beta story"])

        let ready = try await get(restarted.port, "/readyz")
        #expect(ready.status == 503)
        let readiness = try JSONValue(parsing: ready.body)
        #expect(readiness["document"] == .bool(true))
        #expect(readiness["ready"] == .bool(false))

        let page = try await get(restarted.port, "/")
        #expect(page.status == 200)
        #expect(page.text.contains("Gamma story"))
        #expect(page.text.contains("badge-stale"), "the badge says stale")
        #expect(page.text.contains("Stale since"))
        let kiosk = try await get(restarted.port, "/kiosk")
        // The kiosk's own banner (its status element, not just any word on the page) is in
        // its stale state and says so.
        let banner = try #require(HTMLText.element(withID: "status", in: kiosk.text), "the kiosk has a status banner")
        #expect(banner.attributes["class"]?.split(separator: " ").contains("board-status-stale") == true, "\(banner)")
        #expect(banner.text.hasPrefix("Stale since"), "\(banner)")
        #expect(restarted.log.contains("restored change \(saved.seq)"))
        #expect(await restarted.stop()?.status == 0)
        // Nothing changed, so the file still holds the same state.
        #expect(try StateFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).seq == saved.seq)
    }

    /// Bad state files and what the log must say about them.
    struct BadFile: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let logged: String
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = {
        let whole = StateFile.encode(
            seq: 9, savedAt: Date(), source: "placeholder", encodedDocument: first.serializedBytes())
        return [
            BadFile(
                name: "corrupt", bytes: Array("{\"format\":1,\u{0}garbage".utf8), logged: "is unusable and is ignored"),
            BadFile(
                name: "truncated", bytes: Array(whole.prefix(whole.count / 2)), logged: "is unusable and is ignored"),
            BadFile(name: "empty", bytes: [], logged: "is unusable and is ignored"),
            BadFile(
                name: "other source",
                bytes: StateFile.encode(
                    seq: 9, savedAt: Date(), source: "poll https://elsewhere.example/x",
                    encodedDocument: first.serializedBytes()),
                logged: "ignoring it"),
        ]
    }()

    @Test("a bad state file is reported and ignored; feedweb starts and replaces it", arguments: badFiles)
    func badFileIgnored(_ bad: BadFile) async throws {
        let path = directory + "/state-\(bad.name.replacingOccurrences(of: " ", with: "-")).json"
        try Data(bad.bytes).write(to: URL(fileURLWithPath: path))

        // With upstream unreachable: starts, reports, shows no state.
        let alone = try await FeedwebProcess(arguments: ["--upstream", "http://127.0.0.1:9/feed", "--state-file", path])
        #expect(try await get(alone.port, "/healthz").status == 200)
        #expect(try await get(alone.port, "/api/state").status == 503, "nothing restored")
        try await Eventually.check("the report in the log") { alone.log.contains(bad.logged) }
        #expect(alone.log.contains(path))
        #expect(await alone.stop()?.status == 0)

        // With upstream: its state, written over the bad file within about a second.
        let server = try await ScriptedSSEServer.start(script: [
            .stream([.text(SSEText.event("data", data: Self.first.serializedString()))], ending: .stayOpen)
        ])
        defer { server.shutdownNow() }
        let live = try await FeedwebProcess(arguments: ["--upstream", server.url("/feed"), "--state-file", path])
        defer { live.kill() }
        let contents = try await Eventually.value("a valid state file", within: 5) {
            try StateFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        #expect(contents.document == Self.first)
        #expect(await live.stop()?.status == 0)
    }
}
