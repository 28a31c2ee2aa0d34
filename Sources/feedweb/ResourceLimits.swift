import Glibc

/// Process limits feedweb needs to hold many connections.
enum ResourceLimits {
    /// Raises the soft limit on open files to the hard limit (one per SSE client).
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
