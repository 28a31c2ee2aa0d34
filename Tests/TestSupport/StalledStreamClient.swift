import Foundation

/// A stream client that never reads: a socket with a tiny receive buffer (set before
/// connecting, so the advertised window stays small) that sends its request and then
/// leaves every byte in the kernel.
public final class StalledStreamClient: Sendable {
    public let socket: RawSocket

    /// Connects to `127.0.0.1:port` and requests `path`.
    public init(port: UInt16, path: String = "/events", receiveBuffer: Int32 = 2048) async throws {
        socket = try await RawSocket(port: port, receiveBuffer: receiveBuffer)
        try await socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
    }

    /// Bytes waiting unread in this socket's receive queue.
    public var unreadBytes: Int { socket.unreadBytes }

    /// Reads everything until the server closes the connection (or `seconds` pass):
    /// returns the bytes and whether the end was a close (`false`: timed out while open).
    public func drain(within seconds: Double) async throws -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            do {
                bytes += try await socket.receive(before: deadline)
            } catch RawSocket.Failure.timeout {
                return (bytes, false)
            } catch {
                return (bytes, true)  // closed or reset by the server
            }
        }
    }
}
