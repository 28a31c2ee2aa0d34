import Foundation

/// A parsed HTTP/1.1 response.
public struct TestResponse: Sendable {
    public let status: Int
    /// Header names lower-cased; repeated headers joined with ", ".
    public let headers: [String: String]
    public let body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// HTTP/1.1 requests over ``RawSocket`` (one request per connection unless a socket is
/// passed), every wait `async` and bounded by `timeout` seconds per read.
public enum HTTPTestClient {
    /// Sends one request and reads the whole response.
    public static func get(
        port: UInt16, _ path: String, method: String = "GET", headers: [String: String] = [:], timeout: Double = 10
    ) async throws -> TestResponse {
        let socket = try await RawSocket(port: port, timeout: timeout)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        try await socket.send(request)
        return try await readResponse(from: socket, method: method)
    }

    /// Sends a request with a body (JSON by default) and reads the response.
    public static func send(
        port: UInt16, _ path: String, method: String, body: [UInt8],
        contentType: String = "application/json; charset=utf-8", timeout: Double = 30
    ) async throws -> TestResponse {
        let socket = try await RawSocket(port: port, timeout: timeout)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        request += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n"
        try await socket.send(Array(request.utf8) + body)
        return try await readResponse(from: socket, method: method)
    }

    /// Sends raw bytes (a malformed request, say) and reads one response.
    public static func raw(port: UInt16, _ request: String, timeout: Double = 10) async throws -> TestResponse {
        let socket = try await RawSocket(port: port, timeout: timeout)
        try await socket.send(request)
        return try await readResponse(from: socket, method: "GET")
    }

    /// Reads the status line and headers of a response.
    public static func readHead(from socket: RawSocket) async throws -> (status: Int, headers: [String: String]) {
        let statusLine = try await socket.readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw RawSocket.Failure.closed }
        var headers: [String: String] = [:]
        while true {
            let line = try await socket.readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return (status, headers)
    }

    /// Reads one whole response (head and body, however it is delimited).
    public static func readResponse(from socket: RawSocket, method: String) async throws -> TestResponse {
        let (status, headers) = try await readHead(from: socket)
        if method == "HEAD" || status == 304 || status == 204 {
            return TestResponse(status: status, headers: headers, body: [])
        }
        var body: [UInt8] = []
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            var decoder = ChunkedDecoder()
            body = try decoder.feed(socket.takeBuffered())
            let deadline = ContinuousClock.now + .seconds(socket.timeout)
            while !decoder.finished {
                body += try decoder.feed(try await socket.receive(before: deadline))
            }
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            body = try await socket.read(count: length)
        } else {
            body = try await socket.readToEnd()
        }
        return TestResponse(status: status, headers: headers, body: body)
    }
}
