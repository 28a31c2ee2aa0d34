/// The value of `--frame-ancestors`: who may embed the pages, as the source list of the
/// Content-Security-Policy directive `frame-ancestors` (CSP Level 3, `ancestor-source-list`),
/// taken as people type it.
///
/// A shell removes the quotes of `--frame-ancestors 'self' https://intranet.example` and
/// passes two words, `self` and `https://intranet.example`; sent as typed, `self` would be
/// a host named "self". So the keywords `self` and `none` are taken with or without their
/// quotes (in any case) and always sent quoted. The sources may come as several words or as
/// one word with spaces (as an environment variable holds them).
///
/// Accepted sources: `'self'`; `'none'`, alone; a scheme (`https:`); a host with an optional
/// scheme, port and path (`https://intranet.example`, `*.example.com`, `http://10.0.0.5:8080`,
/// `example.com/kiosk/`). Anything else — another keyword such as `'unsafe-inline'`, a `;`
/// or `,` that would end the directive or the header, a character a host cannot have — is
/// a ``Problem`` naming the word.
struct FrameAncestors: Equatable {
    /// The sources, each as the header spells it.
    let sources: [String]

    /// The directive's value: the sources separated by spaces.
    var directiveValue: String { sources.joined(separator: " ") }

    /// What is wrong with a source list.
    struct Problem: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Reads the sources from `words`, each of which may hold several separated by spaces.
    init(parsing words: [String]) throws(Problem) {
        let tokens = words.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) }
        guard !tokens.isEmpty else {
            throw Problem(description: "needs at least one source, e.g. 'self' or https://intranet.example")
        }
        var sources: [String] = []
        for token in tokens {
            let source = try Self.source(token)
            if !sources.contains(source) { sources.append(source) }
        }
        if sources.contains("'none'") && sources.count > 1 {
            throw Problem(description: "'none' cannot be combined with other sources")
        }
        self.sources = sources
    }

    /// One source as the header spells it.
    private static func source(_ token: String) throws(Problem) -> String {
        let bare = token.count >= 2 && token.hasPrefix("'") && token.hasSuffix("'") ? token.dropFirst().dropLast() : nil
        switch (bare ?? Substring(token)).lowercased() {
        case "self": return "'self'"
        case "none": return "'none'"
        default: break
        }
        if bare != nil {
            throw Problem(
                description: "\(token) is not allowed in frame-ancestors (only 'self' and 'none' are keywords there)")
        }
        guard isSchemeSource(token) || isHostSource(token) else {
            throw Problem(
                description:
                    "'\(token)' is not a CSP source: use self, none, a scheme (https:) or a host such as https://intranet.example, *.example.com or example.com:8443"
            )
        }
        return token
    }

    /// `scheme ":"`: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isSchemeSource(_ token: String) -> Bool {
        guard token.hasSuffix(":") else { return false }
        return isScheme(token.utf8.dropLast())
    }

    private static func isScheme(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy {
            isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    /// `[scheme "://"] host [":" port] [path]`: the host `*`, or labels of letters, digits and
    /// `-` separated by dots, optionally after `*.`; the port digits or `*`; the path from `/`
    /// on, of URL characters other than `;` and `,`.
    private static func isHostSource(_ token: String) -> Bool {
        var rest = Substring(token)
        if let separator = rest.range(of: "://") {
            guard isScheme(rest[..<separator.lowerBound].utf8) else { return false }
            rest = rest[separator.upperBound...]
        }
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        let path = rest[pathStart...]
        var hostAndPort = rest[..<pathStart]
        if let colon = hostAndPort.lastIndex(of: ":") {
            let port = hostAndPort[hostAndPort.index(after: colon)...]
            guard port == "*" || (!port.isEmpty && port.utf8.allSatisfy(isDigit)) else { return false }
            hostAndPort = hostAndPort[..<colon]
        }
        return isHost(hostAndPort) && isPath(path)
    }

    private static func isHost(_ host: Substring) -> Bool {
        if host == "*" { return true }
        var name = host.hasPrefix("*.") ? host.dropFirst(2) : host
        if name.hasSuffix(".") { name = name.dropLast() }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return !name.isEmpty
            && labels.allSatisfy { label in
                !label.isEmpty && label.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
            }
    }

    private static func isPath(_ path: Substring) -> Bool {
        let allowed = Set("-._~!$&'()*+=:@/%".utf8)
        return !path.hasPrefix("//") && path.utf8.allSatisfy { isLetter($0) || isDigit($0) || allowed.contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
