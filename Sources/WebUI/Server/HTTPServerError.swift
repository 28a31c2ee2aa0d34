/// Why the HTTP server could not start.
public enum HTTPServerError: Error, CustomStringConvertible, Equatable {
    /// The listen address is not `HOST:PORT` with a numeric IPv4 or bracketed IPv6 host.
    case invalidListenAddress(String)
    /// libmicrohttpd could not start (the port is in use, or no permission to bind it).
    case cannotListen(String)

    public var description: String {
        switch self {
        case .invalidListenAddress(let address):
            return "invalid listen address '\(address)': expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"
        case .cannotListen(let address):
            return "cannot listen on \(address): the address is in use or not available"
        }
    }
}
