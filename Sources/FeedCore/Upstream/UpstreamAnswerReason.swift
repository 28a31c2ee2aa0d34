import Foundation

/// What an error answer's body says went wrong, in a few words fit to show beside its
/// status on the pages, `/readyz` and the log: GitHub's `API rate limit exceeded for …`,
/// OpenWeather's `Invalid API key. …`, a plain-text `no such route`. Pure: bytes in, words
/// out.
///
/// The body is upstream's, so hostile: only a string is taken from it, control characters
/// go, white space is folded, it is cut at ``maxCharacters``, and every secret of the
/// request (``UpstreamEndpoint/secrets``) and every URL's secrets are redacted, since an
/// API may echo the key it refused. The pages escape it like any text.
public enum UpstreamAnswerReason {
    /// The most bytes of an error answer read for its reason; a larger body gives none.
    public static let maxBodyBytes = 8192
    /// The most characters of a reason.
    static let maxCharacters = 160
    /// JSON members that hold an API's own words for an error, in the order they are looked
    /// for: `message` (GitHub, OpenWeather, most), `error_description` (OAuth's words, before
    /// its `error` code), `error` (a string, or an object with a `message`: Google's APIs),
    /// `detail` and `title` (RFC 9457 problem details), `errors` (an array of strings or of
    /// objects with a `message`: GraphQL, Stripe's), `status_message` (TMDB), `Message`
    /// (AWS), `reason`, `description`.
    static let members = [
        "message", "error_description", "error", "detail", "title", "errors", "status_message", "Message", "reason",
        "description",
    ]

    /// The reason `body` (of Content-Type `contentType`) gives, or `nil`: none found, an
    /// HTML page (a proxy's error page says no more than its status), or more than
    /// ``maxBodyBytes``.
    public static func reason(in body: [UInt8], contentType: String?, secrets: [String]) -> String? {
        guard !body.isEmpty, body.count <= maxBodyBytes else { return nil }
        let words: String?
        if let document = try? JSONValue(parsing: body) {
            words = said(by: document, depth: 0)
        } else {
            let type = contentType?.lowercased() ?? ""
            let text = String(decoding: body, as: UTF8.self)
            let isHTML =
                type.contains("html") || text.drop { $0.isWhitespace }.hasPrefix("<")
            words = isHTML ? nil : text.split(whereSeparator: \.isNewline).first.map(String.init)
        }
        guard let words else { return nil }
        let cleaned = shown(words, secrets: secrets)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// The first string under one of ``members`` in `value` (at most two levels down).
    private static func said(by value: JSONValue, depth: Int) -> String? {
        switch value {
        case .string(let text):
            return depth > 0 ? text : nil
        case .array(let elements):
            return elements.first.flatMap { said(by: $0, depth: depth + 1) }
        case .object(let object):
            guard depth <= 2 else { return nil }
            for name in members {
                if let member = object[name], let text = said(by: member, depth: depth + 1),
                    !text.trimmingCharacters(in: .whitespaces).isEmpty
                {
                    return text
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// `text` fit to show: secrets and URLs redacted, control characters out, white space
    /// folded, at most ``maxCharacters`` (cut with `…`).
    static func shown(_ text: String, secrets: [String]) -> String {
        var redacted = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            redacted = redacted.replacingOccurrences(of: secret, with: "REDACTED")
        }
        redacted = URLRedaction.redactingURLs(in: redacted)
        let folded = redacted.unicodeScalars
            .map { CharacterSet.controlCharacters.contains($0) ? " " : String($0) }.joined()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard folded.count > maxCharacters else { return folded }
        return String(folded.prefix(maxCharacters - 1)) + "…"
    }
}
