import CMicroHTTPD

/// A complete HTTP response built once and queued for any number of requests.
///
/// libmicrohttpd reference-counts responses, so one `PreparedResponse` may be queued
/// concurrently from every worker; the body is copied into the response at creation and
/// freed when the last queued use and this object are gone. Build one per rendered page
/// version, not per request.
public final class PreparedResponse: @unchecked Sendable {
    /// The HTTP status code sent with this response.
    public let status: UInt32
    /// The body length in bytes.
    public let bodyCount: Int
    let pointer: OpaquePointer

    /// Builds a response with `body` and the given headers (name, value) in order.
    ///
    /// Returns `nil` only when libmicrohttpd cannot allocate the response.
    public init?(status: UInt32, body: [UInt8], headers: [(String, String)]) {
        let created: OpaquePointer? = body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count,
                UnsafeMutableRawPointer(mutating: raw.baseAddress),
                .RESPMEM_MUST_COPY
            )
        }
        guard let response = created else { return nil }
        for (name, value) in headers {
            MHD_add_response_header(response, name, value)
        }
        self.status = status
        self.bodyCount = body.count
        self.pointer = response
    }

    deinit {
        MHD_destroy_response(pointer)
    }
}
