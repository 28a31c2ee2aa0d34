import TestSupport

@testable import feedweb

extension InProcessFeedweb {
    /// Runs `body` with feedweb in this process, configured as `feedweb ARGUMENTS` with
    /// `environment` would be (``OptionResolverTests/resolve(_:environment:)``) but on a
    /// free port, then stops it.
    static func run(
        options arguments: [String], environment: [String: String] = [:],
        _ body: (InProcessFeedweb) async throws -> Void
    ) async throws {
        let resolved = try OptionResolverTests.resolve(arguments, environment: environment)
        let feedweb = try InProcessFeedweb(configuration: resolved.configuration)
        do {
            try await body(feedweb)
        } catch {
            try await feedweb.stop()
            throw error
        }
        try await feedweb.stop()
    }
}
