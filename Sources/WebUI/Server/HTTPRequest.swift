/// A request as the router sees it: a plain value, copied out of libmicrohttpd's connection
/// before the router runs, so handlers are called (and tested) without a socket.
///
/// `path` and the query arguments are percent-decoded by libmicrohttpd (with `%00` as DEL,
/// see `feedweb_unescape`); header values are as received. Lookups behave as
/// libmicrohttpd's own: names compare ASCII case-insensitively and the first field
/// received with the name wins.
public struct HTTPRequest: Sendable, Equatable {
    /// One header or query argument, as received.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The request method, e.g. `GET`.
    public var method: String
    /// The decoded path, without the query string.
    public var path: String
    /// The protocol version, e.g. `HTTP/1.1`.
    public var version: String
    /// The decoded query arguments, in the order received (`""` as the value of `?name`).
    public var queryArguments: [Field]
    /// The request headers, in the order received.
    public var headers: [Field]

    /// A request with the given fields, in order (what the server copies out of a connection).
    public init(method: String, path: String, version: String, queryArguments: [Field], headers: [Field]) {
        self.method = method
        self.path = path
        self.version = version
        self.queryArguments = queryArguments
        self.headers = headers
    }

    /// A request as a test writes one: `query` holds decoded arguments and `headers` their
    /// values, each in order.
    public init(
        method: String = "GET", path: String, version: String = "HTTP/1.1",
        query: KeyValuePairs<String, String> = [:], headers: KeyValuePairs<String, String> = [:]
    ) {
        self.init(
            method: method, path: path, version: version,
            queryArguments: query.map { Field(name: $0.key, value: $0.value) },
            headers: headers.map { Field(name: $0.key, value: $0.value) })
    }

    /// The value of the first request header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        Self.first(name, in: headers)
    }

    /// The decoded value of the first query argument `name` (case-insensitive), if present
    /// (`""` for `?name`).
    public func query(_ name: String) -> String? {
        Self.first(name, in: queryArguments)
    }

    /// The decoded values of every query argument `name` (case-insensitive), in order.
    public func queries(_ name: String) -> [String] {
        queryArguments.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    private static func first(_ name: String, in fields: [Field]) -> String? {
        fields.first { namesMatch($0.name, name) }?.value
    }

    /// ASCII case-insensitive equality, byte for byte (libmicrohttpd's
    /// `MHD_str_equal_caseless_bin_n_`).
    private static func namesMatch(_ left: String, _ right: String) -> Bool {
        func folded(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
        return left.utf8.count == right.utf8.count
            && zip(left.utf8, right.utf8).allSatisfy { folded($0) == folded($1) }
    }
}
