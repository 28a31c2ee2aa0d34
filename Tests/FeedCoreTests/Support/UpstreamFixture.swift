import FeedCore
import Foundation
import Logging
import TestSupport
import Testing

/// Shared helpers for the upstream tests.
enum Upstream {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tls", isDirectory: true)
    static var caFile: String { fixtures.appendingPathComponent("ca.pem").path }
    static var otherCAFile: String { fixtures.appendingPathComponent("other-ca.pem").path }
    static var serverTLS: ScriptedSSEServer.TLS {
        .init(
            certificateChainPEMFile: fixtures.appendingPathComponent("server.pem").path,
            privateKeyPEMFile: fixtures.appendingPathComponent("server-key.pem").path)
    }

    /// An NYT-shaped document whose `num_results` is `version`.
    static func document(_ version: Int, marker: String = "m") -> String {
        guard case .object(var members) = NewswireFeed.document([], version: Int64(version)) else { return "" }
        members["marker"] = .string(marker)
        return JSONValue.object(members).serializedString()
    }

    static func setVersion(_ version: Int) -> String {
        #"[{"op":"replace","path":"/num_results","value":\#(version)}]"#
    }

    /// The `num_results` of a document.
    static func version(_ document: JSONValue?) -> Int64? {
        document?["num_results"]?.int64Value
    }

    /// The connection's settings for a test: short backoffs by default.
    struct Options {
        var headers: [(name: String, value: String)] = []
        var maxEventBytes = 16 * 1024 * 1024
        var maxBackoff: Duration = .milliseconds(300)
        var readTimeout: Duration = .seconds(10)
        var caFile: String?
    }

    /// Starts a server with `script`, and a connection to `server.url(path)` with
    /// `options`; runs `body`; then stops both and checks the connection stopped promptly.
    static func run(
        _ script: [ScriptedSSEServer.Response],
        then fallback: ScriptedSSEServer.Response = .status(503, body: "script exhausted"),
        tls: ScriptedSSEServer.TLS? = nil, path: String = "/feed",
        options: Options = .init(), kind: UpstreamKind = .document,
        _ body: (ScriptedSSEServer, UpstreamHarness) async throws -> Void
    ) async throws {
        let server = try await ScriptedSSEServer.start(script: script, then: fallback, tls: tls)
        let configuration = UpstreamConfiguration(
            url: server.url(path), headers: options.headers, maxEventBytes: options.maxEventBytes,
            maxBackoff: options.maxBackoff, readTimeout: options.readTimeout, caFile: options.caFile)
        try await run(on: server, configuration: configuration, kind: kind) { harness in
            try await body(server, harness)
        }
    }

    /// Runs a connection of `kind` with `configuration` while `body` runs; then stops it,
    /// shuts `server` down, and checks the connection stopped promptly. Also on failure.
    static func run(
        on server: ScriptedSSEServer, configuration: UpstreamConfiguration, kind: UpstreamKind = .document,
        _ body: (UpstreamHarness) async throws -> Void
    ) async throws {
        let harness: UpstreamHarness
        do {
            harness = try UpstreamHarness(server: server, configuration: configuration, kind: kind)
        } catch {
            await server.shutdown()
            throw error
        }
        try await running(harness, shutdown: { await server.shutdown() }, body)
    }

    /// Starts `harness`, runs `body`, then stops the connection and its server
    /// (`shutdown`) and checks the connection stopped within 3 s. Also on failure.
    static func running(
        _ harness: UpstreamHarness, shutdown: () async -> Void, _ body: (UpstreamHarness) async throws -> Void
    ) async throws {
        harness.start()
        do {
            try await body(harness)
        } catch {
            _ = await harness.stop()
            await shutdown()
            throw error
        }
        let stopped = await harness.stop()
        await shutdown()
        #expect(stopped != nil, "run() did not return within 3 s of cancellation")
        #expect(harness.status.phase == .stopped)
    }
}
