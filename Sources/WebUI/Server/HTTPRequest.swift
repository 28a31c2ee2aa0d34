import CMicroHTTPD

/// A request as the router sees it, valid only during the access-handler call that made it.
///
/// `path` is already percent-decoded by libmicrohttpd; query arguments are decoded too.
/// The type is deliberately not `Sendable`: it borrows the connection.
public struct HTTPRequest {
    /// The request method, e.g. `GET`.
    public let method: String
    /// The decoded path, without the query string.
    public let path: String
    /// The protocol version, e.g. `HTTP/1.1`.
    public let version: String
    let connection: OpaquePointer

    /// The value of the request header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) else {
            return nil
        }
        return String(cString: value)
    }

    /// The decoded value of the query argument `name`, if present (`""` for `?name`).
    public func query(_ name: String) -> String? {
        var value: UnsafePointer<CChar>?
        var length = 0
        let found = MHD_lookup_connection_value_n(
            connection, .GET_ARGUMENT_KIND, name, name.utf8.count, &value, &length)
        guard found == MHD_Result.YES else { return nil }
        guard let value else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: value, count: length), as: UTF8.self)
    }
}
