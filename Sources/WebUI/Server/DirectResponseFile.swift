import CMicroHTTPD
import Glibc

/// One whole HTTP/1.1 response — status line, `Date`, the prepared response's headers,
/// `Content-Length`, the blank line, then the body — in a sealed memory file, so that
/// ``FrontDoor`` sends it with one `sendfile(2)`: head and body in one segment (on
/// loopback), and the body never copied from user memory into the socket.
///
/// The bytes are those libmicrohttpd sends for the same response to an HTTP/1.1 keep-alive
/// request (its header order: `Date` first, `Content-Length` last), so a client cannot tell
/// which of the two answered. One file per response and second of its `Date`; immutable
/// once made (sealed against writes), and closed when the last holder lets go, so a
/// response half sent when a newer one is made finishes with the bytes it began with.
final class DirectResponseFile: @unchecked Sendable {
    /// The memory file.
    let fd: Int32
    /// The bytes of the head (status line through the blank line): all a `HEAD` gets.
    let headCount: Int
    /// The bytes of the whole response.
    let totalCount: Int
    /// The prepared response it was made from (held, so that its identity is never reused).
    let source: PreparedResponse
    /// The second (Unix time) its `Date` header names.
    let second: Int

    /// `nil` when `source` is not a 200, holds a header that is not a single line, or the
    /// system refuses the file.
    init?(source: PreparedResponse, second: Int) {
        guard source.status == 200,
            source.headers.allSatisfy({ !Self.breaksLine($0.0) && !Self.breaksLine($0.1) })
        else { return nil }
        var head = "HTTP/1.1 200 OK\r\nDate: \(Self.httpDate(second))\r\n"
        for (name, value) in source.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(source.bodyCount)\r\n\r\n"
        let headBytes = Array(head.utf8)
        let fd = feedweb_memfd_create("feedweb-page")
        guard fd >= 0 else { return nil }
        guard Self.writeAll(fd, headBytes), Self.writeAll(fd, source.body),
            feedweb_memfd_seal(fd) == 0
        else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.headCount = headBytes.count
        self.totalCount = headBytes.count + source.bodyCount
        self.source = source
        self.second = second
    }

    deinit { close(fd) }

    private static func breaksLine(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                guard let base = raw.baseAddress else { return true }
                let written = write(fd, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
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
