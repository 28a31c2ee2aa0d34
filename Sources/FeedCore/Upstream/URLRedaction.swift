import Foundation

/// The one redaction of secrets from URLs that every log line, error message, page and
/// status uses: no user information, no secret-looking query value.
public enum URLRedaction {
    /// Query parameter names that hold secrets when a name contains one of them
    /// (case-insensitive): `api-key`, `apikey`, `token`, `access_token`, `X-Sd-Token`,
    /// `secret`, `password`, `auth`, OpenWeather's `appid`, …
    static let secretNameParts = [
        "key", "token", "secret", "password", "passwd", "pwd", "auth", "signature", "sig", "credential", "session",
        "appid", "jwt",
    ]

    /// `url` fit to show, log and store: without user name and password, and with the value
    /// of every query parameter whose name suggests a secret replaced by `REDACTED`.
    ///
    /// Works on the text, so it also redacts what is not a valid URL (a mistyped
    /// `--upstream`, a `Location` upstream sent): the user information is everything
    /// between `://` and the last `@` of the authority; the query is split at `&` and `=`.
    /// Everything else is kept as written.
    public static func redacted(_ url: String) -> String {
        var text = url
        if let schemeEnd = text.range(of: "://") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = text[authorityStart...].firstIndex { "/?#".contains($0) } ?? text.endIndex
            if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") {
                text.removeSubrange(authorityStart...at)
            }
        }
        guard let question = text.firstIndex(of: "?") else { return text }
        let queryStart = text.index(after: question)
        let queryEnd = text[queryStart...].firstIndex(of: "#") ?? text.endIndex
        let query = text[queryStart..<queryEnd].split(separator: "&", omittingEmptySubsequences: false).map {
            pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let rawName = pair[..<equals]
            let name = String(rawName).removingPercentEncoding ?? String(rawName)
            return isSecretName(name) ? rawName + "=REDACTED" : String(pair)
        }
        text.replaceSubrange(queryStart..<queryEnd, with: query.joined(separator: "&"))
        return text
    }

    /// Whether a query parameter named `name` (decoded) holds a secret: its name contains
    /// one of ``secretNameParts``.
    static func isSecretName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretNameParts.contains { lowered.contains($0) }
    }

    /// `text` (an error message from a library, say) with every URL in it redacted as
    /// ``redacted(_:)`` does. A URL starts at a scheme followed by `://` and runs to the
    /// next space, quote, angle bracket or parenthesis.
    public static func redactingURLs(in text: String) -> String {
        guard text.contains("://") else { return text }
        var out = ""
        var rest = Substring(text)
        while let marker = rest.range(of: "://") {
            // The scheme: the letters, digits, + - . right before "://".
            var schemeStart = marker.lowerBound
            while schemeStart > rest.startIndex {
                let previous = rest.index(before: schemeStart)
                let c = rest[previous]
                guard c.isASCII, c.isLetter || c.isNumber || "+-.".contains(c) else { break }
                schemeStart = previous
            }
            let end = rest[marker.upperBound...].firstIndex { " \t\n\"'<>()".contains($0) } ?? rest.endIndex
            out += rest[..<schemeStart]
            out += redacted(String(rest[schemeStart..<end]))
            rest = rest[end...]
        }
        return out + rest
    }
}
