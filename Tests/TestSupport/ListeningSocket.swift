import Foundation
import Glibc

/// A TCP socket listening on a free port of 127.0.0.1 that accepts nobody: the port is
/// taken for as long as the socket is open (for tests of a busy `--listen` address).
public final class ListeningSocket: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let fd: Int32
    public let port: UInt16

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let message = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw Failure(description: "bind or listen on 127.0.0.1: \(message)")
        }
        fd = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Closes the socket, freeing the port.
    public func close() {
        Glibc.close(fd)
    }
}
