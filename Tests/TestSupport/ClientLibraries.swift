import Foundation
import Glibc

/// The real client libraries a user's own page runs on feedweb's page stream, fetched at
/// test time from wheels on PyPI (never committed), once per machine: `django-htmx` ships
/// htmx 2 (`htmx-2.js`) and its SSE extension (`ext/hx-sse-2.js`); `starhtml` ships
/// Datastar v1 (`static/js/datastar-core.js`, Datastar 1.0.1 with StarHTML's small
/// patches). `nil` when pip cannot download them (no network).
public enum ClientLibraries {
    /// htmx 2 and its SSE extension.
    public struct HTMX: Sendable {
        public let htmx: URL
        public let sse: URL
    }

    /// The files of django-htmx 1.29.0 (htmx 2.0.10).
    public static let htmx: HTMX? = {
        guard
            let files = fetch(
                "django-htmx==1.29.0",
                files: [
                    "django_htmx/static/django_htmx/htmx-2.js", "django_htmx/static/django_htmx/ext/hx-sse-2.js",
                ])
        else { return nil }
        return HTMX(htmx: files[0], sse: files[1])
    }()

    /// Datastar 1.0.1 as an ES module, from starhtml 0.7.0.
    public static let datastar: URL? = fetch(
        "starhtml==0.7.0", files: ["starhtml/static/js/datastar-core.js"])?.first

    /// Where the wheels' files are kept between runs.
    static let cache = NSTemporaryDirectory() + "feedweb-client-libraries"

    /// `files` of the wheel `requirement` (`NAME==VERSION`), downloaded with
    /// `python3 -m pip download` and unpacked under ``cache`` unless already there.
    static func fetch(_ requirement: String, files: [String]) -> [URL]? {
        let folder = cache + "/" + requirement.replacingOccurrences(of: "==", with: "-")
        let wanted = files.map { URL(fileURLWithPath: folder + "/" + $0) }
        if wanted.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) { return wanted }
        let download = folder + "/download"
        try? FileManager.default.createDirectory(atPath: download, withIntermediateDirectories: true)
        // A wheel for any Python 3.12 (starhtml asks for it; both are pure Python).
        guard
            run([
                "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps", "--only-binary=:all:",
                "--python-version", "3.12", "--dest", download, requirement,
            ])
        else { return nil }
        let unpack = """
            import glob, sys, zipfile
            wheel = zipfile.ZipFile(glob.glob(sys.argv[1] + "/*.whl")[0])
            for name in sys.argv[3:]:
                wheel.extract(name, sys.argv[2])
            """
        guard run(["-c", unpack, download, folder] + files) else { return nil }
        return wanted.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) ? wanted : nil
    }

    /// Runs `python3 ARGUMENTS` (at most 120 s); whether it exited 0.
    private static func run(_ arguments: [String]) -> Bool {
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        do { try process.run() } catch { return false }
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline { usleep(100_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            return false
        }
        return process.terminationStatus == 0
    }
}
