#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The monotonic clock (`CLOCK_MONOTONIC`) in nanoseconds: what feedweb measures intervals
/// with (a stream's stall, a change's way from upstream to the sockets). Not a wall time:
/// only differences mean anything, and it never goes backwards.
public enum MonotonicTime {
    /// Now, in nanoseconds since an arbitrary point (the machine's boot).
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
