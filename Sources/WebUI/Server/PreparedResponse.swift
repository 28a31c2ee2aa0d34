import CMicroHTTPD
import Glibc

/// A complete HTTP response built once and queued for any number of requests.
///
/// libmicrohttpd reference-counts responses, so one `PreparedResponse` may be queued
/// concurrently from every worker. The body is copied once, at creation, into a buffer that
/// the libmicrohttpd response owns and frees when the last queued use and this object are
/// gone; ``body`` reads it back (for tests), so the bytes are held once. Build one per
/// rendered page version, not per request.
///
/// Immutable after creation: ``status``, ``headers`` and ``body`` are what every request
/// that gets it is sent (libmicrohttpd adds `Content-Length`, `Date` and the connection
/// headers).
public final class PreparedResponse: @unchecked Sendable {
    /// The HTTP status code sent with this response.
    public let status: UInt32
    /// The headers (name, value), in the order they are sent.
    public let headers: [(String, String)]
    /// The body length in bytes.
    public let bodyCount: Int
    /// The body, owned by the libmicrohttpd response (`nil` when empty); never written.
    private let bodyStart: UnsafeMutableRawPointer?
    let pointer: OpaquePointer

    /// Builds a response with `body` and the given headers (name, value) in order.
    ///
    /// Returns `nil` only when memory for the response cannot be allocated.
    public init?(status: UInt32, body: [UInt8], headers: [(String, String)]) {
        var buffer: UnsafeMutableRawPointer?
        if !body.isEmpty {
            guard let allocated = malloc(body.count) else { return nil }
            body.withUnsafeBytes { raw in
                if let base = raw.baseAddress { allocated.copyMemory(from: base, byteCount: raw.count) }
            }
            buffer = allocated
        }
        // libmicrohttpd calls `free(buffer)` when it destroys the response.
        guard let response = MHD_create_response_from_buffer_with_free_callback(body.count, buffer, free) else {
            free(buffer)
            return nil
        }
        for (name, value) in headers {
            MHD_add_response_header(response, name, value)
        }
        self.status = status
        self.headers = headers
        self.bodyCount = body.count
        self.bodyStart = buffer
        self.pointer = response
    }

    /// A response built once at start (an error page, a fixed JSON answer): failing to
    /// allocate one means memory is exhausted before serving anything, and stops the process.
    static func fixed(status: UInt32, body: [UInt8], headers: [(String, String)]) -> PreparedResponse {
        guard let response = PreparedResponse(status: status, body: body, headers: headers) else {
            fatalError("cannot allocate the \(status) response")
        }
        return response
    }

    /// A libmicrohttpd response of one request's own: this response's body (not copied)
    /// and headers, then `extra`. It holds this object (and so the body) until
    /// libmicrohttpd destroys it; the caller queues it and then calls
    /// `MHD_destroy_response` once, as for any response it created. `nil` only when memory
    /// for it cannot be allocated.
    ///
    /// For headers that differ per request (CORS's allowed origin) on an answer every
    /// request shares: this object is never changed, so no request's headers reach another.
    func response(adding extra: [(String, String)]) -> OpaquePointer? {
        let retained = Unmanaged.passRetained(self).toOpaque()
        guard
            let response = MHD_create_response_from_buffer_with_free_callback_cls(
                bodyCount, bodyStart,
                { context in
                    guard let context else { return }
                    Unmanaged<PreparedResponse>.fromOpaque(context).release()
                }, retained)
        else {
            Unmanaged<PreparedResponse>.fromOpaque(retained).release()
            return nil
        }
        for (name, value) in headers + extra {
            MHD_add_response_header(response, name, value)
        }
        return response
    }

    /// The body bytes (a copy).
    public var body: [UInt8] {
        guard let bodyStart else { return [] }
        return Array(UnsafeRawBufferPointer(start: bodyStart, count: bodyCount))
    }

    /// The value of the first header `name` (ASCII case-insensitive), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    deinit {
        // The buffer lives on while a queued use holds the response; libmicrohttpd frees it.
        MHD_destroy_response(pointer)
    }
}
