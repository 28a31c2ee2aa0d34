import FeedCore
import Foundation
import FuzzSupport
@_spi(Fuzzing) import WebUI

/// A request through path and query decoding and the router, as the server hands it over:
/// every answer is a complete response or a stream, and none is a server error (5xx). And
/// the front door's own reading of the same bytes, when it would open the stream itself
/// (a plain `GET /events`), is the request libmicrohttpd's decoding makes of them.
///
/// Input, lines split at LF: the method, the request target (`/path?query`), the version,
/// then header lines `Name: value`. The target is split and decoded as libmicrohttpd
/// does before the router runs: the path at the first `?`, the query at `&` and each
/// argument at its first `=`, `+` as a space, then the server's own unescape callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let lines = UnsafeRawBufferPointer(start: start, count: count)
        .split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) }
    let method = lines.first.map(text) ?? "GET"
    let target = lines.count > 1 ? lines[1] : Array("/".utf8)
    let version = lines.count > 2 ? text(lines[2]) : "HTTP/1.1"
    let headers = lines.dropFirst(3).map { line -> HTTPRequest.Field in
        let parts = line.split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false)
        let value = parts.count > 1 ? text(Array(parts[1])).trimmingCharacters(in: .whitespaces) : ""
        return HTTPRequest.Field(name: text(Array(parts[0])), value: value)
    }
    let pathEnd = target.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex
    let path = text(FuzzingEntry.unescape(Array(target[..<pathEnd])))
    let query = pathEnd < target.endIndex ? Array(target[(pathEnd + 1)...]) : []
    let arguments = query.split(separator: UInt8(ascii: "&")).map { argument -> HTTPRequest.Field in
        let parts = argument.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
        return HTTPRequest.Field(
            name: decodeArgument(Array(parts[0])), value: parts.count > 1 ? decodeArgument(Array(parts[1])) : "")
    }
    let request = HTTPRequest(method: method, path: path, version: version, queryArguments: arguments, headers: headers)
    let answer = routing.respond(to: request)
    invariant(answer.status < 500, "\(method) \(path) was answered \(answer.status)")
    // The same request as a client would send it (an empty header line would end its head
    // early: then the two are not the same request).
    guard !lines.dropFirst(3).contains(where: \.isEmpty) else { return 0 }
    var head = Array("\(method) ".utf8) + target + Array(" \(version)\r\n".utf8)
    for line in lines.dropFirst(3) { head += line + [13, 10] }
    head += [13, 10]
    if let door = FuzzingEntry.doorStreamRequest(head, streamPaths: ["/events", "/events/items"]) {
        invariant(
            door.method == request.method && door.path == request.path && door.version == request.version
                && door.queryArguments == request.queryArguments
                && door.headers.map(\.name) == request.headers.map(\.name),
            "the door read \(door), libmicrohttpd's decoding \(request)")
    }
    return 0
}

/// Bytes as libmicrohttpd's C strings become Swift strings in the server.
func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
}

/// A query argument's name or value, decoded as libmicrohttpd decodes it.
func decodeArgument(_ bytes: [UInt8]) -> String {
    text(FuzzingEntry.unescape(bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }))
}

/// The router over a newswire document of two stories, with the repository's `Public/`.
let routing: FuzzingEntry.Routing = longLived {
    let document = #"""
        {"status":"OK","num_results":2,"results":[
        {"uri":"nyt://article/1","url":"https://example.com/a","section":"World","subsection":"Europe",
         "title":"A <b>title</b>","abstract":"An abstract","byline":"By A","published_date":"2025-01-01T10:00:00-05:00",
         "updated_date":"2025-01-01T11:00:00-05:00","multimedia":[{"url":"https://example.com/a.jpg","format":"Large Thumbnail",
         "caption":"c","copyright":"r"}],"related_urls":[{"url":"https://example.com/r","suggested_link_text":"more"}]},
        {"uri":"nyt://article/2","url":"javascript:alert(1)","section":"Arts","title":"Second","abstract":"",
         "multimedia":"","published_date":"2025-01-01T09:00:00-05:00"}]}
        """#
    let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Public").path
    return FuzzingEntry.Routing(
        document: (try? JSONValue(parsing: document)) ?? .null, publicDirectory: publicDirectory)
}
