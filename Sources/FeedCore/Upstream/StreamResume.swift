import Foundation

/// Where a JSON stream can be started again, as its own messages say: a query parameter the
/// next request sets, so that a reconnect hears what changed while feedweb was away rather
/// than everything again (or, with CouchDB's `since=now`, nothing of it).
///
/// - A Kubernetes watch: `resourceVersion`, the version of the last object (or bookmark) read
///   (``KubernetesWatch/resume(after:)``). A `410 Expired` says the version is too old: the
///   next watch starts over.
/// - CouchDB's changes feed: `since`, the `seq` of the last change (or the feed's
///   `last_seq`) (``CouchChanges/resume(after:)``).
/// - ntfy's JSON stream: `since`, the id of the last message (``NtfyMessages/resume(after:)``).
///
/// The point is held as the connection's position (``UpstreamPosition/encode(_:)``), so a
/// cluster leader that takes over resumes there too.
public enum StreamResume: Sendable, Equatable {
    /// The next request sets `name=value` in the URL's query, in place of any value there.
    case at(ResumeQuery)
    /// The next request is the configured URL as it is.
    case startOver

    /// A query parameter that resumes a stream.
    public struct ResumeQuery: Sendable, Equatable {
        /// The parameter's name (`resourceVersion`, `since`).
        public let name: String
        /// Its value, as the stream wrote it (not percent-encoded).
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// `url` with this parameter set: the first parameter of the same name takes the
        /// value (and later ones go), or it is added last. Every other part of the URL, the
        /// other parameters' encoding included, stays as it was.
        public func applied(to url: URL) -> URL {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
            let encoded = Self.percentEncoded(value)
            var items = components.percentEncodedQueryItems ?? []
            if let first = items.firstIndex(where: { $0.name == name }) {
                items[first].value = encoded
                items = items.enumerated().filter { $0.offset == first || $0.element.name != name }.map(\.element)
            } else {
                items.append(URLQueryItem(name: name, value: encoded))
            }
            components.percentEncodedQueryItems = items
            return components.url ?? url
        }

        /// `text` with everything but unreserved characters percent-encoded (RFC 3986), so
        /// that a value with `&`, `+`, `=` or `#` stays one value.
        static func percentEncoded(_ text: String) -> String {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }

        /// `name=value`, as logged.
        public var description: String { "\(name)=\(value)" }
    }
}
