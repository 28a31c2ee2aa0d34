#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `feedweb --version` prints: the version, and the git commit the binary was built
/// from when its build recorded one.
///
/// The commit is not compiled in: `make release` (and `make run`, `make install`) link the
/// binary with `--defsym=feedweb_git_commit=0x<first 16 hex digits of HEAD>`, an absolute
/// symbol whose value is the commit, exported so that `dlsym` finds it. Only the link step
/// changes from one commit to the next, and a build that did not record one (a plain
/// `swift build`) says so instead of guessing.
enum FeedwebVersion {
    /// The release, changed by hand when one is made.
    static let number = "0.1.0"

    /// The first 16 hex digits of the commit checked out when the binary was linked
    /// (uncommitted changes are not recorded), or `nil` when the build did not record it.
    static var commit: String? {
        guard let program = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(program) }
        guard let value = dlsym(program, "feedweb_git_commit") else { return nil }
        let hex = String(UInt(bitPattern: value), radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    /// `feedweb 0.1.0 (commit 0c5c871a2b3c4d5e)`, or `(commit not recorded)`.
    static var description: String {
        "feedweb \(number) (commit \(commit ?? "not recorded in this build"))"
    }
}
