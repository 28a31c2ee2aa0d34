import Foundation

/// The decisions of polling mode (`--poll URL`), apart from the I/O so that they are
/// testable: which headers a conditional GET sends, and what an answer means.
///
/// - `200`–`299` (not `204`) with a JSON body: the new document, and the validators
///   (`ETag`, `Last-Modified`) to send next time. The store turns a later document into the
///   diff patch, so the first answer is a `data` and every change a `patch` downstream.
/// - `304 Not Modified` to a conditional request: nothing changed.
/// - Anything else — a body that is not JSON, an empty body, `204`, a `304` to an
///   unconditional request, any other status — is a failure: shown in the status and retried
///   with backoff; the state and the validators stay as they were.
public enum PollingProtocol {
    /// What a conditional GET sends back: the last `ETag` and `Last-Modified`.
    public struct Validators: Sendable, Equatable {
        public var etag: String?
        public var lastModified: String?

        public init(etag: String? = nil, lastModified: String? = nil) {
            self.etag = etag
            self.lastModified = lastModified
        }

        /// Whether there is nothing to send (the request is unconditional).
        public var isEmpty: Bool { etag == nil && lastModified == nil }
    }

    /// What one answer means.
    public enum Answer: Sendable, Equatable {
        /// `304`: the document did not change.
        case notModified
        /// A new document (possibly equal to the last one), with the validators to send next.
        case document(JSONValue, validators: Validators)
        /// Not usable: the reason in words.
        case failure(String)
    }

    /// Whether an answer with `status` has a body worth reading (a 2xx other than 204).
    public static func wantsBody(status: Int) -> Bool {
        (200..<300).contains(status) && status != 204
    }

    /// Why an answer of Content-Type `contentType` cannot be a document before its body is
    /// read: an SSE stream (whose body never ends) given to `--poll`. `nil`: read it.
    public static func unreadable(contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("text/event-stream") else { return nil }
        return "upstream answered an event stream (Content-Type \(String(contentType.prefix(100)))), not a JSON"
            + " document (an SSE feed is read with --upstream URL)"
    }

    /// Whether an answer with `status` is an error whose body may say why (4xx, 5xx): read
    /// up to ``UpstreamAnswerReason/maxBodyBytes``.
    public static func wantsReason(status: Int) -> Bool {
        (400..<600).contains(status)
    }

    /// The request headers: `Accept: application/json` (unless configured), `Content-Type:
    /// application/json` when `posting` a body (unless configured), the validators as
    /// `If-None-Match` and `If-Modified-Since`, then every configured header in order.
    public static func requestHeaders(
        configured: [(name: String, value: String)], validators: Validators, posting: Bool = false
    ) -> [(name: String, value: String)] {
        let names = Set(configured.map { $0.name.lowercased() })
        var headers: [(name: String, value: String)] = []
        if !names.contains("accept") { headers.append(("Accept", "application/json")) }
        if posting && !names.contains("content-type") { headers.append(("Content-Type", "application/json")) }
        if let etag = validators.etag, !names.contains("if-none-match") {
            headers.append(("If-None-Match", etag))
        }
        if let lastModified = validators.lastModified, !names.contains("if-modified-since") {
            headers.append(("If-Modified-Since", lastModified))
        }
        return headers + configured
    }

    /// What the answer `status`, `headers`, `body` to a request that sent `sent` means.
    /// `body` is only looked at when ``wantsBody(status:)``; an error's `reason` (what its
    /// body says, ``HTTPUpstream/reason(of:session:)``) is said after its status. Redirects
    /// never get here: ``UpstreamRedirects`` follows them first. The answer to a `posted`
    /// query (`--poll-body`) that is a GraphQL result (``GraphQLResult``) is read as one: its
    /// `data` is the document, its errors without data upstream's error.
    public static func interpret(
        status: Int, headers: [(name: String, value: String)], body: [UInt8], sent: Validators,
        reason: String? = nil, posted: Bool = false
    ) -> Answer {
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name }?.value
        }
        switch status {
        case 304:
            return sent.isEmpty
                ? .failure("upstream answered 304 Not Modified to an unconditional request") : .notModified
        case 204:
            return .failure("upstream answered 204 No Content")
        case 200..<300:
            guard !body.isEmpty else { return .failure("upstream answered HTTP \(status) with an empty body") }
            do {
                var document = try JSONValue(parsing: body)
                let validators = Validators(
                    etag: header("etag").flatMap(nonEmpty), lastModified: header("last-modified").flatMap(nonEmpty))
                if posted, let result = GraphQLResult(document) {
                    switch result.command {
                    case .replaceDocument(let data)?: document = data
                    case .reportError(let message)?: return .failure(message)
                    default: return .failure("upstream answered a GraphQL result without data or errors")
                    }
                }
                return .document(document, validators: validators)
            } catch {
                let type = header("content-type").map { " (Content-Type \(String($0.prefix(100))))" } ?? ""
                return .failure("upstream's answer is not JSON\(type): \(error)")
            }
        default:
            return .failure("upstream answered HTTP \(status)" + (reason.map { ": " + $0 } ?? ""))
        }
    }

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
}
