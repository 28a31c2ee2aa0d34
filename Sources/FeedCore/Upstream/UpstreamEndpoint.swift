import Foundation

/// Where an upstream source is and the headers every request to it carries, checked once:
/// the command line asks ``problem(withURL:transport:)`` and
/// ``problem(withHeaderName:value:)`` before starting, and ``UpstreamConnection`` makes
/// one with ``init(url:headers:transport:)``, which throws on the same problems.
///
/// Invariants: ``url`` is absolute, has a host, and its scheme is one of the transport's
/// (`http`/`https`, or `ws`/`wss`); every header name is an RFC 9110 token and every value
/// is free of control characters but tab (so nothing can be injected into a request).
public struct UpstreamEndpoint: Sendable {
    /// How upstream is reached.
    public enum Transport: Sendable, Equatable {
        /// HTTP GET: an SSE stream or a polled JSON document.
        case http
        /// A WebSocket (the HTTP upgrade handshake, then messages).
        case webSocket
        /// An MQTT broker (a TCP connection, CONNECT, SUBSCRIBE, then its messages).
        case mqtt

        /// The URL schemes it takes, lower case.
        var schemes: Set<String> {
            switch self {
            case .http: return ["http", "https"]
            case .webSocket: return ["ws", "wss"]
            case .mqtt: return ["mqtt", "mqtts"]
            }
        }

        /// The schemes in words, for error messages.
        public var schemesText: String {
            switch self {
            case .http: return "http or https"
            case .webSocket: return "ws or wss"
            case .mqtt: return "mqtt or mqtts"
            }
        }
    }

    public let url: URL
    public let transport: Transport
    /// The configured request headers (`--header`), in order.
    public let headers: [(name: String, value: String)]

    /// Checks `url` and `headers`; throws ``UpstreamError/invalidURL(_:)`` or
    /// ``UpstreamError/invalidHeader(name:)`` naming what is wrong.
    public init(url: String, headers: [(name: String, value: String)], transport: Transport) throws(UpstreamError) {
        guard let parsed = Self.absoluteURL(url, schemes: transport.schemes) else { throw .invalidURL(url) }
        for header in headers where Self.problem(withHeaderName: header.name, value: header.value) != nil {
            throw .invalidHeader(name: header.name)
        }
        self.url = parsed
        self.transport = transport
        self.headers = headers
    }

    /// What no message may show, longest first: the URL's user name and password, the
    /// values of its query parameters whose names suggest a secret (as ``URLRedaction``
    /// redacts them), and every configured header's value of four characters or more with
    /// each word of it of eight or more (the token of `Authorization: Bearer TOKEN`, not the
    /// word `Bearer`). Worked out when a message needs it, not kept.
    public var secrets: [String] {
        var found: [String] = []
        if let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            found += [
                components.user, components.password, components.percentEncodedUser,
                components.percentEncodedPassword,
            ].compactMap { $0 }
            for item in components.queryItems ?? [] where URLRedaction.isSecretName(item.name) {
                if let value = item.value { found.append(value) }
            }
            for item in components.percentEncodedQueryItems ?? [] {
                if let value = item.value, URLRedaction.isSecretName(item.name.removingPercentEncoding ?? item.name) {
                    found.append(value)
                }
            }
        }
        for header in headers where header.value.count >= 4 {
            found.append(header.value)
            found += header.value.split(separator: " ").map(String.init).filter { $0.count >= 8 }
        }
        return Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// The transport `url`'s scheme asks for (`ws`/`wss`: a WebSocket; `mqtt`/`mqtts`: an
    /// MQTT broker; anything else: HTTP, checked later).
    public static func transport(of url: String) -> Transport {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        for transport in [Transport.webSocket, .mqtt] where transport.schemes.contains(scheme) { return transport }
        return .http
    }

    /// `nil` when `url` is an absolute URL with a host and one of `transport`'s schemes,
    /// else why not (the URL redacted: it may carry a password or an API key).
    public static func problem(withURL url: String, transport: Transport) -> String? {
        guard absoluteURL(url, schemes: transport.schemes) == nil else { return nil }
        return "'\(URLRedaction.redacted(url))' is not an absolute \(transport.schemesText) URL"
    }

    /// `nil` when `name` and `value` can be sent as a request header, else why not (never
    /// the value: it may be a secret).
    public static func problem(withHeaderName name: String, value: String) -> String? {
        guard isToken(name) else { return "'\(name)' is not a valid header name" }
        guard isValidHeaderValue(value) else { return "the value of '\(name)' has control characters" }
        return nil
    }

    /// `text` as an absolute URL with a host and one of `schemes`, else `nil`.
    static func absoluteURL(_ text: String, schemes: Set<String>) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// Whether `name` is an HTTP header name (an RFC 9110 token).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || "!#$%&'*+-.^_`|~".utf8.contains(b)
            }
    }

    /// Whether `value` may be sent as a header value: no control characters but tab.
    static func isValidHeaderValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// Scheme, host and effective port: what "the same origin" compares.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? defaultPort(scheme: scheme)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// `host:port` of `url`, the port spelled out (for error messages).
    static func hostAndPort(of url: URL) -> String {
        let host = url.host ?? "?"
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(shown):\(url.port ?? defaultPort(scheme: url.scheme?.lowercased() ?? ""))"
    }

    private static func defaultPort(scheme: String) -> Int {
        scheme == "https" || scheme == "wss" ? 443 : 80
    }
}
