import CMicroHTTPD

/// Percent-decoding as the server gives it to libmicrohttpd (its unescape callback,
/// `feedweb_unescape`): the one way a request's path and query arguments are decoded,
/// whether libmicrohttpd reads the request or the front door does.
enum PercentDecoding {
    /// `component` decoded: each `%XX` its byte, `%00` DEL (a NUL would cut the string
    /// short), a `%` without two hex digits as it is. `component` is handed over
    /// NUL-terminated, as libmicrohttpd hands it: a NUL inside ends it there.
    static func decoded<Bytes: Sequence<UInt8>>(_ component: Bytes) -> [UInt8] {
        var buffer = component.map { CChar(bitPattern: $0) }
        buffer.append(0)
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return 0 }
            return feedweb_unescape(nil, nil, base)
        }
        return buffer.prefix(count).map { UInt8(bitPattern: $0) }
    }
}
