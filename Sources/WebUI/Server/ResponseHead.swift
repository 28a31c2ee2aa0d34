import Glibc

/// The head of a `200` response to an HTTP/1.1 request, byte for byte as libmicrohttpd
/// writes it: the status line, `Date` first, the response's headers in their order, the
/// header of its framing last, then the blank line. The front door's own answers
/// (``DirectResponseFile``, ``DirectStream``) send it, so a client cannot tell which of the
/// two answered.
enum ResponseHead {
    /// How the body that follows the head is delimited.
    enum Framing: Sendable {
        /// A whole body of this many bytes (`Content-Length`).
        case length(Int)
        /// A stream of chunks (`Transfer-Encoding: chunked`).
        case chunked
    }

    /// The head of a `200` with `headers` and `framing`, dated `second` (Unix time); `nil`
    /// when a header's name or value would break its line (CR, LF or NUL).
    static func ok(headers: [(String, String)], framing: Framing, second: Int) -> [UInt8]? {
        guard headers.allSatisfy({ !breaksLine($0.0) && !breaksLine($0.1) }) else { return nil }
        var head = "HTTP/1.1 200 OK\r\nDate: \(httpDate(second))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        switch framing {
        case .length(let count): head += "Content-Length: \(count)\r\n\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n\r\n"
        }
        return Array(head.utf8)
    }

    private static func breaksLine(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `second` (Unix time) as an HTTP date (RFC 9110 IMF-fixdate), e.g.
    /// `Wed, 25 Nov 2026 02:28:48 GMT`, as libmicrohttpd writes it.
    static func httpDate(_ second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return
            "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
