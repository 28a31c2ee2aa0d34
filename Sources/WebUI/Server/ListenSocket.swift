import CMicroHTTPD
import Glibc

/// The server's listening TCP socket, opened by feedweb itself (not libmicrohttpd) so that
/// ``FrontDoor`` accepts every connection first. Non-blocking, close-on-exec,
/// `SO_REUSEADDR` (as libmicrohttpd sets it), IPv6 sockets IPv6-only.
struct ListenSocket {
    /// The socket.
    let fd: Int32
    /// The port it is bound to (the kernel's choice when asked for port 0).
    let port: UInt16

    /// Binds `address` and listens with `backlog`.
    static func open(_ address: ListenAddress, backlog: Int) throws(HTTPServerError) -> ListenSocket {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let fd = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(address.description) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 {
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let length = socklen_t(address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = address.withSockaddr { bind(fd, $0, length) == 0 }
        guard bound, listen(fd, Int32(clamping: backlog)) == 0 else {
            close(fd)
            throw .cannotListen(address.description)
        }
        var storage = sockaddr_storage()
        var storageLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &storageLength) == 0 }
        }
        guard named else {
            close(fd)
            throw .cannotListen(address.description)
        }
        let port = withUnsafeBytes(of: &storage) { raw -> UInt16 in
            // sin_port and sin6_port are both the 16 bits after the family, network order.
            UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        }
        return ListenSocket(fd: fd, port: port)
    }
}
