import Foundation

/// Finds the `Public/` directory when `--public-dir` is not given (the default of
/// ``FeedwebConfiguration/publicDirectory``).
enum PublicDirectory {
    /// Where `make install` puts the static files, relative to the folder above the
    /// binary's (`PREFIX/bin/feedweb` → `PREFIX/share/feedweb/Public`).
    static let installedPath = "share/feedweb/Public"

    /// The first static folder found next to the executable or in one of its parent
    /// directories: a `Public/` (so `.build/debug/feedweb` finds the project's), or the
    /// ``installedPath`` (so an installed binary finds its own); else `./Public`.
    static func locate() -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            for candidate in ["Public", installedPath].map({ directory.appendingPathComponent($0) }) {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                {
                    return candidate.path
                }
            }
            directory = directory.deletingLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath + "/Public"
    }
}
