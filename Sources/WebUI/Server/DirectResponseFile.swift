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
            let headBytes = ResponseHead.ok(
                headers: source.headers, framing: .length(source.bodyCount), second: second)
        else { return nil }
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
}
