import FeedCore
import Foundation
import TestSupport
import Testing

@testable import feedweb

/// `--items-path`, `--key-path`, `--version-path` and `--field NAME=/pointer` (and their
/// `FEEDWEB_…` variables) at work, in feedweb configured by them in this process
/// (``InProcessFeedweb/run(options:environment:_:)``), on a feed that is not NYT-shaped: its
/// entries sit at `/data/entries`, are identified by `ident`, carry `headline` and `desk`,
/// and the document's version is `/v`.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct ProfileOptionsTests {
    /// One entry. It also has the generic profile's own `id`, `title` and `section`
    /// members, with other values, so the test sees which pointers feedweb followed.
    static func entry(_ ident: String, headline: String, desk: String) -> JSONValue {
        .object([
            "ident": .string(ident), "headline": .string(headline), "desk": .string(desk),
            "id": .string("generic-id-\(ident.count)"), "title": .string("generic title"),
            "section": .string("generic section"),
        ])
    }

    static let entries: [JSONValue] = [
        entry("a1", headline: "Rates rise again", desk: "Business"),
        entry("b-2", headline: "Storm reaches the coast", desk: "Weather"),
        entry("c 3", headline: "An id with a space", desk: "Metro"),
    ]

    /// The document at version `version`, with `entries` at `/data/entries` and other
    /// entries at `/archive` (where an items path from the environment points).
    static func document(version: Int64, entries: [JSONValue] = entries) -> JSONValue {
        .object([
            "v": .int(version),
            "data": .object(["entries": .array(entries)]),
            "archive": .array([entry("z9", headline: "Archived", desk: "Archive")]),
            "items": .array([entry("generic-item", headline: "The generic path", desk: "Generic")]),
        ])
    }

    static let options = [
        "--profile", "generic", "--items-path", "/data/entries", "--key-path", "/ident", "--version-path", "/v",
        "--field", "title=/headline", "--field", "section=/desk",
    ]

    static let variables = [
        "FEEDWEB_PROFILE": "generic", "FEEDWEB_ITEMS_PATH": "/data/entries", "FEEDWEB_KEY_PATH": "/ident",
        "FEEDWEB_VERSION_PATH": "/v", "FEEDWEB_FIELD": "title=/headline\nsection=/desk",
    ]

    /// Runs `body` with a live upstream serving ``document(version:entries:)`` at version 3
    /// and feedweb on it, configured by `arguments` and `environment` and caught up.
    static func withFeedweb(
        arguments: [String], environment: [String: String] = [:],
        _ body: (LiveFeedUpstream, InProcessFeedweb) async throws -> Void
    ) async throws {
        let upstream = try await LiveFeedUpstream(document: document(version: 3))
        try await InProcessFeedweb.run(options: ["--upstream", upstream.url] + arguments, environment: environment) {
            feedweb in
            try await FeedwebProbe.waitUntilReady(port: feedweb.port)
            try await FeedwebProbe.waitForState(upstream.document, port: feedweb.port)
            try await body(upstream, feedweb)
        }
        await upstream.shutdown()
    }

    /// Whether `key` uses only the characters a URL path segment needs no escaping for.
    static func isURLSafe(_ key: String) -> Bool {
        !key.isEmpty
            && key.unicodeScalars.allSatisfy { CharacterSet(charactersIn: "-_.").contains($0) || $0.isASCIIAlnum }
    }

    /// `/api/items` shows the entries from `/data/entries`, keyed by `ident` (an unreserved
    /// id is its own key; any other becomes a URL-safe key), titled and sectioned by
    /// `headline` and `desk`.
    static func expectEntries(port: UInt16) async throws {
        let items = try await FeedwebProbe.items(port: port)
        #expect(
            items.map { $0["title"]?.stringValue } == [
                "Rates rise again", "Storm reaches the coast", "An id with a space",
            ])
        #expect(items.map { $0["section"]?.stringValue } == ["Business", "Weather", "Metro"])
        let keys = items.compactMap { $0["key"]?.stringValue }
        try #require(keys.count == 3)
        #expect(keys[0] == "a1")
        #expect(keys[1] == "b-2")
        #expect(keys[2] != "c 3" && Self.isURLSafe(keys[2]), "an id with a space gets a URL-safe key, not \(keys[2])")
        let detail = try await HTTPTestClient.get(port: port, "/api/items/\(keys[2])")
        #expect(detail.status == 200)
        #expect(try JSONValue(parsing: detail.body)["title"]?.stringValue == "An id with a space")
    }

    /// The version at `/v` guards the published view: a change that lowers it reaches the
    /// mirror (`/api/state`) but not `/api/items`; one that raises it past the published
    /// version is published.
    static func expectVersionGuard(upstream: LiveFeedUpstream, port: UInt16) async throws {
        try await upstream.change(
            [Patch.replace("/v", .int(2)), Patch.replace("/data/entries/0/headline", .string("A stale headline"))],
            bumpVersion: false)
        try await FeedwebProbe.waitForState(upstream.document, port: port)
        #expect(
            try await FeedwebProbe.items(port: port).first?["title"]?.stringValue == "Rates rise again",
            "a lower version is not published")

        try await upstream.change(
            [Patch.replace("/v", .int(4)), Patch.replace("/data/entries/0/headline", .string("A fresh headline"))],
            bumpVersion: false)
        try await Eventually.check("the higher version to be published", within: 5) {
            try await FeedwebProbe.items(port: port).first?["title"]?.stringValue == "A fresh headline"
        }
    }

    @Test("--items-path, --key-path, --version-path and --field choose the items, keys, guard and fields")
    func commandLineOptions() async throws {
        try await Self.withFeedweb(arguments: Self.options) { upstream, feedweb in
            try await Self.expectEntries(port: feedweb.port)
            let page = try await HTTPTestClient.get(port: feedweb.port, "/items/a1")
            #expect(page.status == 200)
            #expect(page.text.contains("Rates rise again"))
            try await Self.expectVersionGuard(upstream: upstream, port: feedweb.port)
        }
    }

    @Test("FEEDWEB_ITEMS_PATH, FEEDWEB_KEY_PATH, FEEDWEB_VERSION_PATH and FEEDWEB_FIELD do the same")
    func environmentVariables() async throws {
        try await Self.withFeedweb(arguments: [], environment: Self.variables) { upstream, feedweb in
            try await Self.expectEntries(port: feedweb.port)
            try await Self.expectVersionGuard(upstream: upstream, port: feedweb.port)
        }
    }

    @Test("--key-path none keys every item by a hash of its JSON, not by the profile's fallback ids")
    func keyPathNone() async throws {
        let arguments = ["--profile", "generic", "--items-path", "/data/entries", "--key-path", "none"]
        try await Self.withFeedweb(arguments: arguments) { _, feedweb in
            let keys = try await FeedwebProbe.items(port: feedweb.port).compactMap { $0["key"]?.stringValue }
            // The generic profile would take each entry's `id` ("generic-id-…") without the option.
            #expect(keys == Self.entries.map { ItemKey.make(id: nil, item: $0) })
            #expect(!keys.contains { $0.hasPrefix("generic-id") })
        }
    }

    @Test("each option wins over its variable")
    func optionsWinOverVariables() async throws {
        // Every variable points elsewhere: the archive, the generic id, no version, the desk
        // as title.
        let elsewhere = [
            "FEEDWEB_PROFILE": "generic", "FEEDWEB_ITEMS_PATH": "/archive", "FEEDWEB_KEY_PATH": "/id",
            "FEEDWEB_VERSION_PATH": "none", "FEEDWEB_FIELD": "title=/desk\nsection=/headline",
        ]
        try await Self.withFeedweb(arguments: Self.options, environment: elsewhere) { upstream, feedweb in
            try await Self.expectEntries(port: feedweb.port)
            try await Self.expectVersionGuard(upstream: upstream, port: feedweb.port)
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIAlnum: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
