import Foundation
import Testing

@testable import WebUI

/// The heads the front door writes itself: libmicrohttpd's shape (status line, `Date`
/// first, the framing header last), and none for a header that would break its line.
@Suite struct ResponseHeadTests {
    static let headers = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]

    /// The head's lines, without the blank line that ends it.
    static func lines(_ head: [UInt8]) -> [String] {
        let text = String(decoding: head, as: UTF8.self)
        #expect(text.hasSuffix("\r\n\r\n"), "the head ends with a blank line")
        // "…\r\n\r\n" splits into the lines, then two empty strings.
        return Array(text.components(separatedBy: "\r\n").dropLast(2))
    }

    @Test("a stream's head: status, Date, the headers in order, then Transfer-Encoding")
    func chunked() throws {
        let second = Int(Date().timeIntervalSince1970)
        let head = try #require(ResponseHead.ok(headers: Self.headers, framing: .chunked, second: second))
        let lines = Self.lines(head)
        #expect(lines.first == "HTTP/1.1 200 OK")
        #expect(lines.dropFirst().first == "Date: " + ResponseHead.httpDate(second))
        #expect(Array(lines.dropFirst(2).dropLast()) == Self.headers.map { "\($0.0): \($0.1)" })
        #expect(lines.last == "Transfer-Encoding: chunked")
    }

    @Test("a whole body's head ends with its Content-Length")
    func length() throws {
        let body = Array("<p>hello</p>".utf8)
        let head = try #require(
            ResponseHead.ok(headers: [("Content-Type", "text/html")], framing: .length(body.count), second: 0))
        #expect(Self.lines(head).last == "Content-Length: \(body.count)")
    }

    @Test("no head when a header's name or value holds CR, LF or NUL", arguments: ["\r", "\n", "\0"])
    func breaksLine(_ character: String) {
        let inValue = [("X-Note", "a" + character + "Set-Cookie: b")]
        let inName = [("X" + character + "Y", "a")]
        #expect(ResponseHead.ok(headers: inValue, framing: .chunked, second: 0) == nil)
        #expect(ResponseHead.ok(headers: inName, framing: .length(1), second: 0) == nil)
    }

    @Test("Date is the IMF-fixdate Foundation writes for the same second")
    func httpDate() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let now = Int(Date().timeIntervalSince1970)
        // Now, the epoch, a leap day, the last second of a year, and a date past 2038.
        for second in [now, 0, 951_782_400, 1_798_761_599, 4_102_444_800] {
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(second)))
            #expect(ResponseHead.httpDate(second) == expected, "second \(second)")
        }
    }
}
