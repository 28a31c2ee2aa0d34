import Foundation

/// Finds the `Public/` directory when `--public-dir` is not given (the default of
/// ``FeedwebConfiguration/publicDirectory``).
enum PublicDirectory {
    /// The first `Public/` found next to the executable or in one of its parent
    /// directories (so `.build/debug/feedweb` finds the project's), else `./Public`.
    static func locate() -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("Public")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue
            {
                return candidate.path
            }
            directory = directory.deletingLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath + "/Public"
    }
}
