import CMicroHTTPD

/// A libmicrohttpd connection pointer that may cross threads.
///
/// libmicrohttpd allows `MHD_resume_connection` from any thread; every other use of the
/// pointer happens on the daemon's thread or under the owning stream's lock, and never
/// after the request-completed callback has run.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// A libmicrohttpd daemon pointer that may cross threads (start, quiesce and stop are
/// serialised by ``HTTPServer``).
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
