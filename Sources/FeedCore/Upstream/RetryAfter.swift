/// How long a server asked feedweb to wait before its next request, read from its answer's
/// headers, so that a rate-limited API is not asked again sooner (and a token is not locked
/// out for asking too often):
///
/// - `Retry-After` (RFC 9110 §10.2.3) on an answer that is not 2xx (429 Too Many Requests,
///   503): seconds, or an HTTP date;
/// - a rate limit spent, on any answer: `X-RateLimit-Remaining: 0` (GitHub's and many
///   others') until `X-RateLimit-Reset`, or the IETF draft's `RateLimit-Remaining: 0` until
///   `RateLimit-Reset`. A reset above 10⁹ is a time (seconds since 1970, GitHub's), else a
///   number of seconds from now (the draft's). So a poll that used the last request of the
///   hour waits for the reset instead of being refused until then;
/// - `X-Poll-Interval` (GitHub's events and notifications APIs: how often a client may
///   poll), on any answer: the next poll waits at least that many seconds.
///
/// Pure: the caller gives the time now. The longest wait honoured is ``longest``.
enum RetryAfter {
    /// The longest wait honoured: 1 hour. A server that asks for more is asked again then.
    static let longest: Duration = .seconds(3600)

    /// What the answer with `status` and `headers` asks, at `now`: the longer of what it says,
    /// at most ``longest``, with the header that said it; `nil` when it asks nothing, or only
    /// a time already past.
    static func asked(status: Int, headers: [(name: String, value: String)], now: WallTime)
        -> (wait: Duration, header: String)?
    {
        func value(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name }.map { $0.value.trimmingCharacters(in: .whitespaces) }
        }
        var asked: [(wait: Duration, header: String)] = []
        if !(200..<300).contains(status), let text = value("retry-after"), let wait = Self.wait(in: text, now: now) {
            asked.append((wait, "Retry-After"))
        }
        for prefix in ["x-ratelimit-", "ratelimit-"] {
            guard value(prefix + "remaining").flatMap({ Int($0) }) == 0,
                let reset = value(prefix + "reset").flatMap({ Int64($0) }), reset >= 0
            else { continue }
            let seconds = reset > 1_000_000_000 ? reset - now.microseconds / 1_000_000 : reset
            if seconds > 0 {
                asked.append((.seconds(seconds), prefix == "ratelimit-" ? "RateLimit-Reset" : "X-RateLimit-Reset"))
            }
        }
        if let text = value("x-poll-interval"), let seconds = Int64(text), seconds > 0 {
            asked.append((.seconds(seconds), "X-Poll-Interval"))
        }
        guard let longest = asked.max(by: { $0.wait < $1.wait }) else { return nil }
        return (min(longest.wait, Self.longest), longest.header)
    }

    /// The wait a `Retry-After` value names: whole seconds, or an HTTP date after `now`.
    private static func wait(in text: String, now: WallTime) -> Duration? {
        if let seconds = Int64(text) { return seconds > 0 ? .seconds(seconds) : nil }
        guard let date = WallTime(httpDate: text), date > now else { return nil }
        return .microseconds(date.microseconds - now.microseconds)
    }
}
