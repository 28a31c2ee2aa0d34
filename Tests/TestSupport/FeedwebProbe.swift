import FeedCore
import Foundation

/// What a test reads from a running feedweb (the binary or in-process) over plain HTTP.
public enum FeedwebProbe {
    /// Waits until `/readyz` answers 200.
    public static func waitUntilReady(port: UInt16, within seconds: Double = 20) async throws {
        try await Eventually.check("feedweb on port \(port) to be ready", within: seconds, poll: .milliseconds(50)) {
            try await HTTPTestClient.get(port: port, "/readyz", timeout: 2).status == 200
        }
    }

    /// `/api/state`: the mirror and its ETag without quotes (the `EPOCH-SEQ` id).
    public static func state(port: UInt16) async throws -> (document: JSONValue, id: String) {
        let response = try await HTTPTestClient.get(port: port, "/api/state", timeout: 5)
        guard response.status == 200, let etag = response.headers["etag"] else { throw RawSocket.Failure.closed }
        return (try JSONValue(parsing: response.body), etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
    }

    /// `/api/items`: the normalised items of the published view.
    public static func items(port: UInt16) async throws -> [JSONValue] {
        let response = try await HTTPTestClient.get(port: port, "/api/items", timeout: 5)
        return try JSONValue(parsing: response.body).arrayValue ?? []
    }

    /// `/readyz` as JSON, whatever its status.
    public static func readiness(port: UInt16) async throws -> (status: Int, body: JSONValue) {
        let response = try await HTTPTestClient.get(port: port, "/readyz", timeout: 5)
        return (response.status, try JSONValue(parsing: response.body))
    }

    /// Waits until the mirror equals `document`; returns its id.
    @discardableResult
    public static func waitForState(_ document: JSONValue, port: UInt16, within seconds: Double = 5) async throws
        -> String
    {
        try await Eventually.value("the mirror on port \(port) to reach the expected document", within: seconds) {
            let state = try await state(port: port)
            return state.document == document ? state.id : nil
        }
    }
}
