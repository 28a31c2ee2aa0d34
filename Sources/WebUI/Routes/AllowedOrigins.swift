/// The origins whose pages may read feedweb's streams and API from a browser
/// (`--allow-origin`, CORS): each a web origin, `scheme://host[:port]` with `http` or
/// `https`, or `*` for any.
///
/// Origins are kept as a browser's `Origin` header serializes them (RFC 6454 §6.1): scheme
/// and host in lower case, the port only when it is not the scheme's default. So
/// `HTTPS://Intranet.Example:443` allows the origin `https://intranet.example`, and a
/// request's `Origin` is compared the same way. Empty (``none``, the default): no origin
/// is allowed, and feedweb sends no CORS header at all.
public struct AllowedOrigins: Sendable, Equatable {
    /// Whether every origin is allowed (`*` was given).
    public let allowsAny: Bool
    /// The origins allowed by name, serialized; with ``allowsAny`` they change nothing.
    public let origins: Set<String>

    /// No origin: CORS off.
    public static let none = AllowedOrigins(allowsAny: false, origins: [])

    /// Whether no origin at all is allowed.
    public var isEmpty: Bool { !allowsAny && origins.isEmpty }

    /// What is wrong with a value given as an origin.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    private init(allowsAny: Bool, origins: Set<String>) {
        self.allowsAny = allowsAny
        self.origins = origins
    }

    /// Reads `values`, each `*` or one origin (surrounding spaces ignored); the first that
    /// is neither is a ``Problem`` naming it.
    public init(parsing values: [String]) throws(Problem) {
        var allowsAny = false
        var origins = Set<String>()
        for value in values {
            let trimmed = value.trimmingSpaces
            if trimmed == "*" {
                allowsAny = true
            } else {
                origins.insert(try Self.serialized(trimmed))
            }
        }
        self.init(allowsAny: allowsAny, origins: origins)
    }

    /// Whether a request's `Origin` header value is an allowed origin. `null` (an opaque
    /// origin) or anything that is not an origin is allowed only by `*`.
    public func allows(_ origin: String) -> Bool {
        if allowsAny { return true }
        guard let serialized = try? Self.serialized(origin) else { return false }
        return origins.contains(serialized)
    }

    /// `text` as a browser serializes the origin: lower-case `http` or `https`, `://`, the
    /// lower-case host (a name of letters, digits, `-`, `.` and `_`, or an IPv6 address in
    /// brackets), and `:port` unless it is the scheme's default; nothing after it. A
    /// problem's message ends with what an origin is, and `or *` when `anyAllowed`.
    static func serialized(_ text: String, anyAllowed: Bool = true) throws(Problem) -> String {
        let example =
            "an origin is scheme://host[:port], e.g. https://intranet.example or http://127.0.0.1:8000"
            + (anyAllowed ? ", or *" : "")
        guard let separator = text.firstRange(of: "://") else {
            throw Problem(description: "'\(text)' is not an origin; \(example)")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: throw Problem(description: "'\(text)' is not an http or https origin; \(example)")
        }
        let authority = text[separator.upperBound...]
        if let end = authority.firstIndex(where: { "/?#".contains($0) }) {
            let what = authority[end] == "/" ? "a path" : authority[end] == "?" ? "a query" : "a fragment"
            throw Problem(description: "'\(text)' has \(what) (\(authority[end...])); \(example)")
        }
        // The host, and what follows it: nothing or `:port`.
        let host: Substring
        let rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw Problem(description: "'\(text)' has no valid host; \(example)")
            }
            host = authority[...close]
            rest = authority[authority.index(after: close)...]
            let address = host.dropFirst().dropLast()
            guard !address.isEmpty, address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw Problem(description: "'\(text)' has no valid host; \(example)")
            }
        } else {
            let colon = authority.firstIndex(of: ":") ?? authority.endIndex
            host = authority[..<colon]
            rest = authority[colon...]
            guard !host.isEmpty,
                host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") })
            else {
                throw Problem(description: "'\(text)' has no valid host; \(example)")
            }
        }
        var port = ""
        if !rest.isEmpty {
            let digits = rest.dropFirst()
            guard rest.first == ":", (1...5).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(digits), (1...65535).contains(number)
            else {
                throw Problem(description: "'\(text)' has no valid port (1 to 65535); \(example)")
            }
            if number != defaultPort { port = ":\(number)" }
        }
        return scheme + "://" + host.lowercased() + port
    }
}

extension String {
    /// Without the spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
