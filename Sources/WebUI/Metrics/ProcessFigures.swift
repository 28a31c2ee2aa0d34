import Foundation

/// The process's own resource figures, read from `/proc/self` at scrape time (Linux).
struct ProcessFigures: Sendable {
    /// Resident set size, in bytes.
    let residentBytes: UInt64
    /// Open file descriptors (sockets included).
    let openDescriptors: Int

    /// The figures now; zero for any that cannot be read.
    static func current() -> ProcessFigures {
        ProcessFigures(residentBytes: residentBytes(), openDescriptors: openDescriptors())
    }

    /// The second field of `/proc/self/statm` is the resident size in pages.
    private static func residentBytes() -> UInt64 {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = UInt64(fields[1]) else { return 0 }
        return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}
