import Glibc

/// The test process's open-file limit (many-client tests hold one socket per client).
public enum FileLimit {
    public struct TooLow: Error, CustomStringConvertible {
        public let needed: Int
        public let hard: Int
        public var description: String { "need \(needed) open files; the hard limit is \(hard)" }
    }

    /// Raises the soft limit to at least `count` (within the hard limit, which cannot be raised).
    public static func raise(toAtLeast count: Int) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur >= rlim_t(count) { return }
        guard limit.rlim_max >= rlim_t(count) else { throw TooLow(needed: count, hard: Int(limit.rlim_max)) }
        limit.rlim_cur = rlim_t(count)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Raises the soft limit as far as the hard limit allows; returns the soft limit now.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return limit.rlim_cur == rlim_t.max ? Int.max : Int(clamping: limit.rlim_cur)
    }
}
