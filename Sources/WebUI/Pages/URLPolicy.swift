/// Decides which feed-supplied URLs may appear in an `href` or `src`.
///
/// Allowed: absolute `http:` and `https:` URLs, and feedweb's own paths (one leading `/`,
/// not `//`). Everything else — `javascript:`, `data:`, `vbscript:`, relative paths,
/// entity-encoded or whitespace-obfuscated schemes, anything with control characters or
/// spaces — is dropped (`nil`). The result still goes through HTML attribute escaping.
enum URLPolicy {
    static func safeURL(_ candidate: String?) -> String? {
        guard let candidate else { return nil }
        let bytes = Array(candidate.utf8)
        guard !bytes.isEmpty, bytes.count <= 4096 else { return nil }
        // Browsers strip tabs and newlines inside URLs ("java\tscript:"), so any control
        // character, space, quote, angle bracket or backslash disqualifies the URL outright.
        for byte in bytes {
            if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
                || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\\")
                || byte == UInt8(ascii: "`")
            {
                return nil
            }
        }
        if bytes[0] == UInt8(ascii: "/") {
            return bytes.count > 1 && bytes[1] == UInt8(ascii: "/") ? nil : candidate
        }
        let lower = candidate.lowercased()
        for scheme in ["https://", "http://"] where lower.hasPrefix(scheme) {
            return lower.count > scheme.count ? candidate : nil
        }
        return nil
    }
}
