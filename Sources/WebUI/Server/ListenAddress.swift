import Glibc

/// A numeric `HOST:PORT` to bind, IPv4 (`127.0.0.1:8080`) or IPv6 (`[::1]:8080`).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host as written, without brackets.
    public let host: String
    /// The TCP port; 0 asks the kernel for a free one.
    public let port: UInt16
    /// Whether `host` is an IPv6 address.
    public let isIPv6: Bool

    /// Parses `HOST:PORT`; `localhost` is taken as `127.0.0.1`.
    public init(parsing text: String) throws(HTTPServerError) {
        var hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"),
                text[text.index(after: close)...].hasPrefix(":")
            else { throw .invalidListenAddress(text) }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .invalidListenAddress(text) }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        if hostPart == "localhost" { hostPart = "127.0.0.1" }
        guard let port = UInt16(portPart), !hostPart.isEmpty else { throw .invalidListenAddress(text) }
        let host = String(hostPart)
        var probe4 = in_addr()
        var probe6 = in6_addr()
        if inet_pton(AF_INET, host, &probe4) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, host, &probe6) == 1 {
            isIPv6 = true
        } else {
            throw .invalidListenAddress(text)
        }
        self.host = host
        self.port = port
    }

    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with a `sockaddr` for this address.
    func withSockaddr<R>(_ body: (UnsafeMutablePointer<sockaddr>) -> R) -> R {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }
}
