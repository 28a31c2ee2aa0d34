/// What ``FrontDoor`` makes of the bytes a connection has sent so far: a request it
/// answers itself, a stream it opens itself, or one for libmicrohttpd.
///
/// Pure: it reads bytes and decides; the socket stays with the caller. It accepts only a
/// narrow, plain form and hands everything else to libmicrohttpd, which then applies its
/// own strict rules (a 400, a 431, `Connection: close`, a body), so nothing is ever
/// answered differently for coming through here:
/// - the request line is exactly `GET <path> HTTP/1.1` or `HEAD <path> HTTP/1.1`, with a
///   path that ``FrontDoor`` answers (no query, no escapes), or `GET <path>[?<query>]
///   HTTP/1.1` with a stream's path (no escapes): its query `name[=value]` arguments
///   joined by `&`, none empty, of printable ASCII but `#`, each name and value decoded as
///   libmicrohttpd decodes them for feedweb (``decodedArgument(_:)``);
/// - every line ends in CRLF; header names are tokens; values hold no control character
///   but HTAB; no line is folded;
/// - exactly one `Host`; no `Content-Length`, `Transfer-Encoding`, `Expect` or `Upgrade`,
///   no conditional (`If-*`) or `Range` header, and `Connection` only as `keep-alive`;
/// - the head is at most `maxHeadBytes` long.
enum DirectRequestHead: Equatable {
    /// A request for the path at `pathIndex` of those answered here (`HEAD`: the
    /// response's head only), whose head is the first `length` bytes.
    case answer(pathIndex: Int, isHead: Bool, length: Int)
    /// A `GET` for a stream's path (one of `streamPaths`), whose head is the first
    /// `length` bytes: the request as the router sees it.
    case stream(HTTPRequest, length: Int)
    /// Anything else: libmicrohttpd's to answer.
    case elsewhere
    /// No blank line yet, and fewer than `maxHeadBytes` bytes.
    case incomplete

    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    /// Reads the start of what a connection sent. `paths` are the request targets
    /// answered here, as bytes (`/`); `streamPaths` the paths of the streams opened here
    /// (`/events`).
    static func read(
        _ bytes: UnsafeRawBufferPointer, paths: [[UInt8]], streamPaths: [[UInt8]] = [], maxHeadBytes: Int
    ) -> DirectRequestHead {
        guard let end = headEnd(bytes, limit: maxHeadBytes) else {
            return bytes.count >= maxHeadBytes ? .elsewhere : .incomplete
        }
        let head = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        var lines = LineReader(head)
        guard let requestLine = lines.next() else { return .elsewhere }
        let isHead: Bool
        let target: UnsafeRawBufferPointer
        if let rest = requestLine.dropping(prefix: "GET ") {
            isHead = false
            target = rest
        } else if let rest = requestLine.dropping(prefix: "HEAD ") {
            isHead = true
            target = rest
        } else {
            return .elsewhere
        }
        guard let path = target.dropping(suffix: " HTTP/1.1") else { return .elsewhere }
        enum Kind {
            case answer(Int)
            case stream(path: String, query: [HTTPRequest.Field])
        }
        let kind: Kind
        if let index = paths.firstIndex(where: { $0.elementsEqual(path) }) {
            kind = .answer(index)
        } else if !isHead, let stream = Self.streamTarget(path, streamPaths: streamPaths) {
            kind = .stream(path: stream.path, query: stream.query)
        } else {
            return .elsewhere
        }
        var hosts = 0
        var headers: [HTTPRequest.Field] = []
        while let line = lines.next() {
            guard line.count > 0 else { break }  // the blank line
            guard let field = Field(line) else { return .elsewhere }
            switch field.kind {
            case .host: hosts += 1
            case .connection: guard field.valueIs("keep-alive") else { return .elsewhere }
            case .changesTheAnswer: return .elsewhere
            case .other: break
            }
            if case .stream = kind {
                headers.append(HTTPRequest.Field(name: String(decoding: field.name, as: UTF8.self), value: field.text))
            }
        }
        guard hosts == 1, lines.isBroken == false else { return .elsewhere }
        switch kind {
        case .answer(let index):
            return .answer(pathIndex: index, isHead: isHead, length: end)
        case .stream(let path, let query):
            let request = HTTPRequest(
                method: "GET", path: path, version: "HTTP/1.1", queryArguments: query, headers: headers)
            return .stream(request, length: end)
        }
    }

    /// The path and arguments of a request target for a stream: one of `streamPaths`, then
    /// a plain query or none; `nil` for anything else.
    private static func streamTarget(
        _ target: UnsafeRawBufferPointer, streamPaths: [[UInt8]]
    ) -> (path: String, query: [HTTPRequest.Field])? {
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let path = UnsafeRawBufferPointer(rebasing: target[..<(question ?? target.count)])
        guard streamPaths.contains(where: { $0.elementsEqual(path) }) else { return nil }
        var query: [HTTPRequest.Field] = []
        if let question {
            let text = UnsafeRawBufferPointer(rebasing: target[(question + 1)...])
            guard !text.isEmpty, text.allSatisfy(isQueryByte) else { return nil }
            for argument in text.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
                let equals = argument.firstIndex(of: UInt8(ascii: "="))
                let name = argument[..<(equals ?? argument.endIndex)]
                guard !name.isEmpty else { return nil }
                let value = equals.map { decodedArgument(argument[($0 + 1)...]) } ?? ""
                query.append(HTTPRequest.Field(name: decodedArgument(name), value: value))
            }
        }
        return (String(decoding: path, as: UTF8.self), query)
    }

    /// A byte the door reads in a query: printable ASCII but `#` (a fragment, which no
    /// client sends).
    private static func isQueryByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "#")
    }

    /// A query argument's name or value as the router gets it from libmicrohttpd: each `+`
    /// a space (libmicrohttpd's own step), then percent-decoded by feedweb's unescape
    /// callback (`feedweb_unescape`: `%00` becomes DEL, a `%` without two hex digits stays
    /// as it is), then read as UTF-8 (an invalid sequence becomes U+FFFD), as the server
    /// reads libmicrohttpd's fields. The same decoding both ways (``PercentDecoding``).
    private static func decodedArgument(_ raw: UnsafeRawBufferPointer.SubSequence) -> String {
        let decoded = PercentDecoding.decoded(raw.lazy.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 })
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The length of the head including its blank line (`\r\n\r\n`), if it ends within
    /// `limit` bytes.
    private static func headEnd(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Int? {
        let count = min(bytes.count, limit)
        guard count >= 4 else { return nil }
        var index = 3
        while index < count {
            if bytes[index] == lf && bytes[index - 1] == cr && bytes[index - 2] == lf && bytes[index - 3] == cr {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// The lines of a head, without their CRLF; a line with a bare CR or LF marks the head
    /// broken and ends the reading.
    private struct LineReader {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        var isBroken = false

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func next() -> UnsafeRawBufferPointer? {
            guard !isBroken, position < bytes.count else { return nil }
            var index = position
            while index < bytes.count {
                let byte = bytes[index]
                if byte == DirectRequestHead.cr {
                    guard index + 1 < bytes.count, bytes[index + 1] == DirectRequestHead.lf else {
                        isBroken = true
                        return nil
                    }
                    let line = UnsafeRawBufferPointer(rebasing: bytes[position..<index])
                    position = index + 2
                    return line
                }
                if byte == DirectRequestHead.lf {
                    isBroken = true
                    return nil
                }
                index += 1
            }
            isBroken = true
            return nil
        }
    }

    /// One header line, `name: value`.
    private struct Field {
        enum Kind { case host, connection, changesTheAnswer, other }
        let kind: Kind
        let name: UnsafeRawBufferPointer
        /// The value without the white space around it.
        let value: UnsafeRawBufferPointer

        /// `nil` when the line is not a plain field (folded, no colon, a name that is not
        /// a token, a control character in the value).
        init?(_ line: UnsafeRawBufferPointer) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
            let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
            guard name.allSatisfy(Self.isTokenByte) else { return nil }
            self.name = name
            var value = UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { return nil }
            while let first = value.first, first == 0x20 || first == 0x09 {
                value = UnsafeRawBufferPointer(rebasing: value[1...])
            }
            while let last = value.last, last == 0x20 || last == 0x09 {
                value = UnsafeRawBufferPointer(rebasing: value[..<(value.count - 1)])
            }
            self.value = value
            if name.equalsCaseless("host") {
                kind = .host
            } else if name.equalsCaseless("connection") {
                kind = .connection
            } else if name.equalsCaseless("content-length") || name.equalsCaseless("transfer-encoding")
                || name.equalsCaseless("expect") || name.equalsCaseless("upgrade") || name.equalsCaseless("range")
                || name.startsCaseless(with: "if-")
            {
                kind = .changesTheAnswer
            } else {
                kind = .other
            }
        }

        func valueIs(_ text: StaticString) -> Bool { value.equalsCaseless(text) }

        /// The value as text (bytes past ASCII read as UTF-8, as the router reads
        /// libmicrohttpd's).
        var text: String { String(decoding: value, as: UTF8.self) }

        /// RFC 9110 `tchar`.
        static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// What follows `prefix`, if the bytes start with it.
    fileprivate func dropping(prefix: StaticString) -> UnsafeRawBufferPointer? {
        let count = prefix.utf8CodeUnitCount
        guard self.count >= count else { return nil }
        let matches = prefix.withUTF8Buffer { expected in
            UnsafeRawBufferPointer(rebasing: self[..<count]).elementsEqual(expected)
        }
        return matches ? UnsafeRawBufferPointer(rebasing: self[count...]) : nil
    }

    /// What comes before `suffix`, if the bytes end with it.
    fileprivate func dropping(suffix: StaticString) -> UnsafeRawBufferPointer? {
        let count = suffix.utf8CodeUnitCount
        guard self.count >= count else { return nil }
        let matches = suffix.withUTF8Buffer { expected in
            UnsafeRawBufferPointer(rebasing: self[(self.count - count)...]).elementsEqual(expected)
        }
        return matches ? UnsafeRawBufferPointer(rebasing: self[..<(self.count - count)]) : nil
    }

    /// ASCII case-insensitive equality with `text`.
    fileprivate func equalsCaseless(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && startsCaseless(with: text)
    }

    /// Whether the bytes start with `text`, ASCII case-insensitively.
    fileprivate func startsCaseless(with text: StaticString) -> Bool {
        guard count >= text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            zip(self, expected).allSatisfy { Self.folded($0) == Self.folded($1) }
        }
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
