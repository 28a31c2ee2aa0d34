import CMicroHTTPD

/// A libmicrohttpd connection pointer that may cross threads, with the loop that runs its
/// daemon.
///
/// libmicrohttpd allows `MHD_resume_connection` from any thread (``resume()``); every other
/// use of the pointer happens on the daemon's thread or under the owning stream's lock, and
/// never after the request-completed callback has run.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    let loop: DaemonLoop

    /// Resumes the suspended connection and wakes its daemon's thread to serve it (a daemon
    /// without a thread of its own has no wake-up channel: ``DaemonLoop``).
    func resume() {
        MHD_resume_connection(pointer)
        loop.wake()
    }
}

/// A libmicrohttpd daemon pointer that may cross threads (start, quiesce and stop are
/// serialised by ``HTTPServer``).
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
